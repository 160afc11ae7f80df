import { useState } from 'react';
import type { FormEvent } from 'react';
import { Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { MarkdownAnswer } from '../../assistant/components/markdown-answer';
import { useSimilarResolutions, useTroubleshooting } from '../api/dispatch-queries';
import type { TQueueTicketView } from '../queue-types';

const errorText = (error: unknown): string => (isApiError(error) ? error.detail : MESSAGES.unexpectedError);

/** What the ticket is about, as the troubleshooting question and the resolution search take it. */
export function ticketQuestion(ticket: TQueueTicketView): string {
  return [ticket.title, ticket.description ?? ''].join(' ').replace(/\s+/g, ' ').trim().slice(0, 1500);
}

/**
 * "My Ticket"'s help for the active ticket (R-295, R-333–R-337): the assistant's troubleshooting steps
 * and similar past resolutions, and a box to ask about the ticket in other words. The answer's own
 * first line already says where it comes from, so the engine's notice is not shown again above it.
 */
export function TicketAssist({ ticket, mspCustomDomain }: { ticket: TQueueTicketView; mspCustomDomain: string }) {
  const [text, setText] = useState('');
  // Only the technician's own question is state: the ticket's question follows the ticket, so a refreshed
  // ticket (new title or description) is not mistaken for a question of their own.
  const [ownQuestion, setOwnQuestion] = useState<string | null>(null);
  const question = ownQuestion ?? ticketQuestion(ticket);
  const troubleshooting = useTroubleshooting(mspCustomDomain, ticket.ticketId, question);
  const resolutions = useSimilarResolutions(mspCustomDomain, ticket.ticketId, question);
  const answer = troubleshooting.data?.choices[0]?.message.content ?? '';

  function handleAsk(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (text.trim() === '') return; // a blank question is not sent.
    setOwnQuestion(text.trim());
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ticket-assist-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="ticket-assist-title">
          Troubleshooting
        </Title>
        <form onSubmit={handleAsk} role="search" aria-label="Ask about this ticket">
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label="Ask about this ticket"
              placeholder="e.g. printer shows offline after a firmware update"
              value={text}
              maxLength={2000}
              onChange={(event) => setText(event.currentTarget.value)}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button type="submit" disabled={text.trim() === ''} loading={troubleshooting.isFetching}>
              Search
            </Button>
          </Group>
        </form>
        {ownQuestion !== null && (
          <Group gap="xs" wrap="wrap">
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Showing results for “{ownQuestion}”.
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => setOwnQuestion(null)}>
              Back to this ticket
            </Button>
          </Group>
        )}
        <Stack gap={4} aria-label="Troubleshooting steps" aria-busy={troubleshooting.isPending}>
          <Text size="sm" fw={600}>
            Suggested steps
          </Text>
          {troubleshooting.isPending ? (
            <Loader size="sm" aria-label="Loading troubleshooting steps" />
          ) : troubleshooting.isError ? (
            <Text size="sm" c="red">
              {errorText(troubleshooting.error)}
            </Text>
          ) : (
            <MarkdownAnswer text={answer} />
          )}
        </Stack>
        <Stack gap={6} aria-label="Similar past resolutions">
          <Text size="sm" fw={600}>
            Similar past resolutions
          </Text>
          {resolutions.isPending ? (
            <Loader size="sm" aria-label="Loading similar resolutions" />
          ) : resolutions.isError ? (
            <Text size="sm" c="red">
              {errorText(resolutions.error)}
            </Text>
          ) : resolutions.data.results.length === 0 ? (
            <Text size="sm" c="dimmed">
              No similar past tickets were found.
            </Text>
          ) : (
            <Stack gap={6} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {resolutions.data.results.map((result) => (
                <Paper key={result.id} component="li" withBorder p="xs">
                  <Group gap="xs" wrap="nowrap" mb={2}>
                    <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                      {result.reference !== null ? `Ticket ${result.reference}` : 'Past ticket'}
                    </Badge>
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {result.title}
                    </Text>
                  </Group>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {result.snippet}
                  </Text>
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      </Stack>
    </Paper>
  );
}
