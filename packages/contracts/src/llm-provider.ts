/**
 * The MSP's language-model provider for Jarvis (issue #9, decision 023): the plain constants both
 * sides share. The zod schemas of the calls are in schemas/llm-provider.ts.
 */

export const LLM_PROVIDERS = ['openai', 'anthropic'] as const;
export type TLlmProviderKind = (typeof LLM_PROVIDERS)[number];

/** How each provider is named on the screens (the catalogue cards are "OpenAI" and "Claude", R-237). */
export const LLM_PROVIDER_LABELS: Record<TLlmProviderKind, string> = {
  openai: 'OpenAI or OpenAI-compatible (Azure OpenAI, Ollama, vLLM)',
  anthropic: 'Anthropic Claude',
};

/** What the model field offers first; any model name the provider serves is accepted. */
export const LLM_DEFAULT_MODELS: Record<TLlmProviderKind, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
};

export const LLM_MODEL_MAX = 200;
/** What the embedding-model field suggests for OpenAI itself (Ollama: e.g. nomic-embed-text). */
export const LLM_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
export const LLM_API_KEY_MAX = 500;
export const LLM_BASE_URL_MAX = 300;

/** A base URL as compared for the stored key: scheme, host and default port as URL writes them, no trailing slash; empty is the provider's own. */
function comparableLlmBaseUrl(baseUrl: string | null): string | null {
  const trimmed = (baseUrl ?? '').trim().replace(/\/+$/, '');
  if (trimmed === '') return null;
  try {
    return new URL(trimmed).href.replace(/\/+$/, '');
  } catch {
    return trimmed;
  }
}

/** Whether two base URLs are one address: a saved API key is only ever sent to the address it was saved for. */
export function isSameLlmBaseUrl(first: string | null, second: string | null): boolean {
  return comparableLlmBaseUrl(first) === comparableLlmBaseUrl(second);
}

export const LLM_PROVIDER_MESSAGES = {
  apiKeyRequired: 'API key is required',
  /** A saved key goes only to the address it was saved with: a new base URL needs the key typed again. */
  apiKeyRequiredForNewAddress: 'Enter the API key again: it is only sent to the address it was saved for.',
  modelRequired: 'Model is required',
  baseUrlInvalid: 'Base URL must be a web address such as https://api.openai.com/v1',
  notConfigured: 'No AI model is configured for this MSP.',
  embeddingModelOpenAiOnly: 'Only an OpenAI-compatible provider offers embeddings; leave the embedding model empty for Claude.',
  saved: 'AI model saved.',
  removed: 'AI model removed. Jarvis answers from your knowledge base again.',
  /** Test calls the saved model, so it waits while the form shows other settings. */
  saveToTest: 'Save to test these settings: Test calls the saved model.',
} as const;
