import { useState } from 'react';
import type { FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@switchboard/contracts';
import type { TKnowledgeArticleSummary, TRagResult } from '@switchboard/contracts';
import { errorDetail } from '../../../lib/api-client';
import { MarkdownAnswer } from '../../assistant/components/markdown-answer';
import { useDocumentChat, useKnowledgeArticles, useKnowledgeSearch } from '../api/knowledge-queries';
import { ArticleReader } from './article-reader';

const KIND_LABEL: Record<TRagResult['kind'], string> = { article: 'Article', document: 'Document', resolution: 'Past ticket' };

/** Passages are cut from markdown; their emphasis and heading marks read as noise in a preview. */
function plainSnippet(snippet: string): string {
  return snippet.replace(/(\*\*|__|`)/g, '').replace(/(^|\s)#{1,6}\s/g, '$1');
}

function ResultList({ results, onOpenArticle }: { results: TRagResult[]; onOpenArticle: (id: string) => void }) {
  return (
    <Stack gap="xs" component="ol" aria-label="Knowledge results" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {results.map((result) => (
        <Paper key={`${result.kind}-${result.id}`} component="li" withBorder p="sm">
          <Group gap="xs" wrap="nowrap" mb={4}>
            <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
              {KIND_LABEL[result.kind]}
            </Badge>
            {result.kind === 'article' ? (
              <Anchor component="button" type="button" fw={600} size="sm" ta="left" style={{ overflowWrap: 'anywhere' }} onClick={() => onOpenArticle(result.id)}>
                {result.title}
              </Anchor>
            ) : (
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {result.title}
              </Text>
            )}
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

/** The articles the user may read, under their categories (uncategorised ones last, under "Other"). */
function ArticleList({ articles, onOpen }: { articles: TKnowledgeArticleSummary[]; onOpen: (id: string) => void }) {
  const groups = new Map<string, TKnowledgeArticleSummary[]>();
  for (const article of articles) {
    const name = article.typeName ?? 'Other';
    groups.set(name, [...(groups.get(name) ?? []), article]);
  }
  return (
    <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="md" verticalSpacing="md">
      {[...groups.entries()].map(([name, group]) => (
        <section key={name} aria-label={name}>
          <Text fw={700} size="sm" mb={4}>
            {name}
          </Text>
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {group.map((article) => (
              <li key={article.id}>
                <Anchor component="button" type="button" size="sm" ta="left" style={{ overflowWrap: 'anywhere' }} onClick={() => onOpen(article.id)}>
                  {article.title}
                </Anchor>
              </li>
            ))}
          </Stack>
        </section>
      ))}
    </SimpleGrid>
  );
}

/**
 * The ticket area's "Knowledge Base" mode: search the MSP's articles, documents and past
 * resolutions (A-100, 5 results, near), or ask the documents a question; with no search, the
 * articles to browse. Any article (listed, or found) opens to read whole.
 */
export function KnowledgeBase({ mspCustomDomain }: { mspCustomDomain: string }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const search = useKnowledgeSearch(mspCustomDomain, query);
  const chat = useDocumentChat();
  const articles = useKnowledgeArticles(mspCustomDomain);
  const [openArticle, setOpenArticle] = useState<string | null>(null);

  function handleSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The same search again is sent again (a new query key would be the only thing that sent it: after an error, nothing did).
    if (text.trim() === query && query !== '') void search.refetch();
    setQuery(text.trim());
  }

  return (
    <Stack component="section" aria-labelledby="knowledge-title" gap="sm">
      <Title order={3} size="h4" id="knowledge-title">
        Knowledge Base
      </Title>
      <form onSubmit={handleSearch} aria-label="Search the knowledge base" role="search">
        {/* Wraps: the buttons go under a field of at least 16rem (at 390 px nowrap squeezed it to ~130 px, axe sweep s28). */}
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput label="Search" placeholder="e.g. VPN disconnects every hour" value={text} maxLength={2000} onChange={(event) => setText(event.currentTarget.value)} style={{ flex: '1 1 16rem' }} />
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
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text size="sm">{errorDetail(search.error)}</Text>
            <Button size="compact-xs" variant="light" color="red" loading={search.isFetching} onClick={() => void search.refetch()}>
              Try again
            </Button>
          </Group>
        </Alert>
      )}
      {search.data && search.data.results.length === 0 && <Text c="dimmed">{MESSAGES.assistant.nothingFound}</Text>}
      {search.data && search.data.results.length > 0 && <ResultList results={search.data.results} onOpenArticle={setOpenArticle} />}
      {query !== '' && (
        <Anchor component="button" type="button" size="sm" ta="left" onClick={() => setQuery('')}>
          Browse all articles
        </Anchor>
      )}
      {query === '' && (
        <Stack component="section" aria-labelledby="knowledge-articles-title" gap="xs">
          <Title order={4} size="h5" id="knowledge-articles-title">
            Articles
          </Title>
          {articles.isPending && <Loader size="sm" aria-label="Loading the articles" />}
          {articles.isError && (
            <Alert color="red" role="alert">
              {errorDetail(articles.error)}
            </Alert>
          )}
          {articles.data?.length === 0 && <Text c="dimmed">No articles yet. Search also looks through documents and past tickets.</Text>}
          {articles.data && articles.data.length > 0 && <ArticleList articles={articles.data} onOpen={setOpenArticle} />}
        </Stack>
      )}
      <ArticleReader mspCustomDomain={mspCustomDomain} articleId={openArticle} onClose={() => setOpenArticle(null)} />
    </Stack>
  );
}
