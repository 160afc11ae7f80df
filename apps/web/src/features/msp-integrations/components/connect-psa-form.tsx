import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { INTEGRATION_FORM_MESSAGES, MESSAGES, psaConnectionKeyOf } from '@switchboard/contracts';
import { psaErrorMessage } from '../psa-error-message';
import { useConnectPsa, type TConnectInput } from '../api/msp-integrations-queries';
import { MODAL_CLOSE_BUTTON_PROPS, READABLE_ERROR_STYLES } from '../../employees/form-styles';
import '../../auth/components/password-input-styles';

type TPsaChoice = 'CONNECTWISE' | 'AUTOTASK';
type TField = { name: string; label: string; isSecret?: boolean; isOptional?: boolean; placeholder?: string; description?: string };

/** 01 §3 integration inputs: ConnectWise keys, or Autotask's username, secret and integration code (decisions #17). */
const FIELDS: Record<TPsaChoice, TField[]> = {
  CONNECTWISE: [
    { name: 'companyId', label: 'Company ID', placeholder: 'e.g. northwind' },
    { name: 'psaUrl', label: 'Site URL', placeholder: 'https://na.myconnectwise.net' },
    { name: 'publicKey', label: 'Public key' },
    { name: 'privateKey', label: 'Private key', isSecret: true },
    { name: 'clientId', label: 'Client ID', isOptional: true, description: 'The ConnectWise clientId of your integration; leave empty to use the server’s.' },
  ],
  AUTOTASK: [
    { name: 'username', label: 'API username', placeholder: 'api-user@example.com' },
    { name: 'secret', label: 'Secret', isSecret: true },
    { name: 'integrationCode', label: 'Integration code', isSecret: true },
    { name: 'zoneDiscoveryUrl', label: 'Zone discovery URL', isOptional: true, description: 'Leave empty to ask Autotask’s global zone information service.' },
  ],
};

/** The PSA the MSP's data came from (the summary's `dataPsaConnection` and `dataPsaLabel`, decision 042). */
export interface TDataPsa {
  connection: string;
  label: string;
}

/** The connection the typed keys reach, compared as the server compares it (`psaConnectionKeyOf`). */
function connectionOf(input: TConnectInput): string {
  return input.psaType === 'CONNECTWISE'
    ? psaConnectionKeyOf({ psaType: 'CONNECTWISE', psaUrl: input.keys.psaUrl, companyId: input.keys.companyId })
    : psaConnectionKeyOf({ psaType: 'AUTOTASK', username: input.keys.username, zoneDiscoveryUrl: input.keys.zoneDiscoveryUrl });
}

/**
 * save the keys, then integrate; a failure from the PSA is shown as its message. Keys for another PSA
 * than the one the MSP's data came from (`dataPsa`) start that data over (decision 042), so the admin confirms first.
 */
export function ConnectPsaForm({ mspCustomDomain, dataPsa = null, onConnected }: { mspCustomDomain: string; dataPsa?: TDataPsa | null; onConnected: (boardCount: number | null) => void }) {
  const connect = useConnectPsa(mspCustomDomain);
  const [psaType, setPsaType] = useState<TPsaChoice>('CONNECTWISE');
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Keys for another PSA, waiting for the admin's answer to the warning. */
  const [pendingInput, setPendingInput] = useState<TConnectInput | null>(null);
  const fields = FIELDS[psaType];

  function save(input: TConnectInput) {
    // Not mutate's onSuccess: this form unmounts as soon as the summary says "connected".
    connect
      .mutateAsync(input)
      .then((result) => onConnected(result.boardCount))
      .catch(() => undefined);
  }

  function handleConfirmStartOver() {
    if (!pendingInput) return;
    setPendingInput(null);
    save(pendingInput);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: Record<string, string> = {};
    for (const field of fields) {
      if (!field.isOptional && (values[field.name] ?? '').trim() === '') missing[field.name] = INTEGRATION_FORM_MESSAGES.required(field.label.toLowerCase().replace(/^api /, 'API '));
    }
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    const value = (name: string) => (values[name] ?? '').trim();
    const optional = (name: string) => (value(name) === '' ? {} : { [name]: value(name) });
    const input: TConnectInput =
      psaType === 'CONNECTWISE'
        ? { psaType, keys: { companyId: value('companyId'), psaUrl: value('psaUrl'), publicKey: value('publicKey'), privateKey: value('privateKey'), ...optional('clientId') } }
        : { psaType, keys: { username: value('username'), secret: value('secret'), integrationCode: value('integrationCode'), ...optional('zoneDiscoveryUrl') } };
    if (dataPsa && dataPsa.connection !== connectionOf(input)) {
      setPendingInput(input);
      return;
    }
    save(input);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Connect your PSA">
      <Stack gap="sm">
        <SegmentedControl
          aria-label="PSA"
          value={psaType}
          onChange={(value) => {
            setPsaType(value === 'AUTOTASK' ? 'AUTOTASK' : 'CONNECTWISE');
            setErrors({});
            connect.reset();
          }}
          data={[
            { value: 'CONNECTWISE', label: 'ConnectWise Manage' },
            { value: 'AUTOTASK', label: 'Autotask' },
          ]}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {fields.map((field) => {
            const Input = field.isSecret ? PasswordInput : TextInput;
            return (
              <Input
                key={`${psaType}-${field.name}`}
                label={field.label}
                description={field.description}
                placeholder={field.placeholder}
                required={!field.isOptional}
                autoComplete="off"
                value={values[field.name] ?? ''}
                error={errors[field.name]}
                styles={READABLE_ERROR_STYLES}
                onChange={(event) => {
                  const next = event.currentTarget.value;
                  setValues((current) => ({ ...current, [field.name]: next }));
                }}
              />
            );
          })}
        </SimpleGrid>
        {connect.isError && (
          <Alert color="red" role="alert" title="The PSA could not be connected">
            {psaErrorMessage(connect.error, 'connect-form')}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          The keys are stored encrypted; only their last four characters are shown again.
        </Text>
        <div>
          <Button type="submit" loading={connect.isPending}>
            Connect
          </Button>
        </div>
        {/* The PSA is asked for its boards (bounded on the server, review s29): say why the button spins. */}
        {connect.isPending && (
          <Text size="sm" role="status">
            {MESSAGES.psa.keyCheckWaiting}
          </Text>
        )}
      </Stack>
      <Modal opened={pendingInput !== null} onClose={() => setPendingInput(null)} title={MESSAGES.psa.startOverTitle} closeButtonProps={MODAL_CLOSE_BUTTON_PROPS}>
        <Stack>
          <Text>{MESSAGES.psa.startOverText(dataPsa?.label ?? '')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPendingInput(null)}>
              {MESSAGES.psa.startOverCancel}
            </Button>
            {/* red.9: white text on Mantine's plain red is below 4.5:1 (WCAG AA), as in leave-board-modal. */}
            <Button color="red.9" onClick={handleConfirmStartOver}>
              {MESSAGES.psa.startOverConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
