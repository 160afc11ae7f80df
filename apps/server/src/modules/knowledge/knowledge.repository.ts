import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { groupTsQueryTexts, tsQueryText } from '@switchboard/assistant';
import { knowledgeChunks, knowledgeDocuments, psaTicketEmbeddings, psaTickets, type TDatabase } from '@switchboard/db';
import type { TKnowledgeAudience } from '@switchboard/contracts';
import type { TChunk } from './chunking';
import { vectorLiteral } from './knowledge-embeddings.repository';

/**
 * Whose knowledge a search may read (issue #9): always one MSP; a client user only what belongs to
 * every company (null) or to their own PSA company. `companyExternalId` undefined = a technician.
 */
export interface TKnowledgeScope {
  mspId: string;
  /** Set for client users: their PSA company id (null when not linked: they see MSP-wide knowledge only). */
  clientCompanyExternalId?: string | null;
}

const isClient = (scope: TKnowledgeScope) => scope.clientCompanyExternalId !== undefined;

function companyFilter(column: typeof knowledgeChunks.companyExternalId | typeof knowledgeDocuments.companyExternalId | typeof psaTickets.companyExternalId, scope: TKnowledgeScope, allowShared: boolean): SQL | undefined {
  if (!isClient(scope)) return undefined;
  const own = scope.clientCompanyExternalId ?? null;
  const conditions: SQL[] = [];
  if (allowShared) conditions.push(isNull(column));
  if (own !== null) conditions.push(eq(column, own));
  return conditions.length === 0 ? sql`false` : or(...conditions);
}

/** A client user reads only what is meant for everyone (decision 034); technicians read it all. */
function audienceFilter(scope: TKnowledgeScope): SQL | undefined {
  return isClient(scope) ? eq(knowledgeDocuments.audience, 'everyone') : undefined;
}

/**
 * "near" mode: any of the query's words in any of their forms — each word's English stem as a prefix
 * ("locked" finds "lockout", "printing" "printer") or an equal from the IT thesaurus ("pw" finds
 * "password"), stop words dropped (issue #9, word forms) —, ranked by how many match and how close
 * together; "exact": all of the words as written (websearch syntax).
 */
function tsQueryOf(query: string, mode: 'near' | 'exact'): SQL {
  return mode === 'exact' ? sql`websearch_to_tsquery('english', ${query})` : sql`to_tsquery('english', ${tsQueryText(query)})`;
}

/** How much a match through a thesaurus equal counts beside a match of the word as the user wrote it. */
const EQUALS_WEIGHT = 0.5;

/**
 * The full-text part of a score: the rank of the words as written plus, weighed less, the rank with
 * their thesaurus equals — so "pc slow" prefers a text about a slow PC to one that says "laptop" often.
 */
function textRankOf(document: SQL | typeof knowledgeChunks.search, query: string, mode: 'near' | 'exact'): SQL {
  if (mode === 'exact') return sql`ts_rank_cd(${document}, ${tsQueryOf(query, mode)}, 32)`;
  // Divided by 1 + EQUALS_WEIGHT: a word as written matches both queries, so the rank keeps the 0–1 scale the
  // other parts of a score (the category boost, trigram similarity) were weighed against.
  return sql`((ts_rank_cd(${document}, to_tsquery('english', ${tsQueryText(query, { equals: false })}), 32) + ${sql.raw(String(EQUALS_WEIGHT))} * ts_rank_cd(${document}, ${tsQueryOf(query, mode)}, 32)) / ${sql.raw(String(1 + EQUALS_WEIGHT))})`;
}

/** How much covering the query's rarer words counts beside the rest of a score (tuned on the validation fold). */
const COVERAGE_WEIGHT = 0.5;

/**
 * The share of the query's information a text holds, 0–1: each word group of the query that the text matches,
 * weighed by how rare it is among the texts searched — ln(1 + N / (1 + texts matching it)), an inverse document
 * frequency —, over the weights of all the query's groups. ts_rank_cd counts "opening" and "sites" like "gambling";
 * this puts the texts that hold the query's rare words first. How many texts match a group is counted over the
 * candidates (a window): every text matching any group of the query is one, so the count is exact. `corpusSize` is N,
 * the texts in the search's scope. A group of stop words only (an empty tsquery) counts for nothing; a word no text
 * holds counts in full, so a text missing it covers less.
 */
function coverageOf(document: SQL | typeof knowledgeChunks.search, query: string, corpusSize: SQL): SQL {
  const groups = groupTsQueryTexts(query).map((group) => {
    const tsQuery = sql`to_tsquery('english', ${group})`;
    return { tsQuery, weight: sql`ln(1 + ${corpusSize} / (1 + count(*) filter (where ${document} @@ ${tsQuery}) over ()))` };
  });
  if (groups.length === 0) return sql`0`;
  const held = sql.join(groups.map(({ tsQuery, weight }) => sql`case when ${document} @@ ${tsQuery} then ${weight} else 0 end`), sql` + `);
  const all = sql.join(groups.map(({ tsQuery, weight }) => sql`case when numnode(${tsQuery}) > 0 then ${weight} else 0 end`), sql` + `);
  return sql`coalesce((${held}) / nullif(${all}, 0), 0)`;
}

/** The query's embedding, when the MSP has an embedding model and the database has pgvector (decision 026). */
export interface TQueryVector {
  model: string;
  vector: readonly number[];
}

/** How a search finds its candidates: by words (full-text, trigram), or by meaning (embedding). */
export type TSearchBy = 'words' | 'meaning';

/** Below this cosine similarity a passage found by meaning alone is not offered (it is noise). */
export const MIN_MEANING_SIMILARITY = 0.3;

/**
 * Cosine similarity of a stored embedding to the query's, 0 when there is none from the same model.
 * The column is a real[]: pgvector casts it (no index: exact search over one MSP's rows).
 */
function similarityOf(embedding: SQL | typeof knowledgeChunks.embedding, embeddingModel: SQL | typeof knowledgeChunks.embeddingModel, queryVector: TQueryVector | undefined): SQL<number> {
  if (!queryVector) return sql<number>`0`;
  return sql<number>`coalesce(case when ${embeddingModel} = ${queryVector.model} then 1 - ((${embedding})::vector <=> ${vectorLiteral(queryVector.vector)}::vector) end, 0)`;
}

export interface TDocumentRow {
  id: string;
  kind: 'article' | 'document';
  title: string;
  description: string;
  fileName: string | null;
  contentType: string | null;
  sizeBytes: number;
  uploadName: string | null;
  companyExternalId: string | null;
  audience: TKnowledgeAudience;
  uploadedByUserId: string | null;
  createdAt: Date;
  chunkCount: number;
}

const documentColumns = {
  id: knowledgeDocuments.id,
  kind: knowledgeDocuments.kind,
  title: knowledgeDocuments.title,
  description: knowledgeDocuments.description,
  fileName: knowledgeDocuments.fileName,
  contentType: knowledgeDocuments.contentType,
  sizeBytes: knowledgeDocuments.sizeBytes,
  uploadName: knowledgeDocuments.uploadName,
  companyExternalId: knowledgeDocuments.companyExternalId,
  audience: knowledgeDocuments.audience,
  uploadedByUserId: knowledgeDocuments.uploadedByUserId,
  createdAt: knowledgeDocuments.createdAt,
  // Table-qualified by hand: drizzle writes the outer columns unqualified inside a subquery, where they would bind to `c`.
  chunkCount: sql<number>`(select count(*)::int from knowledge_chunks c where c.msp_id = knowledge_documents.msp_id and c.document_id = knowledge_documents.id)`,
};

export interface TNewDocument {
  kind: 'article' | 'document';
  title: string;
  description: string;
  fileName: string | null;
  contentType: string | null;
  sizeBytes: number;
  uploadName: string | null;
  sourceRef: string | null;
  typeName: string | null;
  subTypeName: string | null;
  companyExternalId: string | null;
  audience: TKnowledgeAudience;
  uploadedByUserId: string | null;
}

/** Stores a document and its passages; a document whose `sourceRef` exists already is left as it is (null returned). */
export async function insertDocument(db: TDatabase, mspId: string, document: TNewDocument, chunks: readonly TChunk[]): Promise<string | null> {
  const [inserted] = await db
    .insert(knowledgeDocuments)
    .values({ mspId, ...document })
    .onConflictDoNothing()
    .returning({ id: knowledgeDocuments.id });
  if (!inserted) return null;
  if (chunks.length > 0) {
    await db.insert(knowledgeChunks).values(
      chunks.map((chunk, position) => ({ mspId, documentId: inserted.id, position, heading: chunk.heading, content: chunk.content, companyExternalId: document.companyExternalId })),
    );
  }
  return inserted.id;
}

/** The uploaded documents (not the articles) the scope may read, newest first. */
export function listUploadedDocuments(db: TDatabase, scope: TKnowledgeScope): Promise<TDocumentRow[]> {
  return db
    .select(documentColumns)
    .from(knowledgeDocuments)
    .where(and(eq(knowledgeDocuments.mspId, scope.mspId), eq(knowledgeDocuments.kind, 'document'), companyFilter(knowledgeDocuments.companyExternalId, scope, true), audienceFilter(scope)))
    .orderBy(desc(knowledgeDocuments.createdAt))
    .limit(500);
}

/** One document the scope may read, or undefined. */
export async function findDocument(db: TDatabase, scope: TKnowledgeScope, documentId: string): Promise<TDocumentRow | undefined> {
  const [row] = await db
    .select(documentColumns)
    .from(knowledgeDocuments)
    .where(and(eq(knowledgeDocuments.mspId, scope.mspId), eq(knowledgeDocuments.id, documentId), companyFilter(knowledgeDocuments.companyExternalId, scope, true), audienceFilter(scope)))
    .limit(1);
  return row;
}

/** A knowledge-base article as lists show it. */
export interface TArticleRow {
  id: string;
  title: string;
  typeName: string | null;
  subTypeName: string | null;
  createdAt: Date;
}

const articleColumns = { id: knowledgeDocuments.id, title: knowledgeDocuments.title, typeName: knowledgeDocuments.typeName, subTypeName: knowledgeDocuments.subTypeName, createdAt: knowledgeDocuments.createdAt };

/** Which articles the scope may read: the MSP's, and for a client user the shared ones and their company's that are meant for everyone. */
function readableArticles(scope: TKnowledgeScope): SQL | undefined {
  return and(eq(knowledgeDocuments.mspId, scope.mspId), eq(knowledgeDocuments.kind, 'article'), companyFilter(knowledgeDocuments.companyExternalId, scope, true), audienceFilter(scope));
}

/** The articles the scope may read, by category then title (uncategorised last). */
export function listArticles(db: TDatabase, scope: TKnowledgeScope): Promise<TArticleRow[]> {
  return db
    .select(articleColumns)
    .from(knowledgeDocuments)
    .where(readableArticles(scope))
    .orderBy(sql`${knowledgeDocuments.typeName} asc nulls last`, sql`${knowledgeDocuments.subTypeName} asc nulls last`, asc(knowledgeDocuments.title))
    .limit(1000);
}

/** One article the scope may read with its passages in order, or undefined. */
export async function findArticle(db: TDatabase, scope: TKnowledgeScope, articleId: string): Promise<{ row: TArticleRow; passages: TChunk[] } | undefined> {
  const [row] = await db.select(articleColumns).from(knowledgeDocuments).where(and(readableArticles(scope), eq(knowledgeDocuments.id, articleId))).limit(1);
  if (!row) return undefined;
  const passages = await db
    .select({ heading: knowledgeChunks.heading, content: knowledgeChunks.content })
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.mspId, scope.mspId), eq(knowledgeChunks.documentId, articleId)))
    .orderBy(asc(knowledgeChunks.position));
  return { row, passages };
}

/** Sets who may read an uploaded document; true when it was there to change. */
export async function setDocumentAudience(db: TDatabase, mspId: string, documentId: string, audience: TKnowledgeAudience): Promise<boolean> {
  const changed = await db
    .update(knowledgeDocuments)
    .set({ audience })
    .where(and(eq(knowledgeDocuments.mspId, mspId), eq(knowledgeDocuments.id, documentId), eq(knowledgeDocuments.kind, 'document')))
    .returning({ id: knowledgeDocuments.id });
  return changed.length > 0;
}

/** Deletes an uploaded document (its passages go with it: the foreign key cascades); true when a row went. */
export async function deleteUploadedDocument(db: TDatabase, mspId: string, documentId: string): Promise<boolean> {
  const deleted = await db
    .delete(knowledgeDocuments)
    .where(and(eq(knowledgeDocuments.mspId, mspId), eq(knowledgeDocuments.id, documentId), eq(knowledgeDocuments.kind, 'document')))
    .returning({ id: knowledgeDocuments.id });
  return deleted.length > 0;
}

/** A PSA ticket's type and subtype names, as the knowledge articles are filed. */
export interface TPassageCategory {
  typeName: string;
  subTypeName: string;
}

/** How much the rank of a passage's document title counts beside the rank of the passage's own text. */
const TITLE_WEIGHT = 0.5;

/**
 * What being filed under the ticket's own type and subtype adds to a passage's score (decision 040): enough that an
 * article of the ticket's category that shares no word with it leads a passage holding one of its rarer words, not so
 * much that the category's passages fill the answer when the technician asks about something else (1 did: a ticket
 * filed under Password Reset got no printer step for "printer offline after a firmware update").
 */
const CATEGORY_BOOST = 0.75;

export interface TPassageHit {
  chunkId: string;
  documentId: string;
  kind: 'article' | 'document';
  title: string;
  fileName: string | null;
  heading: string;
  content: string;
  typeName: string | null;
  subTypeName: string | null;
  score: number;
}

/**
 * Knowledge passages matching the query, best first. Score: full-text rank plus trigram word
 * similarity, plus the embedding's cosine similarity when a query vector is given. `by: 'meaning'`
 * finds the passages close to the query vector instead of those sharing its words.
 */
export function searchPassages(
  db: TDatabase,
  scope: TKnowledgeScope,
  query: string,
  options: { limit: number; mode: 'near' | 'exact'; documentId?: string; queryVector?: TQueryVector; by?: TSearchBy; category?: TPassageCategory },
): Promise<TPassageHit[]> {
  const tsQuery = tsQueryOf(query, options.mode);
  const similarity = similarityOf(knowledgeChunks.embedding, knowledgeChunks.embeddingModel, options.queryVector);
  // A ticket's own type and subtype: the articles filed under them are candidates and rank higher,
  // since a short title ("Account locked - filing deadline at 5") often shares no word with them.
  const category = options.category;
  const isOfCategory = category ? sql`(${knowledgeDocuments.typeName} = ${category.typeName} and ${knowledgeDocuments.subTypeName} = ${category.subTypeName})` : sql`false`;
  // The document's title names what the whole article is about, and only its first passage carries it.
  const title = sql`to_tsvector('english', ${knowledgeDocuments.title})`;
  const inScope = and(
    eq(knowledgeChunks.mspId, scope.mspId),
    companyFilter(knowledgeChunks.companyExternalId, scope, true),
    audienceFilter(scope),
    options.documentId === undefined ? undefined : eq(knowledgeChunks.documentId, options.documentId),
  );
  const chunksOfDocuments = and(eq(knowledgeDocuments.mspId, knowledgeChunks.mspId), eq(knowledgeDocuments.id, knowledgeChunks.documentId));
  const isByWords = options.by !== 'meaning' && options.mode === 'near';
  const corpus = db.select({ size: sql<number>`count(*)::float8`.as('size') }).from(knowledgeChunks).innerJoin(knowledgeDocuments, chunksOfDocuments).where(inScope).as('corpus');
  const coverage = isByWords ? coverageOf(knowledgeChunks.search, query, sql`${corpus.size}`) : sql`0`;
  const score = sql<number>`(${textRankOf(knowledgeChunks.search, query, options.mode)} + ${sql.raw(String(TITLE_WEIGHT))} * ${textRankOf(title, query, options.mode)} + 0.5 * word_similarity(${query}, ${knowledgeChunks.content}) + ${similarity} + ${sql.raw(String(COVERAGE_WEIGHT))} * ${coverage} + case when ${isOfCategory} then ${sql.raw(String(CATEGORY_BOOST))} else 0 end)::float8`;
  const matches =
    options.by === 'meaning'
      ? sql`${similarity} >= ${MIN_MEANING_SIMILARITY}`
      : options.mode === 'exact'
        ? sql`${knowledgeChunks.search} @@ ${tsQuery}`
        : sql`(${knowledgeChunks.search} @@ ${tsQuery} or ${query} <% ${knowledgeChunks.content} or ${isOfCategory})`;
  const selected = db
    .select({
      chunkId: knowledgeChunks.id,
      documentId: knowledgeChunks.documentId,
      kind: knowledgeDocuments.kind,
      title: knowledgeDocuments.title,
      fileName: knowledgeDocuments.fileName,
      heading: knowledgeChunks.heading,
      content: knowledgeChunks.content,
      typeName: knowledgeDocuments.typeName,
      subTypeName: knowledgeDocuments.subTypeName,
      score,
    })
    .from(knowledgeChunks)
    .innerJoin(knowledgeDocuments, chunksOfDocuments)
    .$dynamic();
  // The scope's size is read only where the coverage uses it.
  return (isByWords ? selected.crossJoin(corpus) : selected).where(and(inScope, matches)).orderBy(desc(score), knowledgeChunks.id).limit(options.limit);
}

export interface TResolutionHit {
  id: string;
  externalId: string;
  ticketNumber: string | null;
  summary: string;
  resolution: string;
  typeName: string | null;
  subtypeName: string | null;
  score: number;
}

/**
 * Closed tickets of the MSP whose summary, description or resolution match, best first. A client
 * user only ever sees their own company's tickets. No index: ranked on the fly over the MSP's
 * closed tickets, which is fast enough at help-desk sizes (thousands per MSP).
 */
export function searchResolutions(db: TDatabase, scope: TKnowledgeScope, query: string, options: { limit: number; mode: 'near' | 'exact'; queryVector?: TQueryVector; by?: TSearchBy }): Promise<TResolutionHit[]> {
  const tsQuery = tsQueryOf(query, options.mode);
  // Each ticket's text is made a tsvector once, in a lateral subquery that `offset 0` keeps from being folded
  // into the outer query (where the filter and both ranks would each compute it again).
  const ticketText = sql`(select to_tsvector('english', ${psaTickets.summary} || ' ' || coalesce(${psaTickets.description}, '') || ' ' || coalesce(${psaTickets.resolution}, '')) as document offset 0) as ticket_text`;
  const document = sql`ticket_text.document`;
  const similarity = similarityOf(sql`${psaTicketEmbeddings.embedding}`, sql`${psaTicketEmbeddings.embeddingModel}`, options.queryVector);
  const inScope = and(
    eq(psaTickets.mspId, scope.mspId),
    eq(psaTickets.isClosed, true),
    sql`${psaTickets.resolution} is not null and ${psaTickets.resolution} <> ''`,
    companyFilter(psaTickets.companyExternalId, scope, false),
  );
  const isByWords = options.by !== 'meaning' && options.mode === 'near';
  const corpus = db.select({ size: sql<number>`count(*)::float8`.as('size') }).from(psaTickets).where(inScope).as('corpus');
  const coverage = isByWords ? coverageOf(document, query, sql`${corpus.size}`) : sql`0`;
  const score = sql<number>`(${textRankOf(document, query, options.mode)} + 0.5 * word_similarity(${query}, ${psaTickets.summary}) + ${similarity} + ${sql.raw(String(COVERAGE_WEIGHT))} * ${coverage})::float8`;
  const selected = db
    .select({
      id: psaTickets.id,
      externalId: psaTickets.externalId,
      ticketNumber: psaTickets.ticketNumber,
      summary: psaTickets.summary,
      resolution: sql<string>`coalesce(${psaTickets.resolution}, '')`,
      typeName: psaTickets.typeName,
      subtypeName: psaTickets.subtypeName,
      score,
    })
    .from(psaTickets)
    .crossJoinLateral(ticketText)
    .leftJoin(psaTicketEmbeddings, and(eq(psaTicketEmbeddings.mspId, psaTickets.mspId), eq(psaTicketEmbeddings.ticketId, psaTickets.id)))
    .$dynamic();
  const matches = options.by === 'meaning' ? sql`${similarity} >= ${MIN_MEANING_SIMILARITY}` : sql`${document} @@ ${tsQuery}`;
  // The scope's size is read only where the coverage uses it.
  return (isByWords ? selected.crossJoin(corpus) : selected).where(and(inScope, matches)).orderBy(desc(score), psaTickets.id).limit(options.limit);
}
