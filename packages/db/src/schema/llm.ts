import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { msps } from './tenancy';

/**
 * The MSP's language-model provider for Jarvis (issue #9, decision 023): at most one per MSP. The API
 * key is AES-256-GCM encrypted in `secret_ciphertext` like the PSA keys and never returned;
 * `key_hint` (its last four characters) is what the settings screen shows.
 */
export const llmProviders = pgTable('llm_providers', {
  mspId: uuid('msp_id').primaryKey().references(() => msps.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['openai', 'anthropic'] }).notNull(),
  model: text('model').notNull(),
  /** An OpenAI-compatible or Anthropic API root; null means the provider's own public API. */
  baseUrl: text('base_url'),
  /**
   * The provider's embedding model (OpenAI-compatible only; Anthropic has none), or null: without
   * one Jarvis searches by words alone (decision 026).
   */
  embeddingModel: text('embedding_model'),
  secretCiphertext: text('secret_ciphertext').notNull(),
  keyHint: text('key_hint').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
