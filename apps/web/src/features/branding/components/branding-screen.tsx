import { useState } from 'react';
import { Alert, Button, ColorInput, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DEFAULT_BRAND_COLOUR } from '@switchboard/contracts';
import type { TMspBrand } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useBranding, useSaveBranding } from '../api/branding-queries';
import { contrastWithWhite, MIN_CONTRAST, suggestAccessibleShade } from '../contrast';
import { LogoCard } from './logo-card';
import { useDocumentTitle } from '../../../lib/use-document-title';

const FIELDS: Array<{ key: keyof TMspBrand; label: string; use: string }> = [
  { key: 'primaryColour', label: 'Primary colour', use: 'links, active tabs and highlights' },
  { key: 'primaryButtonColour', label: 'Primary button colour', use: 'main buttons, with white text' },
  { key: 'secondaryButtonColour', label: 'Secondary button colour', use: 'secondary buttons' },
];

const HEX = /^#[0-9a-fA-F]{6}$/;
const DEFAULTS: TMspBrand = { primaryColour: DEFAULT_BRAND_COLOUR, primaryButtonColour: DEFAULT_BRAND_COLOUR, secondaryButtonColour: DEFAULT_BRAND_COLOUR };

function ContrastWarning({ colour, onUse }: { colour: string; onUse: (shade: string) => void }) {
  const ratio = contrastWithWhite(colour);
  if (ratio === null || ratio >= MIN_CONTRAST) return null;
  const shade = suggestAccessibleShade(colour);
  return (
    // The light yellow variant's own title colour is about 2.5:1 on its tint; dark text reads.
    <Alert color="yellow" title="Hard to read on white" p="xs" styles={{ title: { color: 'var(--mantine-color-dark-7)' } }}>
      <Text size="sm">
        White text on this colour has a contrast of {ratio.toFixed(1)}:1; at least {MIN_CONTRAST}:1 is needed to read it easily.
      </Text>
      {shade ? (
        <Button size="compact-sm" mt={6} variant="default" onClick={() => onUse(shade)}>
          Use {shade} instead
        </Button>
      ) : null}
    </Alert>
  );
}

/** 01 §2 Branding: three colour pickers, all defaulting to one red, saved per MSP; and the logo. */
export function BrandingScreen({ mspCustomDomain, mspName }: { mspCustomDomain: string; mspName: string }) {
  useDocumentTitle('Branding');
  const branding = useBranding(mspCustomDomain);
  const saveBranding = useSaveBranding(mspCustomDomain);
  // Unsaved edits over the saved colours (the server answers the default red until the MSP saves its own).
  const [edits, setEdits] = useState<Partial<TMspBrand>>({});
  // Until the saved colours are read, the pickers would show the default red and a save would replace the
  // MSP's colours with it: nothing is shown or saved before they arrive.
  const isLoaded = branding.data !== undefined;
  const values: TMspBrand = { ...DEFAULTS, ...branding.data, ...edits };

  const isValid = FIELDS.every((field) => HEX.test(values[field.key]));
  const set = (key: keyof TMspBrand) => (value: string) => setEdits((current) => ({ ...current, [key]: value }));

  function handleSave() {
    saveBranding.mutate(values, {
      onSuccess: () => {
        setEdits({});
        notifications.show({ color: 'green', title: 'Branding saved', message: 'Your colours now apply everywhere, including your sign-in page.' });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Branding was not saved', message: errorDetail(error) }),
    });
  }

  return (
    <Stack component="section" aria-labelledby="branding-title" maw={900}>
      <Title order={1} size="h2" id="branding-title">
        Branding
      </Title>
      <Text>Choose the colours of your help desk. Your technicians and clients see them, and so does your sign-in page at /{mspCustomDomain}.</Text>
      {branding.isPending ? <Loader size="sm" aria-label="Loading your colours" /> : null}
      {branding.isError ? (
        <Alert color="red" role="alert" title="Your colours could not be loaded">
          {errorDetail(branding.error)} Reload the page to try again; nothing is saved until your colours show.
        </Alert>
      ) : null}
      {isLoaded ? (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {FIELDS.map((field) => (
              <Stack key={field.key} gap="xs">
                <ColorInput
                  label={field.label}
                  description={field.use}
                  value={values[field.key]}
                  onChange={set(field.key)}
                  format="hex"
                  eyeDropperButtonProps={{ 'aria-label': `Pick the ${field.label.toLowerCase()} from the screen` }}
                  swatches={[DEFAULT_BRAND_COLOUR, '#1c7ed6', '#2f9e44', '#5f3dc4', '#0b7285', '#343a40']}
                  error={HEX.test(values[field.key]) ? undefined : 'Use a colour like #1c7ed6.'}
                />
                <ContrastWarning colour={values[field.key]} onUse={set(field.key)} />
              </Stack>
            ))}
          </SimpleGrid>
          <Paper withBorder p="md" aria-label="Preview">
            <Text fw={600} mb="xs" style={{ color: HEX.test(values.primaryColour) ? values.primaryColour : undefined }}>
              Preview
            </Text>
            <Group>
              <Button style={HEX.test(values.primaryButtonColour) ? { backgroundColor: values.primaryButtonColour } : undefined}>Primary button</Button>
              <Button variant="outline" style={HEX.test(values.secondaryButtonColour) ? { color: values.secondaryButtonColour, borderColor: values.secondaryButtonColour } : undefined}>
                Secondary button
              </Button>
            </Group>
          </Paper>
        </>
      ) : null}
      <Group>
        <Button onClick={handleSave} loading={saveBranding.isPending} disabled={!isLoaded || !isValid}>
          Save branding
        </Button>
        <Button variant="default" onClick={() => setEdits(DEFAULTS)} disabled={!isLoaded}>
          Back to the default red
        </Button>
      </Group>
      <LogoCard mspCustomDomain={mspCustomDomain} mspName={mspName} />
    </Stack>
  );
}
