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

export const LLM_PROVIDER_MESSAGES = {
  apiKeyRequired: 'API key is required',
  modelRequired: 'Model is required',
  baseUrlInvalid: 'Base URL must be a web address such as https://api.openai.com/v1',
  notConfigured: 'No AI model is configured for this MSP.',
  embeddingModelOpenAiOnly: 'Only an OpenAI-compatible provider offers embeddings; leave the embedding model empty for Claude.',
  saved: 'AI model saved.',
  removed: 'AI model removed. Jarvis answers from your knowledge base again.',
} as const;
