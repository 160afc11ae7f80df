import { useState, type FormEvent } from 'react';
import { Alert, Button, Divider, Group, Loader, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { EMAIL_CONNECTOR_MESSAGES, IMAPS_PORT, defaultImapServerOf, emailConnectorStatus, isValidEmail, type TEmailConnectorSettings } from '@switchboard/contracts';
import { errorDetail, isApiError } from '../../../lib/api-client';
import { formatWhen } from '../../../lib/format-when';
import { ReadableBadge } from '../../../components/readable-badge';
import { MODAL_CLOSE_BUTTON_PROPS } from '../../employees/form-styles';
import { useEmailConnector, useRemoveEmailConnector, useSaveEmailConnector } from '../api/email-connector-queries';
import { RecentMail } from './recent-mail';
// The password field's stylesheets (PasswordInput and its show/hide toggle) load with this screen.
import '../../auth/components/password-input-styles';

type TField = 'address' | 'appPassword' | 'imapHost' | 'imapPort';
type TFieldErrors = Partial<Record<TField, string>>;
const FIELDS: readonly string[] = ['address', 'appPassword', 'imapHost', 'imapPort'] satisfies TField[];

/** The server's field problems by field (it names the field in `invalidParams`). */
function fieldErrorsOf(error: unknown): TFieldErrors {
  if (!isApiError(error)) return {};
  const errors: TFieldErrors = {};
  for (const param of error.invalidParams) if (FIELDS.includes(param.name)) errors[param.name as TField] = param.reason;
  return errors;
}

/** What the IMAP server field says under itself for the address typed so far. */
function imapHostHelp(address: string): string {
  const known = isValidEmail(address) ? defaultImapServerOf(address) : null;
  if (known) return `Found for this address: ${known.host}. Leave empty to use it.`;
  if (isValidEmail(address)) return 'Needed for this address: only Microsoft 365, Outlook.com and Gmail servers are found by themselves.';
  return 'Needed unless the mailbox is at Microsoft 365, Outlook.com or Gmail.';
}

/**
 * R-195 / R-199 / decision 036: the help-desk mailbox whose new mail becomes tickets. The app password
 * is never shown back (only its last four characters); saving signs in to the mailbox first.
 */
export function EmailConnectorCard({ mspCustomDomain }: { mspCustomDomain: string }) {
  const query = useEmailConnector(mspCustomDomain);
  const settings = query.data;
  // Kept here, not in the form: a save or removal starts the form afresh.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="email-connector-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} id="email-connector-title">
            Email connector
          </Title>
          {settings ? settings.isConfigured ? <ReadableBadge color="teal">Connected</ReadableBadge> : <ReadableBadge color="gray">Not connected</ReadableBadge> : null}
        </Group>
        {query.isPending ? <Loader size="sm" aria-label="Loading the email connector" /> : null}
        {query.isError ? (
          <Alert color="red" title="The email connector could not be loaded">
            {errorDetail(query.error)}
          </Alert>
        ) : null}
        {settings ? (
          <>
            <ConnectorStatus settings={settings} />
            {notice ? (
              <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
                {notice}
              </Alert>
            ) : null}
            {/* A new answer from the server starts the form afresh (the password field empties). */}
            <EmailConnectorForm key={settings.updatedAt ?? 'none'} mspCustomDomain={mspCustomDomain} settings={settings} onNotice={setNotice} />
            {settings.isConfigured ? (
              <>
                <Divider />
                <RecentMail mspCustomDomain={mspCustomDomain} />
              </>
            ) : null}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ConnectorStatus({ settings }: { settings: TEmailConnectorSettings }) {
  if (!settings.isConfigured || !settings.address) {
    return (
      <Text size="sm" c="dimmed">
        Mail sent to your help-desk mailbox can become tickets in your PSA: from a known contact under their company, from anyone else under the default company. A reply about an open ticket (in its mail thread, or naming its number) is added to that ticket as a note.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} role="status" style={{ overflowWrap: 'anywhere' }}>
        {emailConnectorStatus(settings.address)}
      </Text>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        IMAP server {settings.imapHost}:{settings.imapPort} · app password {settings.passwordHint} · {settings.ticketCount === 1 ? '1 ticket' : `${settings.ticketCount} tickets`} from
        mail · last checked {formatWhen(settings.lastCheckedAt)}
      </Text>
      {settings.lastError ? (
        <Alert color="yellow" title="The mailbox could not be read at the last check">
          {settings.lastError}
        </Alert>
      ) : null}
    </Stack>
  );
}

function EmailConnectorForm({ mspCustomDomain, settings, onNotice }: { mspCustomDomain: string; settings: TEmailConnectorSettings; onNotice: (notice: string | null) => void }) {
  const save = useSaveEmailConnector(mspCustomDomain);
  const remove = useRemoveEmailConnector(mspCustomDomain);
  const [address, setAddress] = useState(settings.address ?? '');
  const [appPassword, setAppPassword] = useState('');
  const [imapHost, setImapHost] = useState(settings.imapHost && settings.address && defaultImapServerOf(settings.address)?.host !== settings.imapHost ? settings.imapHost : '');
  const [imapPort, setImapPort] = useState(settings.imapPort && settings.imapPort !== IMAPS_PORT ? String(settings.imapPort) : '');
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [isConfirmOpen, setConfirmOpen] = useState(false);
  const isSameMailbox = settings.isConfigured && settings.address !== null && settings.address.toLowerCase() === address.trim().toLowerCase();
  // The saved password is only ever sent to the server it was saved for: the server and port a save would use,
  // worked out as the server does (a typed host, else the big provider's), must be the saved ones.
  const typedHost = imapHost.trim().toLowerCase();
  const knownServer = defaultImapServerOf(address.trim());
  const typedPort = imapPort.trim() === '' ? null : Number(imapPort.trim());
  const isSameServer =
    settings.imapHost !== null &&
    settings.imapHost.toLowerCase() === (typedHost || knownServer?.host) &&
    settings.imapPort === (typedPort ?? (typedHost ? IMAPS_PORT : (knownServer?.port ?? IMAPS_PORT)));
  const keepsPassword = isSameMailbox && isSameServer;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const next: TFieldErrors = {};
    const trimmed = address.trim();
    if (trimmed === '') next.address = EMAIL_CONNECTOR_MESSAGES.addressRequired;
    else if (!isValidEmail(trimmed)) next.address = EMAIL_CONNECTOR_MESSAGES.addressInvalid;
    if (appPassword === '' && !keepsPassword) next.appPassword = isSameMailbox ? EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer : EMAIL_CONNECTOR_MESSAGES.passwordRequired;
    if (imapHost.trim() === '' && isValidEmail(trimmed) && !defaultImapServerOf(trimmed)) next.imapHost = EMAIL_CONNECTOR_MESSAGES.hostRequired;
    const port = imapPort.trim() === '' ? null : Number(imapPort.trim());
    if (port !== null && (!Number.isInteger(port) || port < 1 || port > 65_535)) next.imapPort = EMAIL_CONNECTOR_MESSAGES.portInvalid;
    setErrors(next);
    onNotice(null);
    if (Object.keys(next).length > 0) return;
    save.mutate(
      { address: trimmed, imapHost: imapHost.trim() === '' ? null : imapHost.trim(), imapPort: port, ...(appPassword === '' ? {} : { appPassword }) },
      { onSuccess: () => onNotice(EMAIL_CONNECTOR_MESSAGES.saved), onError: (error) => setErrors(fieldErrorsOf(error)) },
    );
  }

  function handleRemove() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirmOpen(false);
        onNotice(EMAIL_CONNECTOR_MESSAGES.removed);
      },
    });
  }

  const hasFieldErrors = Object.keys(fieldErrorsOf(save.error)).length > 0;
  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Email connector settings">
      <Stack gap="sm" maw={560}>
        <TextInput
          label="Help-desk mailbox address"
          type="email"
          required
          autoComplete="off"
          placeholder="help@yourmsp.com"
          value={address}
          onChange={(event) => setAddress(event.currentTarget.value)}
          error={errors.address}
          maxLength={254}
        />
        <PasswordInput
          label="App password"
          required={!keepsPassword}
          autoComplete="new-password"
          placeholder={keepsPassword && settings.passwordHint ? `Leave empty to keep ${settings.passwordHint}` : 'Paste the app password'}
          description="An app password made in the mailbox's security settings. Stored encrypted and never shown again."
          value={appPassword}
          onChange={(event) => setAppPassword(event.currentTarget.value)}
          error={errors.appPassword}
          maxLength={200}
        />
        <TextInput
          label="IMAP server (optional)"
          placeholder="imap.yourmsp.com"
          description={imapHostHelp(address.trim())}
          value={imapHost}
          onChange={(event) => setImapHost(event.currentTarget.value)}
          error={errors.imapHost}
          maxLength={253}
        />
        <TextInput
          label="Port (optional)"
          inputMode="numeric"
          placeholder={String(IMAPS_PORT)}
          description="993 unless told otherwise."
          value={imapPort}
          onChange={(event) => setImapPort(event.currentTarget.value)}
          error={errors.imapPort}
          maxLength={5}
          maw={200}
        />
        {save.isError && !hasFieldErrors ? (
          <Alert color="red" title="The mailbox was not saved" role="alert">
            {errorDetail(save.error)}
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            {settings.isConfigured ? 'Save' : 'Connect mailbox'}
          </Button>
          {settings.isConfigured ? (
            <Button variant="light" color="red" onClick={() => setConfirmOpen(true)}>
              Remove
            </Button>
          ) : null}
        </Group>
        {save.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            Signing in to the mailbox…
          </Text>
        ) : null}
      </Stack>
      <Modal opened={isConfirmOpen} onClose={() => setConfirmOpen(false)} title="Remove the email connector?" closeButtonProps={MODAL_CLOSE_BUTTON_PROPS}>
        <Stack>
          <Text size="sm">Mail to {settings.address} will no longer become tickets. The saved app password is deleted; the mailbox itself is not changed.</Text>
          {remove.isError ? (
            <Alert color="red" role="alert">
              {errorDetail(remove.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={handleRemove} loading={remove.isPending}>
              Remove email connector
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
