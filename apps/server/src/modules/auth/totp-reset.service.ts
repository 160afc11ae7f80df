import { MESSAGES, type TRemoveAuthenticatorAppResponse } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { userAuditFields } from '../../lib/audit';
import type { TActor } from '../../plugins/access';
import { assertMayActOnHolderOf } from '../roles/roles.policy';
import { findUserById, findUserWithTenant, type TMspRow, type TMspUserKind, type TUserRow } from './auth.repository';
import { clearEnrolledTotp } from './totp-reset.repository';
import { enrolledSecretOf } from './two-factor.service';

type TTotpResetDeps = Pick<TAppDeps, 'database' | 'audit' | 'mailer' | 'now'>;

function removalMailText(person: Pick<TUserRow, 'firstName'>, actor: Pick<TUserRow, 'firstName' | 'lastName' | 'email'>, msp: Pick<TMspRow, 'name'>): string {
  const actorName = `${actor.firstName} ${actor.lastName}`.trim();
  return [
    `Hello ${person.firstName},`,
    '',
    `Your authenticator app was removed by ${actorName} (${actor.email}) of ${msp.name}, so its codes no longer sign you in to Switchboard.`,
    'When you sign in, enter the code that arrives by mail. To use an authenticator app again, set up a new one in your profile.',
    '',
    `If you did not ask for this, contact ${actorName} at ${actor.email} or another administrator of ${msp.name} straight away.`,
  ].join('\n');
}

/** A people manager removes someone's lost authenticator app (decision 047); one's own changes only with a code from it (decision 046). */
export function createTotpResetService(deps: TTotpResetDeps) {
  const db = deps.database.db;

  /**
   * Removes the person's enrolled app and any pending setup, records it, then mails them after the commit. The route
   * admitted the actor with the management permission of the person's kind; a staff colleague whose role holds a
   * permission the actor lacks is refused (decision 044), a client user is governed by that permission alone.
   */
  async function removeAuthenticatorApp(actor: TActor, kind: TMspUserKind, userId: string, onMailError: (error: unknown) => void): Promise<TRemoveAuthenticatorAppResponse> {
    if (userId === actor.userId) throw new AppError('forbidden', MESSAGES.authenticatorAppRemoval.notForSelf);
    const found = await findUserWithTenant(db, actor.mspId, userId);
    if (!found || found.user.kind !== kind) throw notFound();
    if (kind === 'technician') {
      if (!found.role) throw notFound();
      assertMayActOnHolderOf(actor.permissions, found.role);
    }
    const enrolled = enrolledSecretOf(found.user);
    if (enrolled === null) throw conflict(MESSAGES.authenticatorAppRemoval.noneEnrolled);
    const actorRow = await findUserById(db, actor.mspId, actor.userId);
    if (!actorRow) throw notFound();
    await db.transaction(async (tx) => {
      if (!(await clearEnrolledTotp(tx, actor.mspId, userId, enrolled, deps.now()))) throw conflict(MESSAGES.authenticatorAppRemoval.changedMeanwhile);
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'auth.totp.remove', target: userId, outcome: 'success', details: { kind, email: found.user.email } });
    });
    // The app is gone whatever the mail server says; the answer tells the actor whether the person was told.
    let isPersonNotified = true;
    try {
      await deps.mailer.send({ mspId: actor.mspId, to: found.user.email, subject: MESSAGES.authenticatorAppRemoval.mailSubject, text: removalMailText(found.user, actorRow, found.msp) });
    } catch (error) {
      onMailError(error);
      isPersonNotified = false;
    }
    return { id: userId, hasAuthenticatorApp: false, isPersonNotified };
  }

  return { removeAuthenticatorApp };
}
