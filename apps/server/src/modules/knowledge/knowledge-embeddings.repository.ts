import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { knowledgeChunks, psaTicketEmbeddings, psaTickets, type TDatabase } from '@switchboard/db';

/** pgvector's text form of a vector, e.g. `[0.1,0.2]`, passed as a parameter and cast to `vector`. */
export const vectorLiteral = (vector: readonly number[]) => `[${vector.join(',')}]`;

/** The text a past resolution is embedded from (and hashed, to tell when it changed). */
const resolutionText = sql<string>`${psaTickets.summary} || E'\\n' || coalesce(${psaTickets.resolution}, '')`;

export interface TTextToEmbed {
  id: string;
  text: string;
}

/** Passages of the MSP (of one document, when given) without an embedding from `model`, oldest first. */
export async function passagesWithoutEmbedding(db: TDatabase, mspId: string, model: string, limit: number, documentId?: string): Promise<TTextToEmbed[]> {
  const rows = await db
    .select({ id: knowledgeChunks.id, heading: knowledgeChunks.heading, content: knowledgeChunks.content })
    .from(knowledgeChunks)
    .where(
      and(
        eq(knowledgeChunks.mspId, mspId),
        documentId === undefined ? undefined : eq(knowledgeChunks.documentId, documentId),
        or(isNull(knowledgeChunks.embeddingModel), ne(knowledgeChunks.embeddingModel, model)),
      ),
    )
    .orderBy(asc(knowledgeChunks.documentId), asc(knowledgeChunks.position))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, text: row.heading ? `${row.heading}\n${row.content}` : row.content }));
}

/** Stores the passages' embeddings with the model that made them. */
export async function savePassageEmbeddings(db: TDatabase, mspId: string, model: string, rows: readonly { id: string; vector: number[] }[]): Promise<void> {
  for (const row of rows) {
    await db
      .update(knowledgeChunks)
      .set({ embedding: row.vector, embeddingModel: model })
      .where(and(eq(knowledgeChunks.mspId, mspId), eq(knowledgeChunks.id, row.id)));
  }
}

/** Closed tickets with a resolution whose embedding from `model` is missing or older than their text. */
export async function resolutionsWithoutEmbedding(db: TDatabase, mspId: string, model: string, limit: number): Promise<(TTextToEmbed & { textHash: string })[]> {
  return db
    .select({ id: psaTickets.id, text: resolutionText, textHash: sql<string>`md5(${resolutionText})` })
    .from(psaTickets)
    .leftJoin(psaTicketEmbeddings, and(eq(psaTicketEmbeddings.mspId, psaTickets.mspId), eq(psaTicketEmbeddings.ticketId, psaTickets.id)))
    .where(
      and(
        eq(psaTickets.mspId, mspId),
        eq(psaTickets.isClosed, true),
        sql`${psaTickets.resolution} is not null and ${psaTickets.resolution} <> ''`,
        or(isNull(psaTicketEmbeddings.ticketId), ne(psaTicketEmbeddings.embeddingModel, model), ne(psaTicketEmbeddings.textHash, sql`md5(${resolutionText})`)),
      ),
    )
    .orderBy(asc(psaTickets.id))
    .limit(limit);
}

/** Stores (or replaces) the resolutions' embeddings. */
export async function saveResolutionEmbeddings(db: TDatabase, mspId: string, model: string, rows: readonly { id: string; textHash: string; vector: number[] }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(psaTicketEmbeddings)
    .values(rows.map((row) => ({ mspId, ticketId: row.id, embeddingModel: model, textHash: row.textHash, embedding: row.vector })))
    .onConflictDoUpdate({
      target: [psaTicketEmbeddings.mspId, psaTicketEmbeddings.ticketId],
      set: { embeddingModel: sql`excluded.embedding_model`, textHash: sql`excluded.text_hash`, embedding: sql`excluded.embedding`, createdAt: sql`now()` },
    });
}
