import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RAG_LIMIT, RAG_MODE, type TKnowledgeAudience } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';

export const knowledgeKeys = {
  all: ['knowledge'] as const,
  documents: (msp: string) => [...knowledgeKeys.all, 'documents', msp] as const,
  search: (msp: string, query: string) => [...knowledgeKeys.all, 'search', msp, query] as const,
  articles: (msp: string) => [...knowledgeKeys.all, 'articles', msp] as const,
  article: (msp: string, id: string) => [...knowledgeKeys.all, 'article', msp, id] as const,
};

/** the MSP's uploaded tools/documents. */
export function useDocuments(mspCustomDomain: string) {
  return useQuery({
    queryKey: knowledgeKeys.documents(mspCustomDomain),
    queryFn: async ({ signal }) => (await apiFetch(`/db/applications/msp/${encodeURIComponent(mspCustomDomain)}`, { schema: (s) => s.ZApplicationList, signal })).applications,
  });
}

/** multipart upload of one file with its description. */
export function useUploadDocument(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, description, audience }: { file: File; description: string; audience?: TKnowledgeAudience }) => {
      const body = new FormData();
      body.set('mspCustomDomain', mspCustomDomain);
      body.set('description', description);
      if (audience) body.set('audience', audience);
      body.set('file', file);
      return (await apiFetch('/db/applications/upload', { method: 'POST', body, schema: (s) => s.ZApplicationResponse })).application;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.documents(mspCustomDomain) }),
  });
}

/** Where the browser downloads an uploaded document (the session cookie admits it; the server names the file). */
export function documentFileUrl(mspCustomDomain: string, documentId: string): string {
  return `/db/${encodeURIComponent(mspCustomDomain)}/applications/${encodeURIComponent(documentId)}/file`;
}

/** Changes who may read an uploaded document (decision 034); Jarvis follows at once. */
export function useSetDocumentReaders(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ documentId, audience }: { documentId: string; audience: TKnowledgeAudience }) =>
      (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/applications/${encodeURIComponent(documentId)}/readers`, { method: 'PUT', body: { audience }, schema: (s) => s.ZApplicationResponse })).application,
    onSettled: () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all }),
  });
}

/** Deletes an uploaded document; Jarvis stops finding its passages at once. */
export function useDeleteDocument(mspCustomDomain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (documentId: string) =>
      (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/applications/${encodeURIComponent(documentId)}`, { method: 'DELETE', schema: (s) => s.ZDeleteApplicationResponse })).application,
    onSettled: () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all }),
  });
}

/** the MSP's knowledge (articles, documents, past resolutions), limit 5, mode near. */
export function useKnowledgeSearch(mspCustomDomain: string, query: string) {
  return useQuery({
    queryKey: knowledgeKeys.search(mspCustomDomain, query),
    queryFn: ({ signal }) => apiFetch('/gpt/rag/search', { method: 'POST', body: { query, mspCustomDomain, limit: RAG_LIMIT, mode: RAG_MODE }, schema: (s) => s.ZRagSearchResponse, signal }),
    enabled: query !== '',
  });
}

/** a question about the documents (one document's id, or all the MSP's knowledge). */
export function useDocumentChat() {
  return useMutation({
    mutationFn: ({ id, documentMessage }: { id: string | null; documentMessage: string }) =>
      apiFetch('/docs/chat', { method: 'POST', body: { id, documentMessage }, schema: (s) => s.ZDocumentChatResponse }),
  });
}

/** Ours: the knowledge-base articles the user may read, by category then title. */
export function useKnowledgeArticles(mspCustomDomain: string) {
  return useQuery({
    queryKey: knowledgeKeys.articles(mspCustomDomain),
    queryFn: async ({ signal }) => (await apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/knowledge/articles`, { schema: (s) => s.ZKnowledgeArticleList, signal })).articles,
  });
}

/** Ours: one article to read (null: none open). */
export function useKnowledgeArticle(mspCustomDomain: string, articleId: string | null) {
  return useQuery({
    queryKey: knowledgeKeys.article(mspCustomDomain, articleId ?? ''),
    queryFn: ({ signal }) => apiFetch(`/db/${encodeURIComponent(mspCustomDomain)}/knowledge/articles/${encodeURIComponent(articleId ?? '')}`, { schema: (s) => s.ZKnowledgeArticle, signal }),
    enabled: articleId !== null,
  });
}
