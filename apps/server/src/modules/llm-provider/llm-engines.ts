import { createLlmEngine, type TAssistantEngine, type TBoardCatalogue, type TEmbeddingConnection, type TLlmConnection } from '@switchboard/assistant';
import type { TAppDeps } from '../../app-deps';
import { decryptSecret } from '../../lib/crypto';
import { createGuardedFetch } from '../../lib/guarded-fetch';
import { findLlmProvider, type TLlmProviderRow } from './llm-provider.repository';

/** Chat, troubleshooting and prompts need no board; only categorisation does. */
const NO_BOARD: TBoardCatalogue = { boards: [] };

/**
 * Which engine answers for an MSP (decision 023): its language model, with the local engine as the
 * fallback on a timeout, an error or an answer that fails validation; the local engine alone when the
 * MSP has no provider. The SDKs reach the model through the SSRF-guarded fetch, which refuses redirects.
 */
export function createLlmEngines(deps: Pick<TAppDeps, 'config' | 'database'>) {
  // No redirects: the SDKs would follow one from the saved address to any other, with the key (security review).
  const guardedFetch = createGuardedFetch({ allowList: deps.config.outboundAllowList, followsRedirects: false });

  function connectionOf(row: TLlmProviderRow): TLlmConnection {
    return {
      provider: row.provider,
      model: row.model,
      baseUrl: row.baseUrl,
      apiKey: decryptSecret(deps.config.encryptionKey, row.secretCiphertext),
      timeoutMs: deps.config.llmTimeoutMs,
      fetch: guardedFetch,
    };
  }

  return {
    connectionOf,

    /** The MSP's model connection, or null when it has none (or its key can no longer be decrypted). */
    async connectionFor(mspId: string): Promise<TLlmConnection | null> {
      const row = await findLlmProvider(deps.database.db, mspId);
      if (!row) return null;
      try {
        return connectionOf(row);
      } catch {
        // A key sealed with a previous ENCRYPTION_KEY: Jarvis stays available on the local engine.
        return null;
      }
    },

    /**
     * The MSP's embedding model (decision 026): its OpenAI-compatible provider with an embedding
     * model set, or null (Anthropic, no model, or a key that can no longer be decrypted).
     */
    async embeddingConnectionFor(mspId: string): Promise<TEmbeddingConnection | null> {
      const row = await findLlmProvider(deps.database.db, mspId);
      if (!row || row.provider !== 'openai' || row.embeddingModel === null) return null;
      try {
        return { ...connectionOf(row), model: row.embeddingModel };
      } catch {
        return null;
      }
    },

    /** The engine Jarvis uses for this MSP: its model falling back to `local`, or `local` itself. */
    async engineFor(mspId: string, local: TAssistantEngine, board: TBoardCatalogue = NO_BOARD): Promise<TAssistantEngine> {
      const connection = await this.connectionFor(mspId);
      return connection ? createLlmEngine({ ...connection, board, fallback: local }) : local;
    },
  };
}

export type TLlmEngines = ReturnType<typeof createLlmEngines>;
