import { isValidEmail, MESSAGES, passwordProblems } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { AppError, validation } from '../../lib/app-error';
import { hashPassword } from '../../lib/crypto';
import { assertNotThrottled, recordFailure, recordSuccess, releaseAttempt, reserveAttempt, spendAttempt, throttleKey } from '../sessions/throttle.service';
import { revokeUserSessions } from '../sessions/session.service';
import { findLatestOpenCode, findUserByEmail, updateUser, type TMspRow, type TMspUserKind, type TUserRow, type TVerificationCodeRow } from './auth.repository';
import { isAwaitingInvitation } from './auth.policy';
import { consumeCodeOnce, isCodeRight, mailCode, returnCodeTry, storeCode, takeCodeTry } from './two-factor.service';
import type { TRequestMeta } from '../../plugins/access';

type TResetDeps = Pick<TAppDeps, 'database' | 'mailer' | 'audit' | 'now' | 'caches'>;

const invalidResetCode = () => new AppError('invalid_code', MESSAGES.resetTokenInvalid);

/**
 * The reset throttle is keyed by the address asked about, not by the user it names, so an address
 * with no account is counted and locked exactly like one with an account: the answers (400, then 429
 * or 423) never tell the two apart (issue #6 §2b).
 */
function resetThrottleKey(msp: TMspRow, kind: TMspUserKind, email: string): string {
  return throttleKey('reset', msp.id, kind, email.trim());
}

function assertValidEmail(email: string, field: string): void {
  if (!isValidEmail(email)) throw validation(MESSAGES.validEmailRequired, [{ name: field, reason: MESSAGES.validEmailRequired }], { validEmail: false });
}

function noPasswordYetMailText(msp: TMspRow): string {
  return [
    `Someone asked to reset the Switchboard password of this address at ${msp.name}, but you have not set a password yet.`,
    '',
    MESSAGES.auth.askForInvitation,
    '',
    'If this was not you, ignore this mail.',
  ].join('\n');
}

/** The user and its open reset code when `token` is that code; counts wrong tries, for unknown addresses too. */
async function checkResetCode(deps: TResetDeps, msp: TMspRow, kind: TMspUserKind, email: string, token: string, meta: TRequestMeta): Promise<{ user: TUserRow; row: TVerificationCodeRow }> {
  const db = deps.database.db;
  const key = resetThrottleKey(msp, kind, email);
  // The failure and the code's try are both counted before the code is compared (a burst cannot outrun either limit).
  const reserved = await reserveAttempt(db, key, deps.now(), { spendsBudget: true });
  const found = await findUserByEmail(db, msp.id, kind, email);
  const user = found?.isActive ? found : undefined;
  const row = user ? await findLatestOpenCode(db, msp.id, user.id, 'password_reset') : undefined;
  const isTried = row !== undefined && (await takeCodeTry(db, row, deps.now()));
  if (!user || !row || !isTried || !isCodeRight(row, token)) {
    const target = user?.id ?? email.trim().toLowerCase();
    await db.transaction(async (tx) => {
      const isNowLocked = await recordFailure(tx, reserved, deps.now());
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.password_reset.code', target, outcome: 'failure', ...meta, details: { kind } });
      if (isNowLocked) await deps.audit.record(tx, { mspId: msp.id, actorKind: 'system', action: 'auth.lockout', target, outcome: 'success', ...meta, details: { scope: 'reset', minutes: 15 } });
    });
    throw invalidResetCode();
  }
  // The right code is not a failure and costs no try: it is validated, then used.
  await releaseAttempt(db, reserved);
  await returnCodeTry(db, row);
  return { user, row };
}

/** Password reset by e-mailed code (A-011…A-013). */
export function createPasswordResetService(deps: TResetDeps) {
  /** mails a reset code when the email has a password account; answers the same either way. */
  async function requestPasswordReset(msp: TMspRow, kind: TMspUserKind, email: string, meta: TRequestMeta): Promise<void> {
    assertValidEmail(email, 'email');
    const user = await findUserByEmail(deps.database.db, msp.id, kind, email);
    const target = user?.id ?? email.trim().toLowerCase();
    const key = resetThrottleKey(msp, kind, email);
    try {
      await assertNotThrottled(deps.database.db, key, deps.now());
      await spendAttempt(deps.database.db, key, deps.now());
    } catch (error) {
      // Throttled: mail nothing but answer as usual, so the answer never tells whether the account exists.
      if (!(error instanceof AppError)) throw error;
      await deps.audit.record(deps.database.db, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.password_reset.request', target, outcome: 'failure', ...meta, details: { kind, reason: error.code } });
      return;
    }
    // Someone imported and not yet invited has no password to reset, and a reset must not give them one (review s27 #1):
    // the answer stays the one every address gets, and the mail to their own inbox says what to do.
    if (user && isAwaitingInvitation(user)) {
      await deps.audit.record(deps.database.db, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.password_reset.request', target, outcome: 'failure', ...meta, details: { kind, reason: 'awaiting_invitation' } });
      await deps.mailer.send({ mspId: msp.id, to: user.email, subject: MESSAGES.invitations.noPasswordYetMailSubject, text: noPasswordYetMailText(msp) });
      return;
    }
    if (!user || !user.isActive || user.passwordHash === null) {
      await deps.audit.record(deps.database.db, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.password_reset.request', target, outcome: 'failure', ...meta, details: { kind, reason: 'no_account' } });
      return;
    }
    const issued = await deps.database.db.transaction(async (tx) => {
      const stored = await storeCode(tx, 'password_reset', user, deps.now());
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.password_reset.request', target: user.id, outcome: 'success', ...meta, details: { kind } });
      return stored;
    });
    await mailCode(deps, 'password_reset', user, issued.code);
  }

  /** whether the code is the open reset code of this email (does not use it up). */
  async function validateResetCode(msp: TMspRow, kind: TMspUserKind, email: string, token: string, meta: TRequestMeta): Promise<void> {
    assertValidEmail(email, 'email');
    if (token === '') throw validation(MESSAGES.verificationCodeRequired, [{ name: 'token', reason: MESSAGES.verificationCodeRequired }]);
    await checkResetCode(deps, msp, kind, email, token, meta);
  }

  /** sets a new password with a valid reset code, then signs the user out everywhere. */
  async function changePasswordWithCode(msp: TMspRow,
    kind: TMspUserKind,
    input: { emailId: string; password: string; token: string },
    meta: TRequestMeta,
  ): Promise<void> {
    assertValidEmail(input.emailId, 'emailId');
    if (input.token === '') throw validation(MESSAGES.verificationCodeRequired, [{ name: 'token', reason: MESSAGES.verificationCodeRequired }]);
    const problems = passwordProblems(input.password);
    const firstProblem = problems[0];
    if (firstProblem !== undefined) throw validation(firstProblem, problems.map((reason) => ({ name: 'password', reason })), { validPassword: problems });
    const { user, row } = await checkResetCode(deps, msp, kind, input.emailId, input.token, meta);
    const passwordHash = await hashPassword(input.password);
    const isChanged = await deps.database.db.transaction(async (tx) => {
      if (!(await consumeCodeOnce(tx, row, deps.now()))) return false;
      await updateUser(tx, msp.id, user.id, { passwordHash, updatedAt: deps.now() });
      await revokeUserSessions(tx, msp.id, user.id, deps.now());
      await recordSuccess(tx, resetThrottleKey(msp, kind, input.emailId));
      // A new password also lifts a sign-in lock earned with the old one.
      await recordSuccess(tx, throttleKey('sign_in', msp.id, kind, user.email));
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.password_change', target: user.id, outcome: 'success', ...meta, details: { kind, via: 'reset_code' } });
      return true;
    });
    if (!isChanged) throw invalidResetCode();
    forgetCachedSessions.ofUser(deps.caches.sessions, msp.id, user.id);
  }

  return { requestPasswordReset, validateResetCode, changePasswordWithCode };
}
