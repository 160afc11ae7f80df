import { z } from 'zod';
import { LLM_API_KEY_MAX, LLM_BASE_URL_MAX, LLM_MODEL_MAX, LLM_PROVIDER_MESSAGES, LLM_PROVIDERS } from '../llm-provider';

/** What the settings screen reads (GET/PUT /db/:msp/llm-provider): never the key, only its last four characters. */
export const ZLlmProviderSettings = z.object({
  isConfigured: z.boolean(),
  provider: z.enum(LLM_PROVIDERS).nullable(),
  model: z.string().nullable(),
  baseUrl: z.string().nullable(),
  /** The embedding model Jarvis's search uses beside words (decision 026), or null. */
  embeddingModel: z.string().nullable(),
  keyHint: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type TLlmProviderSettings = z.infer<typeof ZLlmProviderSettings>;

/**
 * PUT /db/:msp/llm-provider. `apiKey` may be left out to keep the stored key when the provider and the
 * base URL stay the same (the screen never has the key to send back); a new provider or base URL needs the key.
 */
export const ZSaveLlmProviderBody = z.object({
  provider: z.enum(LLM_PROVIDERS),
  model: z.string().trim().min(1, LLM_PROVIDER_MESSAGES.modelRequired).max(LLM_MODEL_MAX),
  apiKey: z.string().trim().min(1, LLM_PROVIDER_MESSAGES.apiKeyRequired).max(LLM_API_KEY_MAX).optional(),
  baseUrl: z
    .string()
    .trim()
    .max(LLM_BASE_URL_MAX)
    .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), LLM_PROVIDER_MESSAGES.baseUrlInvalid)
    .nullable()
    .optional(),
  /** Empty or absent: no embeddings (search by words alone). */
  embeddingModel: z.string().trim().max(LLM_MODEL_MAX).nullable().optional(),
});
export type TSaveLlmProviderBody = z.infer<typeof ZSaveLlmProviderBody>;

/** POST /db/:msp/llm-provider/test: one short call to the saved provider; a failure is a result, not an error. */
export const ZLlmProviderTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
  latencyMs: z.number().int().nonnegative(),
});
export type TLlmProviderTestResult = z.infer<typeof ZLlmProviderTestResult>;
