import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { EMAIL_MAIL_MESSAGES, type TEmailConnectorMail, type TEmailMailOutcome } from '@switchboard/contracts';
import { formatWhen } from '../../../lib/format-when';
import { ReadableBadge } from '../../../components/readable-badge';
import { ListRow, QueriedList } from '../../../components/queried-list';
import { useSessionUser } from '../../session/api/session-queries';
import { useEmailConnectorMail } from '../api/email-connector-queries';
import { FileUnderModal } from './file-under-modal';

const COLOR_OF: Record<TEmailMailOutcome, string> = { ticket: 'teal', note: 'blue', waiting: 'yellow', skipped: 'red', ignored: 'gray' };

/** What became of a message, in one sentence (the reason where it was not turned into a ticket). */
function detailOf(mail: TEmailConnectorMail): string {
  switch (mail.outcome) {
    case 'ticket':
      return mail.ticketNumber ? EMAIL_MAIL_MESSAGES.ticketCreated(mail.ticketNumber) : EMAIL_MAIL_MESSAGES.ticketWaiting;
    case 'note':
      return mail.ticketNumber ? EMAIL_MAIL_MESSAGES.noteAdded(mail.ticketNumber) : EMAIL_MAIL_MESSAGES.noteWaiting;
    case 'waiting':
      // A skipped mail someone chose a company for says where it will be filed; otherwise the ticket waits for the PSA.
      return mail.reason ?? EMAIL_MAIL_MESSAGES.ticketWaiting;
    case 'skipped':
    case 'ignored':
      return mail.reason ?? '';
  }
}

/**
 * Decision 036: the messages the connector read from the help-desk mailbox, newest first, and what became of each, so an
 * admin can answer "did my client's mail arrive?" — and see why a mail did not become a ticket and what to change.
 */
export function RecentMail({ mspCustomDomain }: { mspCustomDomain: string }) {
  const query = useEmailConnectorMail(mspCustomDomain);
  const user = useSessionUser();
  // The server's rule for "Make a ticket…": a technician who may change the connector (the company lookups are technicians').
  const canFileUnder = user?.principal === 'user' && user.userKind === 'technician' && user.permissions.mspIntegrations === true;
  const [filing, setFiling] = useState<TEmailConnectorMail | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <Stack gap="xs" component="section" aria-labelledby="recent-mail-title">
      <Title order={4} id="recent-mail-title">
        {EMAIL_MAIL_MESSAGES.title}
      </Title>
      <Text size="sm" c="dimmed">
        {EMAIL_MAIL_MESSAGES.intro}
      </Text>
      {notice ? (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      <QueriedList query={query} items={query.data?.mail} labels={EMAIL_MAIL_MESSAGES}>
        {(mail, index) => <MailItem key={mail.id} mail={mail} isFirst={index === 0} onFileUnder={canFileUnder ? setFiling : null} />}
      </QueriedList>
      {canFileUnder ? (
        <FileUnderModal
          mspCustomDomain={mspCustomDomain}
          mail={filing}
          onClose={() => setFiling(null)}
          onSaved={(_mail, companyName) => {
            setFiling(null);
            setNotice(EMAIL_MAIL_MESSAGES.fileUnder.saved(companyName));
          }}
        />
      ) : null}
    </Stack>
  );
}

function MailItem({ mail, isFirst, onFileUnder }: { mail: TEmailConnectorMail; isFirst: boolean; onFileUnder: ((mail: TEmailConnectorMail) => void) | null }) {
  const subject = mail.subject.trim() === '' ? EMAIL_MAIL_MESSAGES.noSubject : mail.subject;
  return (
    <ListRow label={subject} isFirst={isFirst} py="xs">
      <Stack gap={2}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <ReadableBadge color={COLOR_OF[mail.outcome]} style={{ flexShrink: 0 }}>
            {EMAIL_MAIL_MESSAGES.outcome[mail.outcome]}
          </ReadableBadge>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {subject}
          </Text>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {detailOf(mail)}
        </Text>
        {/* The unknown sender's way out; a mail whose ticket was refused or overtaken says its own in the reason. */}
        {mail.outcome === 'skipped' && !EMAIL_MAIL_MESSAGES.isNotMade(mail.reason) ? (
          <Text size="sm" c="dimmed">
            {EMAIL_MAIL_MESSAGES.skippedHint}
          </Text>
        ) : null}
        {mail.outcome === 'skipped' && onFileUnder ? (
          <Group>
            <Button size="compact-sm" variant="light" aria-label={EMAIL_MAIL_MESSAGES.fileUnder.buttonLabel(subject)} onClick={() => onFileUnder(mail)}>
              {EMAIL_MAIL_MESSAGES.fileUnder.button}
            </Button>
          </Group>
        ) : null}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {EMAIL_MAIL_MESSAGES.from(mail.from, formatWhen(mail.receivedAt))}
        </Text>
      </Stack>
    </ListRow>
  );
}
