import { useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { mspFromPath } from '../../lib/route-progress';
import { useSessionUser } from '../../features/session/api/session-queries';
import { useMspProfile } from './msp-profile-queries';
import { createBrandTheme } from './brand-theme';

type TLocationSource = {
  subscribe: (listener: () => void) => () => void;
  getPathname: () => string;
};

/**
 * Mantine's default "dimmed" grey (gray.6) is 3.3:1 on white, below WCAG AA's 4.5:1 for body text;
 * gray.7 keeps the hierarchy and passes (the accessibility journey checks it).
 */
const resolveAccessibleVariables: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: { '--mantine-color-dimmed': theme.colors.gray[7] ?? '#495057' },
  dark: {},
});

/** Themes the app with the brand of the signed-in user's MSP, or of the MSP in the URL (default red otherwise). */
export function BrandedMantineProvider({ locationSource, children }: { locationSource: TLocationSource; children: ReactNode }) {
  const pathname = useSyncExternalStore(locationSource.subscribe, locationSource.getPathname);
  const user = useSessionUser();
  const mspCustomDomain = user?.principal === 'user' ? user.mspCustomDomain : mspFromPath(pathname);
  const mspProfile = useMspProfile(mspCustomDomain);
  const brand = mspProfile.data?.brand;
  const theme = useMemo(() => createBrandTheme(brand), [brand]);
  return (
    // deduplicateCssVariables off: the provider writes every theme variable itself, so Mantine's
    // default-css-variables.css (4 KB gzip) is not loaded separately (issue #6 §5).
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={resolveAccessibleVariables} deduplicateCssVariables={false}>
      {children}
    </MantineProvider>
  );
}
