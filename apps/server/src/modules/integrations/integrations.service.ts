import { MESSAGES, psaConnectionKeyOf, type TIntegrationSummary, type TIntegratorResult } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import { isPsaError, runWithPsaDeadline } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, validation } from '../../lib/app-error';
import { encryptSecret, secretHintOf } from '../../lib/crypto';
import { assertOutboundUrlAllowed } from '../../lib/ssrf-guard';
import { isIntegrationConfigured, presentIntegration } from './integrations.presenter';
import { clearIntegrationKeys, findIntegration, findIntegrationForUpdate, saveIntegrationKeys, setConnectWiseManageIntegrator, type TIntegrationRow, type TSaveIntegration } from './integrations.repository';
import type { TIntegrationSecrets, TUpdateIntegrationsBody } from './integrations.schemas';
import { appErrorFromPsaError, psaNotConfigured } from './psa-errors';
import type { TPsaKeys } from './psa-client-for-msp';
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

/**
 * How long an admin waits for the PSA to check keys (review s29): the client's own retries (4 × 20 s, Retry-After up
 * to 60 s) are for background work; someone watching a spinner gets one retry and an answer within this bound.
 */
export const PSA_KEY_CHECK_MS = 20_000;
const KEY_CHECK_RETRY = { maxAttempts: 2 } as const;

/** A typed address without a scheme gets https:// (the only scheme a PSA is called with outside the allow-list). */
const withScheme = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);

/** The keys the check proved are still the saved ones: any save encrypts anew, so another save changes the ciphertext. */
function hasSameKeys(current: TIntegrationRow, checked: TIntegrationRow): boolean {
  return current.psaType === checked.psaType && current.secretCiphertext === checked.secretCiphertext && JSON.stringify(current.settings) === JSON.stringify(checked.settings);
}

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

  /** Lists the boards with `keys`, within the key check's bound and with one retry (review s29); PSA errors as thrown. */
  const listBoardsWithKeys = (keys: TPsaKeys) => runWithPsaDeadline(deps.psaKeyCheckMs ?? PSA_KEY_CHECK_MS, () => clients.fromIntegration(keys, { retry: KEY_CHECK_RETRY }).listBoards());

  /** Proves the saved keys; a PSA that gives no usable answer in time is `psa_unavailable` in plain words. */
  async function countBoardsWithKeys(keys: TPsaKeys): Promise<number> {
    try {
      return (await listBoardsWithKeys(keys)).length;
    } catch (error) {
      if (!isPsaError(error)) throw error;
      if (error.kind === 'unavailable') throw new AppError('psa_unavailable', MESSAGES.psa.keyCheckUnavailable);
      throw appErrorFromPsaError(error);
    }
  }

  /**
   * Decision 042: keys that would start the MSP's data over are checked before anything is saved, so a typo removes
   * nothing. A refusal says the keys were not saved and nothing was removed, with what the PSA said.
   */
  async function assertTypedKeysWork(keys: TPsaKeys): Promise<void> {
    try {
      await listBoardsWithKeys(keys);
    } catch (error) {
      if (!isPsaError(error)) throw error;
      if (error.kind === 'unavailable') throw new AppError('psa_unavailable', MESSAGES.psa.otherPsaUnanswered);
      if (error.kind === 'rate_limited') throw appErrorFromPsaError(error);
      throw validation(`${MESSAGES.psa.otherPsaKeysRefused} (${error.message})`);
    }
  }

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
        const psaUrl = withScheme(input.psaUrl);
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
        // As the ConnectWise site: a typed address without a scheme gets https://, and a refusal names this field.
        const zoneDiscoveryUrl = input.zoneDiscoveryUrl ? withScheme(input.zoneDiscoveryUrl) : undefined;
        if (zoneDiscoveryUrl) await assertOutboundUrlAllowed(zoneDiscoveryUrl, { allowList: deps.config.outboundAllowList, field: { name: 'autotaskIntegration.zoneDiscoveryUrl', label: 'zone discovery URL' } });
        secrets = { psaType: 'AUTOTASK', secret: input.secret, integrationCode: input.integrationCode };
        values = {
          psaType: 'AUTOTASK',
          settings: { username: input.username, ...(zoneDiscoveryUrl ? { zoneDiscoveryUrl } : {}) },
          secretCiphertext: '',
          keyHint: secretHintOf(input.secret),
          dataPsaConnection: psaConnectionKeyOf({ psaType: 'AUTOTASK', username: input.username, zoneDiscoveryUrl }),
        };
      } else {
        throw validation('Send exactly one of connectWiseManageIntegration or autotaskIntegration.');
      }
      values.secretCiphertext = encryptSecret(deps.config.encryptionKey, JSON.stringify(secrets));
      // Decision 042: data of another PSA never mixes with the new one's (the ids collide and cannot be told apart).
      // The same PSA (the same keys, a rotated key, a reconnect after a disconnect) keeps everything.
      const startsOver = (dataPsa: TPsaIdentity | null): dataPsa is TPsaIdentity => dataPsa !== null && dataPsa.key !== values.dataPsaConnection;
      // Keys that would start over are proven first, outside any transaction, so a typo removes nothing (review s29).
      const isChecked = startsOver(dataPsaOf(existing));
      if (isChecked) {
        try {
          await assertTypedKeysWork({ mspId: actor.mspId, psaType: values.psaType, settings: values.settings, secretCiphertext: values.secretCiphertext });
        } catch (error) {
          await recordAudit(db, actor, 'integrations.keys.save', 'failure', { psaType: values.psaType, settings: values.settings, reason: 'keys for another PSA refused' });
          throw error;
        }
      }
      const { row, oldWebhook, hasStartedOver } = await db.transaction(async (tx) => {
        const beforeRow = await findIntegrationForUpdate(tx, actor.mspId);
        const before = psaIdentityOf(beforeRow);
        const dataPsa = dataPsaOf(beforeRow);
        const hasStartedOver = startsOver(dataPsa);
        // Another admin's save during the check made this one a start-over that nobody checked.
        if (hasStartedOver && !isChecked) throw conflict(MESSAGES.psa.otherPsaSavedMeanwhile);
        const saved = await saveIntegrationKeys(tx, actor.mspId, values, deps.now());
        await recordAudit(tx, actor, 'integrations.keys.save', 'success', { psaType: values.psaType, settings: values.settings });
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
        boardCount = await countBoardsWithKeys(row);
      } catch (error) {
        await recordAudit(db, actor, 'integrations.integrator.enable', 'failure', { psaType: row.psaType });
        throw error;
      }
      // The PSA was called above, outside any transaction; only the flag and its audit event commit together, and only
      // on the keys that were checked: another admin may have saved others meanwhile (review s29), which stay unchecked.
      const isStillChecked = await db.transaction(async (tx) => {
        const current = await findIntegrationForUpdate(tx, actor.mspId);
        if (!current || !hasSameKeys(current, row)) return false;
        await setConnectWiseManageIntegrator(tx, actor.mspId, true, deps.now());
        await recordAudit(tx, actor, 'integrations.integrator.enable', 'success', { psaType: row.psaType, boardCount });
        return true;
      });
      if (!isStillChecked) {
        await recordAudit(db, actor, 'integrations.integrator.enable', 'failure', { psaType: row.psaType, reason: 'keys changed during the check' });
        throw conflict(MESSAGES.psa.keysChangedDuringCheck);
      }
      clients.invalidate(actor.mspId);
      await psaEvents.subscribe(actor.mspId).catch(logEventsProblem('registering the ticket webhook'));
      return { ...(await this.getSummary(actor.mspId)), boardCount };
    },
  };
}
