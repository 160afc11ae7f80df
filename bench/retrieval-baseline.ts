import { and, desc, eq, sql } from 'drizzle-orm';
import { knowledgeChunks, knowledgeDocuments, psaTickets, type TDatabase } from '@switchboard/db';

// The retrieval as it was before issue #9's word-forms work (commit fa1ac8b), frozen here so that
// retrieval.bench.ts prints "before" beside "after" in one run: the query's English stems OR-ed
// ('near' mode), full-text rank plus trigram word similarity, passages and past resolutions merged by
// score. A technician's scope (the MSP's whole knowledge), no embeddings, no category: as the bench runs it.

export interface TBaselineHit {
  kind: 'article' | 'document' | 'resolution';
  id: string;
  score: number;
}

const nearQueryOf = (query: string) => sql`(select to_tsquery('simple', coalesce(string_agg(quote_literal(lexeme), ' | '), '')) from unnest(to_tsvector('english', ${query})))`;

async function baselinePassages(db: TDatabase, mspId: string, query: string, limit: number): Promise<TBaselineHit[]> {
  const tsQuery = nearQueryOf(query);
  const score = sql<number>`(ts_rank_cd(${knowledgeChunks.search}, ${tsQuery}, 32) + 0.5 * word_similarity(${query}, ${knowledgeChunks.content}))::float8`;
  const rows = await db
    .select({ kind: knowledgeDocuments.kind, id: knowledgeChunks.documentId, score })
    .from(knowledgeChunks)
    .innerJoin(knowledgeDocuments, and(eq(knowledgeDocuments.mspId, knowledgeChunks.mspId), eq(knowledgeDocuments.id, knowledgeChunks.documentId)))
    .where(and(eq(knowledgeChunks.mspId, mspId), sql`(${knowledgeChunks.search} @@ ${tsQuery} or ${query} <% ${knowledgeChunks.content})`))
    .orderBy(desc(score), knowledgeChunks.id)
    .limit(limit);
  return rows.map((row) => ({ ...row, score: Number(row.score) }));
}

async function baselineResolutions(db: TDatabase, mspId: string, query: string, limit: number): Promise<TBaselineHit[]> {
  const tsQuery = nearQueryOf(query);
  const document = sql`to_tsvector('english', ${psaTickets.summary} || ' ' || coalesce(${psaTickets.description}, '') || ' ' || coalesce(${psaTickets.resolution}, ''))`;
  const score = sql<number>`(ts_rank_cd(${document}, ${tsQuery}, 32) + 0.5 * word_similarity(${query}, ${psaTickets.summary}))::float8`;
  const rows = await db
    .select({ id: psaTickets.id, score })
    .from(psaTickets)
    .where(and(eq(psaTickets.mspId, mspId), eq(psaTickets.isClosed, true), sql`${psaTickets.resolution} is not null and ${psaTickets.resolution} <> ''`, sql`${document} @@ ${tsQuery}`))
    .orderBy(desc(score), psaTickets.id)
    .limit(limit);
  return rows.map((row) => ({ kind: 'resolution' as const, id: row.id, score: Number(row.score) }));
}

/** The old `retrieve(scope, query, { limit, mode: 'near' })` for a technician, optionally past resolutions only. */
export async function baselineRetrieve(db: TDatabase, mspId: string, query: string, options: { limit: number; resolutionsOnly?: boolean }): Promise<TBaselineHit[]> {
  const passages = options.resolutionsOnly ? [] : await baselinePassages(db, mspId, query, options.limit);
  const resolutions = await baselineResolutions(db, mspId, query, options.limit);
  return [...passages, ...resolutions].sort((a, b) => b.score - a.score).slice(0, options.limit);
}
