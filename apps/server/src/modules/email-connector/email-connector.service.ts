import { EMAIL_CONNECTOR_MESSAGES, IMAPS_PORT, defaultImapServerOf, type TEmailConnectorSettings, type TSaveEmailConnectorBody } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, validation } from '../../lib/app-error';
import { userAuditFields } from '../../lib/audit';
import { decryptSecret, encryptSecret, secretHintOf } from '../../lib/crypto';
import type { TActor } from '../../plugins/access';
import { verifyMailboxAndStart, type TReadingStart } from './reading-start';
import { presentEmailConnector } from './email-connector.presenter';
import { countEmailTickets, deleteEmailConnector, findEmailConnector, saveEmailConnector } from './email-connector.repository';
import { EMAIL_CONNECTOR_QUEUE } from './email-tickets.service';

const notConfigured = () => new AppError('conflict', EMAIL_CONNECTOR_MESSAGES.notConfigured);

/** The email connector's settings (R-195, R-199, decision 036): read, save after a real sign-in, remove. */
export function createEmailConnectorService(deps: Pick<TAppDeps, 'config' | 'database' | 'audit' | 'now' | 'jobQueue'>) {
  const db = deps.database.db;

  function recordAudit(handle: TDatabase, actor: TActor, action: string, outcome: 'success' | 'failure', details: Record<string, unknown>) {
    return deps.audit.record(handle, { ...userAuditFields(actor), action, target: 'email-connector', outcome, details });
  }

  async function present(mspId: string) {
    return presentEmailConnector(await findEmailConnector(db, mspId), await countEmailTickets(db, mspId));
  }

  return {
    /** What the integrations screen shows; never the password. */
    get: present,

    /**
     * Saves the mailbox once it has accepted the sign-in: the IMAP server defaults for the big providers, the
     * host passes the SSRF guard, and the password is encrypted at rest. Leaving the password out keeps the
     * stored one while the address and the IMAP server and port stay the same (the screen never holds it). A new
     * mailbox (or server) is read from now on: the mail it already holds is left alone (review s29).
     */
    async save(actor: TActor, body: TSaveEmailConnectorBody): Promise<TEmailConnectorSettings> {
      const existing = await findEmailConnector(db, actor.mspId);
      const address = body.address;
      const typedHost = body.imapHost ? body.imapHost.toLowerCase() : null;
      const known = defaultImapServerOf(address);
      const host = typedHost ?? known?.host ?? null;
      if (!host) throw validation(EMAIL_CONNECTOR_MESSAGES.hostRequired, [{ name: 'imapHost', reason: EMAIL_CONNECTOR_MESSAGES.hostRequired }]);
      const port = body.imapPort ?? (typedHost ? IMAPS_PORT : (known?.port ?? IMAPS_PORT));
      const isSameMailbox = existing !== null && existing.address.toLowerCase() === address.toLowerCase();
      // The stored password only ever goes to the server it was saved for (security review: a new host or port kept it).
      const isSameServer = existing !== null && existing.imapHost.toLowerCase() === host.toLowerCase() && existing.imapPort === port;
      let password = body.appPassword;
      if (password === undefined && isSameMailbox && isSameServer) {
        try {
          password = decryptSecret(deps.config.encryptionKey, existing.secretCiphertext);
        } catch {
          // Sealed with a previous ENCRYPTION_KEY: the admin types it again.
        }
      }
      if (password === undefined) {
        const reason = isSameMailbox && !isSameServer ? EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer : EMAIL_CONNECTOR_MESSAGES.passwordRequired;
        throw validation(reason, [{ name: 'appPassword', reason }]);
      }

      // The real sign-in, outside any transaction (no network inside one); only a mailbox that accepted it is saved.
      let start: TReadingStart;
      try {
        start = await verifyMailboxAndStart({ address, password, host, port }, deps.config.outboundAllowList, deps.now());
      } catch (error) {
        const reason = error instanceof AppError ? error.detail : 'unknown';
        await recordAudit(db, actor, 'email_connector.verify', 'failure', { address, imapHost: host, imapPort: port, reason });
        throw error;
      }
      const sealed = body.appPassword !== undefined ? { secretCiphertext: encryptSecret(deps.config.encryptionKey, password), passwordHint: secretHintOf(password) } : null;
      await db.transaction(async (tx) => {
        await saveEmailConnector(
          tx,
          actor.mspId,
          { address, imapHost: host, imapPort: port, secretCiphertext: sealed?.secretCiphertext ?? existing?.secretCiphertext ?? '', passwordHint: sealed?.passwordHint ?? existing?.passwordHint ?? '' },
          // The same mailbox keeps its start: its unread mail since then (a stranger's, waiting for a contact) is still read.
          isSameMailbox && isSameServer ? null : start,
          deps.now(),
        );
        await recordAudit(tx, actor, existing ? 'email_connector.update' : 'email_connector.create', 'success', { address, imapHost: host, imapPort: port, passwordChanged: sealed !== null });
      });
      // After the commit, the interval's reading brought forward, so the admin sees its outcome at once. With the interval
      // off (EMAIL_CONNECTOR_INTERVAL_MS=0) nothing reads the mailbox by itself, so neither does this. Should the queue
      // refuse, the interval's next reading does it.
      if (deps.config.emailConnectorIntervalMs > 0) await deps.jobQueue.send(EMAIL_CONNECTOR_QUEUE, { mspId: actor.mspId }, { singletonKey: actor.mspId }).catch(() => null);
      return present(actor.mspId);
    },

    /** Removes the connector and its password: mail is no longer read (the PSA integration is not touched). */
    async remove(actor: TActor): Promise<TEmailConnectorSettings> {
      const existing = await findEmailConnector(db, actor.mspId);
      if (!existing) throw notConfigured();
      await db.transaction(async (tx) => {
        await deleteEmailConnector(tx, actor.mspId);
        await recordAudit(tx, actor, 'email_connector.delete', 'success', { address: existing.address });
      });
      return present(actor.mspId);
    },
  };
}
