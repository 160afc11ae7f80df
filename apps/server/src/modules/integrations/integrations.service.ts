import { MESSAGES, psaConnectionKeyOf, type TIntegrationSummary, type TIntegratorResult } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { validation } from '../../lib/app-error';
import { encryptSecret, secretHintOf } from '../../lib/crypto';
import { assertOutboundUrlAllowed } from '../../lib/ssrf-guard';
import { isIntegrationConfigured, presentIntegration } from './integrations.presenter';
import { clearIntegrationKeys, findIntegration, findIntegrationForUpdate, saveIntegrationKeys, setConnectWiseManageIntegrator, type TSaveIntegration } from './integrations.repository';
import type { TIntegrationSecrets, TUpdateIntegrationsBody } from './integrations.schemas';
import { psaNotConfigured, withPsaErrors } from './psa-errors';
import { deleteEventSubscription, deleteReconcileCursor, findEventSubscription } from '../psa-events/psa-events.repository';
import { createPsaEventsService } from '../psa-events/psa-events.service';
import { resetWizardProgress } from '../wizard/wizard.repository';
import { userAuditFields } from '../../lib/audit';
import { findEmailConnector } from '../email-connector/email-connector.repository';
import { stopPsaWritesForConnectionChange } from '../psa-outbox/psa-outbox';
import { dataPsaOf, isSamePsa, psaIdentityOf, type TPsaIdentity } from './psa-identity';
import { startPsaDataOver } from './psa-data-reset.repository';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { categoriserStoreFor } from '../assistant/mspboard';

export interface TIntegrationActor {
  mspId: string;
  userId: string;
  ip: string;
  requestId: string;
}

/** Saving, verifying and clearing the MSP's PSA keys (01 §4 "Manage integration"). */
export function createIntegrationsService(deps: TAppDeps) {
  const db = deps.database.db;
  const clients = deps.psaClients;
  const assertAllowed = (url: string) => assertOutboundUrlAllowed(url, { allowList: deps.config.outboundAllowList });
  // Ticket events (decision 016): the webhook is registered on connect and removed on disconnect. Neither blocks the
  // admin: a registration that fails is retried by the reconcile loop, whose reread also covers the missed events.
  const psaEvents = createPsaEventsService(deps);
  const logEventsProblem = (what: string) => (error: unknown) => process.stderr.write(`psa-events: ${what} failed (${error instanceof Error ? error.message : String(error)})\n`);

  /** Records a change through `handle` (the transaction that makes it), or a refusal through the database. */
  async function recordAudit(handle: TDatabase, actor: TIntegrationActor, action: string, outcome: 'success' | 'failure', details: Record<string, unknown>) {
    await deps.audit.record(handle, { ...userAuditFields(actor), action, target: 'integrations', outcome, details });
  }

  /**
   * In the transaction that connects another PSA or disconnects (decision 013): the writes still waiting were meant for
   * the PSA connected before (`before`, null when its keys were already cleared), so none may go to the next one. One
   * audit event for the change, with how many were stopped.
   */
  async function stopWritesOfOldConnection(tx: TDatabase, actor: TIntegrationActor, before: TPsaIdentity | null) {
    const meantFor = before?.label ?? MESSAGES.psa.connectionUnknown;
    const stopped = await stopPsaWritesForConnectionChange(tx, actor.mspId, meantFor, deps.now());
    const count = stopped.waiting + stopped.sending;
    if (count > 0) {
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'psa_write.connection_changed', target: 'psa_outbox', outcome: 'failure', details: { count, beingSent: stopped.sending, meantFor } });
    }
  }

  /**
   * Decision 042, in the transaction that saves keys for another PSA: the MSP's copies, queue, board setup and users'
   * PSA links of the PSA its data came from are removed, the wizard starts again (R-193, as on disconnect), and one
   * audit event says what went.
   */
  async function startDataOver(tx: TDatabase, actor: TIntegrationActor, dataPsa: TPsaIdentity) {
    const removed = await startPsaDataOver(tx, actor.mspId);
    await resetWizardProgress(tx, actor.mspId);
    await recordAudit(tx, actor, 'integrations.psa_data.reset', 'success', { previousPsa: dataPsa.label, removed });
  }

  /**
   * After that commit, this process's caches of it: sessions carry the users' old PSA links, and the categoriser was
   * trained on the old copies. Other replicas' sessions expire within the cache's lifetime (decision 011).
   */
  function forgetPsaDataOfMsp(mspId: string) {
    forgetCachedSessions.ofMsp(deps.caches.sessions, mspId);
    categoriserStoreFor(db, deps.now).forget(mspId);
  }

  return {
    /** The summary any signed-in user of the MSP may read; never a key. */
    async getSummary(mspId: string): Promise<TIntegrationSummary> {
      return presentIntegration(await findIntegration(db, mspId), (await findEmailConnector(db, mspId)) !== null);
    },

    /** Encrypts and stores new keys after checking the PSA address is one we may call. */
    async saveKeys(actor: TIntegrationActor, body: TUpdateIntegrationsBody): Promise<TIntegrationSummary> {
      const existing = await findIntegration(db, actor.mspId);
      let values: TSaveIntegration & { dataPsaConnection: string };
      let secrets: TIntegrationSecrets;
      if (body.connectWiseManageIntegration) {
        const input = body.connectWiseManageIntegration;
        const psaUrl = /^https?:\/\//i.test(input.psaUrl) ? input.psaUrl : `https://${input.psaUrl}`;
        await assertAllowed(psaUrl);
        const clientId = input.clientId ?? (existing?.psaType === 'CONNECTWISE' ? existing.settings.clientId : undefined) ?? deps.config.connectWiseClientId;
        if (!clientId) throw validation(MESSAGES.psa.clientIdRequired, [{ name: 'connectWiseManageIntegration.clientId', reason: MESSAGES.psa.clientIdRequired }]);
        secrets = { psaType: 'CONNECTWISE', publicKey: input.publicKey, privateKey: input.privateKey };
        values = {
          psaType: 'CONNECTWISE',
          settings: { companyId: input.companyId, psaUrl, clientId },
          secretCiphertext: '',
          keyHint: secretHintOf(input.privateKey),
          dataPsaConnection: psaConnectionKeyOf({ psaType: 'CONNECTWISE', psaUrl, companyId: input.companyId }),
        };
      } else if (body.autotaskIntegration) {
        const input = body.autotaskIntegration;
        if (input.zoneDiscoveryUrl) await assertAllowed(input.zoneDiscoveryUrl);
        secrets = { psaType: 'AUTOTASK', secret: input.secret, integrationCode: input.integrationCode };
        values = {
          psaType: 'AUTOTASK',
          settings: { username: input.username, ...(input.zoneDiscoveryUrl ? { zoneDiscoveryUrl: input.zoneDiscoveryUrl } : {}) },
          secretCiphertext: '',
          keyHint: secretHintOf(input.secret),
          dataPsaConnection: psaConnectionKeyOf({ psaType: 'AUTOTASK', username: input.username, zoneDiscoveryUrl: input.zoneDiscoveryUrl }),
        };
      } else {
        throw validation('Send exactly one of connectWiseManageIntegration or autotaskIntegration.');
      }
      values.secretCiphertext = encryptSecret(deps.config.encryptionKey, JSON.stringify(secrets));
      const { row, oldWebhook, hasStartedOver } = await db.transaction(async (tx) => {
        const beforeRow = await findIntegrationForUpdate(tx, actor.mspId);
        const before = psaIdentityOf(beforeRow);
        const dataPsa = dataPsaOf(beforeRow);
        const saved = await saveIntegrationKeys(tx, actor.mspId, values, deps.now());
        await recordAudit(tx, actor, 'integrations.keys.save', 'success', { psaType: values.psaType, settings: values.settings });
        // Decision 042: data of another PSA never mixes with the new one's (the ids collide and cannot be told apart).
        // The same PSA (the same keys, a rotated key, a reconnect after a disconnect) keeps everything.
        const hasStartedOver = dataPsa !== null && dataPsa.key !== values.dataPsaConnection;
        if (hasStartedOver) await startDataOver(tx, actor, dataPsa);
        // The same PSA (the same keys again, or a rotated key) keeps its waiting writes; another one must not get them.
        if (isSamePsa(before, psaIdentityOf(saved))) return { row: saved, oldWebhook: null, hasStartedOver };
        await stopWritesOfOldConnection(tx, actor, before);
        // The webhook subscription and the reconcile cursor belong to the PSA connected before: forgotten with this
        // commit, so an event signed with the old secret is refused from now on and never applied to the new connection.
        const subscription = await findEventSubscription(tx, actor.mspId);
        await deleteEventSubscription(tx, actor.mspId);
        await deleteReconcileCursor(tx, actor.mspId);
        return { row: saved, oldWebhook: subscription && beforeRow ? { connection: beforeRow, webhookId: subscription.webhookId } : null, hasStartedOver };
      });
      clients.invalidate(actor.mspId);
      if (hasStartedOver) forgetPsaDataOfMsp(actor.mspId);
      // After the commit, with the old keys: the old PSA stops calling a URL that is now refused. Best effort, as on
      // disconnect: an old PSA that cannot be reached does not undo the save.
      if (oldWebhook) await clients.fromIntegration(oldWebhook.connection).unregisterTicketWebhook(oldWebhook.webhookId).catch(logEventsProblem('removing the previous PSA’s ticket webhook'));
      return presentIntegration(row, (await findEmailConnector(db, actor.mspId)) !== null);
    },

    /** true: proves the keys work by fetching boards, then sets the flag; false: disconnects and wipes the keys. */
    async setIntegrator(actor: TIntegrationActor, isIntegrated: boolean): Promise<TIntegratorResult> {
      if (!isIntegrated) {
        // While the keys still work: the PSA stops calling a URL that would only be refused.
        await psaEvents.unsubscribe(actor.mspId).catch(logEventsProblem('removing the ticket webhook'));
        await db.transaction(async (tx) => {
          const before = psaIdentityOf(await findIntegrationForUpdate(tx, actor.mspId));
          await stopWritesOfOldConnection(tx, actor, before);
          await clearIntegrationKeys(tx, actor.mspId, deps.now());
          await resetWizardProgress(tx, actor.mspId); // disconnecting resets the setup wizard to step 1.
          await recordAudit(tx, actor, 'integrations.disconnect', 'success', {});
        });
        clients.invalidate(actor.mspId);
        return { ...(await this.getSummary(actor.mspId)), boardCount: null };
      }
      const row = await findIntegration(db, actor.mspId);
      if (!row || !isIntegrationConfigured(row)) throw psaNotConfigured();
      let boardCount: number;
      try {
        boardCount = (await withPsaErrors(() => clients.fromIntegration(row).listBoards())).length;
      } catch (error) {
        await recordAudit(db, actor, 'integrations.integrator.enable', 'failure', { psaType: row.psaType });
        throw error;
      }
      // The PSA was called above, outside any transaction; only the flag and its audit event commit together.
      await db.transaction(async (tx) => {
        await setConnectWiseManageIntegrator(tx, actor.mspId, true, deps.now());
        await recordAudit(tx, actor, 'integrations.integrator.enable', 'success', { psaType: row.psaType, boardCount });
      });
      clients.invalidate(actor.mspId);
      await psaEvents.subscribe(actor.mspId).catch(logEventsProblem('registering the ticket webhook'));
      return { ...(await this.getSummary(actor.mspId)), boardCount };
    },
  };
}
