import { eq } from 'drizzle-orm';
import { llmProviders, type TDatabase } from '@switchboard/db';

export type TLlmProviderRow = typeof llmProviders.$inferSelect;

/** The MSP's language-model provider, or null when it has none (Jarvis then runs on the local engine). */
export async function findLlmProvider(db: TDatabase, mspId: string): Promise<TLlmProviderRow | null> {
  const [row] = await db.select().from(llmProviders).where(eq(llmProviders.mspId, mspId)).limit(1);
  return row ?? null;
}

export interface TSaveLlmProvider {
  provider: TLlmProviderRow['provider'];
  model: string;
  baseUrl: string | null;
  embeddingModel: string | null;
  secretCiphertext: string;
  keyHint: string;
}

/** Creates or replaces the MSP's one provider. */
export async function saveLlmProvider(db: TDatabase, mspId: string, values: TSaveLlmProvider, now: Date): Promise<TLlmProviderRow> {
  const [row] = await db
    .insert(llmProviders)
    .values({ mspId, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: llmProviders.mspId, set: { ...values, updatedAt: now } })
    .returning();
  if (!row) throw new Error('llm provider not saved');
  return row;
}

/** Removes the provider and its key; true when there was one. */
export async function deleteLlmProvider(db: TDatabase, mspId: string): Promise<boolean> {
  const deleted = await db.delete(llmProviders).where(eq(llmProviders.mspId, mspId)).returning({ mspId: llmProviders.mspId });
  return deleted.length > 0;
}
