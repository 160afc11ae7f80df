import { LLM_PROVIDER_MESSAGES, isSameLlmBaseUrl, type TLlmProviderSettings, type TLlmProviderTestResult, type TSaveLlmProviderBody } from '@switchboard/contracts';
import { testLlmConnection } from '@switchboard/assistant';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, validation } from '../../lib/app-error';
import { encryptSecret, secretHintOf } from '../../lib/crypto';
import { assertOutboundUrlAllowed } from '../../lib/ssrf-guard';
import type { TActor } from '../../plugins/access';
import { createLlmEngines } from './llm-engines';
import { presentLlmProvider } from './llm-provider.presenter';
import { deleteLlmProvider, findLlmProvider, saveLlmProvider } from './llm-provider.repository';
import { userAuditFields } from '../../lib/audit';

const notConfigured = () => new AppError('conflict', LLM_PROVIDER_MESSAGES.notConfigured);

/** The MSP's language-model provider for Jarvis: read, save, remove, test (decision 023). */
export function createLlmProviderService(deps: Pick<TAppDeps, 'config' | 'database' | 'audit' | 'now'>) {
  const db = deps.database.db;
  const engines = createLlmEngines(deps);

  function recordAudit(handle: TDatabase, actor: TActor, action: string, outcome: 'success' | 'failure', details: Record<string, unknown>) {
    return deps.audit.record(handle, { ...userAuditFields(actor), action, target: 'llm-provider', outcome, details });
  }

  return {
    /** What the settings screen shows; never the key. */
    async get(mspId: string): Promise<TLlmProviderSettings> {
      return presentLlmProvider(await findLlmProvider(db, mspId));
    },

    /** Saves the provider; the key is encrypted at rest, and a base URL must pass the SSRF guard. */
    async save(actor: TActor, body: TSaveLlmProviderBody): Promise<TLlmProviderSettings> {
      const existing = await findLlmProvider(db, actor.mspId);
      const baseUrl = body.baseUrl ? body.baseUrl.replace(/\/+$/, '') : null;
      const embeddingModel = body.embeddingModel ? body.embeddingModel : null;
      if (embeddingModel !== null && body.provider !== 'openai') {
        throw validation(LLM_PROVIDER_MESSAGES.embeddingModelOpenAiOnly, [{ name: 'embeddingModel', reason: LLM_PROVIDER_MESSAGES.embeddingModelOpenAiOnly }]);
      }
      if (baseUrl) await assertOutboundUrlAllowed(baseUrl, { allowList: deps.config.outboundAllowList, field: { name: 'baseUrl', label: 'base URL' }, isApiRoot: true });
      // The screen never holds the stored key, so leaving the field empty keeps it, unless the provider or the
      // address changes: the key is only ever sent where it was saved for (security review: a new base URL and
      // no key, then Test, sent the stored key to that address).
      const isSameProvider = existing !== null && existing.provider === body.provider;
      const isSameAddress = existing !== null && isSameLlmBaseUrl(existing.baseUrl, baseUrl);
      if (body.apiKey === undefined && !(isSameProvider && isSameAddress)) {
        const reason = isSameProvider ? LLM_PROVIDER_MESSAGES.apiKeyRequiredForNewAddress : LLM_PROVIDER_MESSAGES.apiKeyRequired;
        throw validation(reason, [{ name: 'apiKey', reason }]);
      }
      const sealed = body.apiKey !== undefined ? { secretCiphertext: encryptSecret(deps.config.encryptionKey, body.apiKey), keyHint: secretHintOf(body.apiKey) } : null;
      const row = await db.transaction(async (tx) => {
        const saved = await saveLlmProvider(
          tx,
          actor.mspId,
          { provider: body.provider, model: body.model, baseUrl, embeddingModel, secretCiphertext: sealed?.secretCiphertext ?? existing?.secretCiphertext ?? '', keyHint: sealed?.keyHint ?? existing?.keyHint ?? '' },
          deps.now(),
        );
        await recordAudit(tx, actor, existing ? 'llm_provider.update' : 'llm_provider.create', 'success', { provider: body.provider, model: body.model, baseUrl, embeddingModel, keyChanged: sealed !== null });
        return saved;
      });
      return presentLlmProvider(row);
    },

    /** Removes the provider and its key; Jarvis answers with the local engine again. */
    async remove(actor: TActor): Promise<TLlmProviderSettings> {
      const existing = await findLlmProvider(db, actor.mspId);
      if (!existing) throw notConfigured();
      await db.transaction(async (tx) => {
        await deleteLlmProvider(tx, actor.mspId);
        await recordAudit(tx, actor, 'llm_provider.delete', 'success', { provider: existing.provider, model: existing.model });
      });
      return presentLlmProvider(null);
    },

    /** One short call to the saved model; the outcome is audited either way. */
    async test(actor: TActor): Promise<TLlmProviderTestResult> {
      const row = await findLlmProvider(db, actor.mspId);
      if (!row) throw notConfigured();
      let result: TLlmProviderTestResult;
      try {
        result = await testLlmConnection(engines.connectionOf(row));
      } catch {
        result = { ok: false, message: 'The saved API key cannot be read any more. Enter it again.', latencyMs: 0 };
      }
      await recordAudit(db, actor, 'llm_provider.test', result.ok ? 'success' : 'failure', { provider: row.provider, model: row.model, message: result.message, latencyMs: result.latencyMs });
      return result;
    },
  };
}
