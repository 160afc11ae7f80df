import type { TLlmProviderSettings } from '@switchboard/contracts';
import type { TLlmProviderRow } from './llm-provider.repository';

/** Row → what the settings screen reads; never the key. */
export function presentLlmProvider(row: TLlmProviderRow | null): TLlmProviderSettings {
  if (!row) return { isConfigured: false, provider: null, model: null, baseUrl: null, embeddingModel: null, keyHint: null, updatedAt: null };
  return { isConfigured: true, provider: row.provider, model: row.model, baseUrl: row.baseUrl, embeddingModel: row.embeddingModel, keyHint: row.keyHint, updatedAt: row.updatedAt.toISOString() };
}
