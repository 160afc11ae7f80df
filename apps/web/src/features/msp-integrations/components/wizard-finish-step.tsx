import { useState } from 'react';
import { Alert, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { WIZARD_MESSAGES } from '@switchboard/contracts';
import { psaErrorMessage } from '../psa-error-message';
import { useCompanyTypes, useFinishAutoSync } from '../api/msp-integrations-queries';

/** Step 6: records the auto-synced client type, copies companies and contacts, then finishes. */
export function WizardFinishStep({ mspCustomDomain, onComplete, isCompleting }: { mspCustomDomain: string; onComplete: () => void; isCompleting: boolean }) {
  const companyTypes = useCompanyTypes(mspCustomDomain);
  const autoSync = useFinishAutoSync(mspCustomDomain);
  const [clientTypeId, setClientTypeId] = useState('');
  const types = companyTypes.data ?? [];
  const selectedId = clientTypeId || String(types.find((type) => /client|customer/i.test(type.name))?.id ?? types[0]?.id ?? '');
  // Without the types loaded no type can be sent, and A-043 without one would copy vendors and prospects too: Finish
  // waits for them. A PSA that has no company types finishes without one (there is nothing to choose).
  const isTypesReady = companyTypes.isSuccess;

  async function handleFinish() {
    if (!isTypesReady) return;
    const type = types.find((entry) => String(entry.id) === selectedId) ?? null;
    try {
      await autoSync.mutateAsync(type);
      onComplete();
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm">Switchboard keeps the companies of one PSA company type and their contacts in step with the PSA. Choose the type your clients have.</Text>
      <NativeSelect
        label="Client company type"
        maw={320}
        disabled={companyTypes.isPending || types.length === 0}
        value={selectedId}
        data={types.length === 0 ? [{ value: '', label: companyTypes.isPending ? 'Loading…' : companyTypes.isError ? 'Not loaded' : 'No company types in the PSA' }] : types.map((type) => ({ value: String(type.id), label: type.name }))}
        onChange={(event) => setClientTypeId(event.currentTarget.value)}
      />
      {companyTypes.isError && (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {WIZARD_MESSAGES.companyTypesNotLoaded} {psaErrorMessage(companyTypes.error, 'wizard')}
            </Text>
            <Button size="xs" variant="light" onClick={() => void companyTypes.refetch()} loading={companyTypes.isFetching}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
      {autoSync.isError && (
        <Alert color="red" role="alert">
          {psaErrorMessage(autoSync.error, 'wizard')}
        </Alert>
      )}
      {autoSync.data && (
        <Text size="sm" role="status">
          Synced {autoSync.data.companies.toLocaleString()} companies and {autoSync.data.contacts.toLocaleString()} contacts.
        </Text>
      )}
      <Group justify="flex-end">
        <Button onClick={() => void handleFinish()} loading={autoSync.isPending || isCompleting} disabled={!isTypesReady}>
          Finish setup
        </Button>
      </Group>
    </Stack>
  );
}
