import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TRagResult } from '@switchboard/contracts';
import { isApiError } from '../../../lib/api-client';
import { MarkdownAnswer } from '../../assistant/components/markdown-answer';
import { useDocumentChat, useKnowledgeSearch } from '../api/knowledge-queries';

const errorDetail = (error: unknown): string => (isApiError(error) ? error.detail : MESSAGES.unexpectedError);
const KIND_LABEL: Record<TRagResult['kind'], string> = { article: 'Article', document: 'Document', resolution: 'Past ticket' };

/** Passages are cut from markdown; their emphasis and heading marks read as noise in a preview. */
function plainSnippet(snippet: string): string {
  return snippet.replace(/(\*\*|__|`)/g, '').replace(/(^|\s)#{1,6}\s/g, '$1');
}

function ResultList({ results }: { results: TRagResult[] }) {
  return (
    <Stack gap="xs" component="ol" aria-label="Knowledge results" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {results.map((result) => (
        <Paper key={`${result.kind}-${result.id}`} component="li" withBorder p="sm">
          <Group gap="xs" wrap="nowrap" mb={4}>
            <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
              {KIND_LABEL[result.kind]}
            </Badge>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {result.title}
            </Text>
          </Group>
          {result.reference !== null && (
            <Text size="xs" c="dimmed">
              {result.kind === 'resolution' ? `Ticket ${result.reference}` : result.reference}
            </Text>
          )}
          <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
            {plainSnippet(result.snippet)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * The ticket area's "Knowledge Base" mode: search the MSP's articles, documents and past
 * resolutions (A-100, 5 results, near), or ask the documents a question.
 */
export function KnowledgeBase({ mspCustomDomain }: { mspCustomDomain: string }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const search = useKnowledgeSearch(mspCustomDomain, query);
  const chat = useDocumentChat();

  function handleSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuery(text.trim());
  }

  return (
    <Stack component="section" aria-labelledby="knowledge-title" gap="sm">
      <Title order={3} size="h4" id="knowledge-title">
        Knowledge Base
      </Title>
      <form onSubmit={handleSearch} aria-label="Search the knowledge base" role="search">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput label="Search" placeholder="e.g. VPN disconnects every hour" value={text} maxLength={2000} onChange={(event) => setText(event.currentTarget.value)} style={{ flex: 1 }} />
          <Button type="submit" disabled={text.trim() === ''}>
            Search
          </Button>
          <Button variant="light" disabled={text.trim() === ''} loading={chat.isPending} onClick={() => chat.mutate({ id: null, documentMessage: text.trim() })}>
            Ask
          </Button>
        </Group>
      </form>
      {chat.data && (
        <Paper withBorder p="sm" aria-label="Answer from the documents">
          {/* The answer's first line already says where it comes from (no model, or why the model did not answer); the notice said it again. */}
          <MarkdownAnswer text={chat.data.documentMessage} />
        </Paper>
      )}
      {chat.isError && (
        <Alert color="red" role="alert">
          {errorDetail(chat.error)}
        </Alert>
      )}
      {search.isFetching && <Loader size="sm" aria-label="Searching" />}
      {search.isError && (
        <Alert color="red" role="alert">
          {errorDetail(search.error)}
        </Alert>
      )}
      {search.data && search.data.results.length === 0 && <Text c="dimmed">{MESSAGES.assistant.nothingFound}</Text>}
      {search.data && search.data.results.length > 0 && <ResultList results={search.data.results} />}
    </Stack>
  );
}
