import { embedTexts } from '@switchboard/assistant';
import type { TAppDeps } from '../../app-deps';
import { createLlmEngines } from '../llm-provider/llm-engines';
import { passagesWithoutEmbedding, resolutionsWithoutEmbedding, savePassageEmbeddings, saveResolutionEmbeddings } from './knowledge-embeddings.repository';
import type { TQueryVector } from './knowledge.repository';

/** Told about a failed embedding call; search then goes on by words alone. */
export type TEmbeddingWarn = (message: string, error: unknown) => void;

/** A query waits at most this long for its embedding before searching by words alone. */
const QUERY_EMBEDDING_TIMEOUT_MS = 5_000;
/** How many passages and resolutions one pass embeds (a backfill continues on the next pass). */
const EMBED_PASS_LIMIT = 1_000;

const nothing = { passages: 0, resolutions: 0 };

/**
 * Embeddings of the MSP's knowledge (decision 026): only when the database has pgvector and the
 * MSP's provider has an embedding model. Never throws: without embeddings, search is by words.
 */
export function createKnowledgeEmbeddings(deps: Pick<TAppDeps, 'config' | 'database'>, warn: TEmbeddingWarn = () => undefined) {
  const db = deps.database.db;
  const engines = createLlmEngines(deps);
  const isVectorSearchAvailable = deps.database.vectorSearch.isAvailable;

  return {
    /**
     * Embeds what the MSP's model has not embedded yet: one document's passages, or up to a pass's
     * worth of passages and past resolutions (new, changed, or from another model).
     */
    async embedPending(mspId: string, options: { documentId?: string } = {}): Promise<{ passages: number; resolutions: number }> {
      if (!isVectorSearchAvailable) return nothing;
      // Everything inside: it also runs unawaited after a save, where a rejection would go unhandled.
      try {
        const connection = await engines.embeddingConnectionFor(mspId);
        if (!connection) return nothing;
        const passages = await passagesWithoutEmbedding(db, mspId, connection.model, EMBED_PASS_LIMIT, options.documentId);
        const passageVectors = await embedTexts(connection, passages.map((passage) => passage.text));
        await savePassageEmbeddings(db, mspId, connection.model, passages.map((passage, index) => ({ id: passage.id, vector: passageVectors[index] ?? [] })));
        if (options.documentId !== undefined) return { passages: passages.length, resolutions: 0 };
        const resolutions = await resolutionsWithoutEmbedding(db, mspId, connection.model, EMBED_PASS_LIMIT);
        const resolutionVectors = await embedTexts(connection, resolutions.map((resolution) => resolution.text));
        await saveResolutionEmbeddings(db, mspId, connection.model, resolutions.map((resolution, index) => ({ id: resolution.id, textHash: resolution.textHash, vector: resolutionVectors[index] ?? [] })));
        return { passages: passages.length, resolutions: resolutions.length };
      } catch (error) {
        warn(`knowledge: embedding the knowledge of MSP ${mspId} failed; its search uses words alone until a later pass succeeds`, error);
        return nothing;
      }
    },

    /** The query's embedding, or undefined (no pgvector, no embedding model, or the call failed). */
    async queryVectorFor(mspId: string, query: string): Promise<TQueryVector | undefined> {
      if (!isVectorSearchAvailable) return undefined;
      const connection = await engines.embeddingConnectionFor(mspId);
      if (!connection) return undefined;
      try {
        const [vector] = await embedTexts({ ...connection, timeoutMs: Math.min(connection.timeoutMs, QUERY_EMBEDDING_TIMEOUT_MS) }, [query]);
        return vector ? { model: connection.model, vector } : undefined;
      } catch (error) {
        warn(`knowledge: embedding a query for MSP ${mspId} failed; searching by words alone`, error);
        return undefined;
      }
    },
  };
}

export type TKnowledgeEmbeddings = ReturnType<typeof createKnowledgeEmbeddings>;
