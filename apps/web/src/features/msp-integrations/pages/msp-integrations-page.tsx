import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { INTEGRATION_FORM_MESSAGES } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { useDisconnectPsa, useIntegrationSummary } from '../api/msp-integrations-queries';
import { ConnectPsaForm } from '../components/connect-psa-form';
import { SetupWizard } from '../components/setup-wizard';
import { EmailConnectorCard } from '../components/email-connector-card';
import { PsaWritesCard } from '../components/psa-writes-card';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';
import { useDocumentTitle } from '../../../lib/use-document-title';

const PSA_NAMES = { CONNECTWISE: 'ConnectWise Manage', AUTOTASK: 'Autotask' } as const;

/** 01 §2 / §4 "Manage integration": connect or disconnect the PSA, and the setup wizard. */
export function MspIntegrationsPage({ mspCustomDomain }: { mspCustomDomain: string }) {
  useDocumentTitle('MSP integrations');
  const summary = useIntegrationSummary(mspCustomDomain);
  const disconnect = useDisconnectPsa(mspCustomDomain);
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  if (summary.isPending) return <Loader aria-label="Loading the integration" />;
  if (summary.isError) return <Alert color="red">{errorDetail(summary.error)}</Alert>;
  const integration = summary.data;
  const isConnected = integration.isConfigured && integration.connectWiseManageIntegrator;

  function handleDisconnect() {
    disconnect
      .mutateAsync()
      .then(() => {
        setConfirmOpen(false);
        setNotice(INTEGRATION_FORM_MESSAGES.disconnected);
      })
      .catch(() => undefined);
  }

  return (
    <Stack component="section" aria-labelledby="msp-integrations-title" gap="lg">
      <Title order={1} size="h2" id="msp-integrations-title">
        MSP integrations
      </Title>
      {notice && (
        <Alert color={notice === INTEGRATION_FORM_MESSAGES.connected ? 'green' : 'blue'} role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="psa-connection-title">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} id="psa-connection-title">
              PSA connection
            </Title>
            {isConnected && integration.psaType ? (
              <Badge color="teal" variant="light" styles={{ label: { color: 'var(--mantine-color-dark-7)' } }}>
                Connected to {PSA_NAMES[integration.psaType]}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" styles={{ label: { color: 'var(--mantine-color-dark-7)' } }}>
                Not connected
              </Badge>
            )}
          </Group>
          {isConnected ? (
            <Stack gap="xs">
              {/* An Autotask zone URL is one long word: it wraps instead of running out of the card on a phone. */}
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {integration.companyId ? `Company ${integration.companyId}` : integration.username ? `API user ${integration.username}` : ''}
                {integration.psaUrl ? ` · ${integration.psaUrl}` : ''}
                {integration.keyHint ? ` · key ${integration.keyHint}` : ''}
              </Text>
              <Group gap="sm">
                {/* the sync screen has its own route; this is the way to it. */}
                <Button component={Link} to={`/${mspCustomDomain}/admin/board/sync`} variant="default">
                  Sync boards and tickets
                </Button>
                <Button color="red" variant="light" onClick={() => setConfirmOpen(true)}>
                  Disconnect
                </Button>
              </Group>
            </Stack>
          ) : (
            <ConnectPsaForm
              mspCustomDomain={mspCustomDomain}
              dataPsa={integration.dataPsaConnection && integration.dataPsaLabel ? { connection: integration.dataPsaConnection, label: integration.dataPsaLabel } : null}
              onConnected={() => setNotice(INTEGRATION_FORM_MESSAGES.connected)}
            />
          )}
        </Stack>
      </Paper>
      {/* Decision 013: what the PSA does not have yet; only a connected PSA has writes to send. */}
      {isConnected ? <PsaWritesCard mspCustomDomain={mspCustomDomain} /> : null}
      {/* the mailbox is its own integration; disconnecting the PSA leaves it as it is. */}
      <EmailConnectorCard mspCustomDomain={mspCustomDomain} />
      <Modal opened={isConfirmOpen} onClose={() => setConfirmOpen(false)} title="Disconnect the PSA" closeButtonProps={MODAL_CLOSE_BUTTON_PROPS}>
        <Stack>
          <Text>{INTEGRATION_FORM_MESSAGES.disconnectConfirm}</Text>
          {disconnect.isError && (
            <Alert color="red" role="alert">
              {errorDetail(disconnect.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={handleDisconnect} loading={disconnect.isPending}>
              Disconnect
            </Button>
          </Group>
        </Stack>
      </Modal>
      <SetupWizard mspCustomDomain={mspCustomDomain} isConnected={isConnected} />
    </Stack>
  );
}
