import type { ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import type { TMspProfile } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { useMspProfile } from '../../../app/brand/msp-profile-queries';
import { AuthLayout } from './auth-layout';
import { FormError } from './form-error';
import { MspNotFound } from './msp-not-found';

interface TMspAuthFrameProps {
  customDomain: string;
  title: (mspName: string) => string;
  children: (profile: TMspProfile) => ReactNode;
}

/** Loads an MSP's public profile and frames a page with its name and logo; unknown MSP → not found. */
export function MspAuthFrame({ customDomain, title, children }: TMspAuthFrameProps) {
  const profile = useMspProfile(customDomain);
  if (profile.isPending) {
    return (
      <Center mih="50vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (profile.isError) {
    if (isApiError(profile.error) && profile.error.status === 404) return <MspNotFound customDomain={customDomain} />;
    return (
      <AuthLayout title={title(customDomain)}>
        <FormError message={errorDetail(profile.error)} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={title(profile.data.mspName)} logoUrl={profile.data.logoUrl} logoAlt={`${profile.data.mspName} logo`}>
      {children(profile.data)}
    </AuthLayout>
  );
}
