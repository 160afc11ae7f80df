import { isValidEmail, MESSAGES, mspUserHome, maskEmail, type TPasswordSignInResponse, type TSessionMspUser } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound, validation } from '../../lib/app-error';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { assertNotThrottled, recordFailure, recordSuccess, releaseAttempt, reserveAttempt, spendAttempt, throttleKey } from '../sessions/throttle.service';
import { createSession } from '../sessions/session.service';
import {
  findMspsOfEmail,
  findUserById,
  findUserByEmail,
  findUserWithTenant,
  findVerificationCode,
  type TMspRow,
  type TMspUserKind,
  type TUserRow,
} from './auth.repository';
import { awaitingInvitationError, isAwaitingInvitation } from './auth.policy';
import { presentMspDomainChoice, presentSessionMspUser } from './session-user.presenter';
import { consumeCodeOnce, enrolledSecretOf, hasEnrolledTotp, isCodeRight, mailCode, renewCode, storeCode, takeCodeTry, verifyTotp } from './two-factor.service';
import type { TRequestMeta } from '../../plugins/access';

type TSignInDeps = Pick<TAppDeps, 'database' | 'mailer' | 'audit' | 'now' | 'config'>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Compared against when the email is unknown, so a miss costs as long as a wrong password. */
let timingDummyHash: Promise<string> | undefined;
const dummyHash = (): Promise<string> => (timingDummyHash ??= hashPassword('timing-equaliser-Not-A-Password!'));

/** Whether the password is the user's; an unknown or inactive user still costs one argon2 verify. */
async function checkPassword(user: TUserRow | undefined, password: string): Promise<boolean> {
  if (user && user.isActive && user.passwordHash !== null) return verifyPassword(user.passwordHash, password);
  await verifyPassword(await dummyHash(), password);
  return false;
}

const invalidCodeError = () => new AppError('invalid_code', MESSAGES.invalidVerificationCode, { flags: { login2FA: true } });

function assertValidEmail(email: string): void {
  if (!isValidEmail(email)) throw validation(MESSAGES.validEmailRequired, [{ name: 'emailId', reason: MESSAGES.validEmailRequired }], { validEmail: false });
}

/** The open sign-in challenge and its user, or the invalid-code error (wrong MSP or user kind included). */
async function loadChallenge(deps: TSignInDeps, msp: TMspRow, kind: TMspUserKind, challengeId: string) {
  if (!UUID_PATTERN.test(challengeId)) throw invalidCodeError();
  const db = deps.database.db;
  const row = await findVerificationCode(db, msp.id, 'sign_in', challengeId);
  const user = row ? await findUserById(db, msp.id, row.userId) : undefined;
  if (!row || !user || user.kind !== kind || !user.isActive) throw invalidCodeError();
  return { row, user };
}

/** Sign-in by e-mail and password, then the e-mailed or app code (A-003, A-004, A-014…A-016). */
export function createSignInService(deps: TSignInDeps) {
  /** the MSPs where this email has a user of this kind. */
  async function findSignInDomains(kind: TMspUserKind, email: string) {
    assertValidEmail(email);
    const msps = await findMspsOfEmail(deps.database.db, email, kind);
    if (msps.length === 0) throw new AppError('account_not_found', MESSAGES.accountDoesNotExist, { flags: { emailCheck: true } });
    return { mspDomains: msps.map(presentMspDomainChoice) };
  }

  /** checks the password in one MSP and mails a 2FA code. */
  async function signInWithPassword(msp: TMspRow,
    kind: TMspUserKind,
    input: { emailId: string; password: string },
    meta: TRequestMeta,
  ): Promise<TPasswordSignInResponse> {
    assertValidEmail(input.emailId);
    if (input.password === '') throw validation(MESSAGES.passwordRequired, [{ name: 'password', reason: MESSAGES.passwordRequired }]);
    const db = deps.database.db;
    const key = throttleKey('sign_in', msp.id, kind, input.emailId.trim());
    // Counted as a failure before the password is checked, so a burst of guesses cannot outrun the lock.
    const reserved = await reserveAttempt(db, key, deps.now(), { spendsBudget: true });
    const user = await findUserByEmail(db, msp.id, kind, input.emailId);
    if (isAwaitingInvitation(user)) {
      await releaseAttempt(db, reserved);
      throw awaitingInvitationError({ emailCheck: true });
    }
    const isPasswordRight = await checkPassword(user, input.password);
    const target = input.emailId.trim().toLowerCase();
    if (!user || !isPasswordRight) {
      await db.transaction(async (tx) => {
        const isNowLocked = await recordFailure(tx, reserved, deps.now());
        await deps.audit.record(tx, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.sign_in', target, outcome: 'failure', ...meta, details: { kind, reason: 'invalid_credentials' } });
        if (isNowLocked) {
          await deps.audit.record(tx, { mspId: msp.id, actorKind: 'system', action: 'auth.lockout', target, outcome: 'success', ...meta, details: { kind, minutes: 15 } });
        }
      });
      throw new AppError('invalid_credentials', MESSAGES.invalidCredentials, { flags: { emailCheck: true } });
    }
    const issued = await db.transaction(async (tx) => {
      await recordSuccess(tx, key);
      const stored = await storeCode(tx, 'sign_in', user, deps.now());
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.sign_in.password', target: user.id, outcome: 'success', ...meta, details: { kind } });
      return stored;
    });
    await mailCode(deps, 'sign_in', user, issued.code);
    return { twoFactorRequired: true, challengeId: issued.id, sentTo: maskEmail(user.email), methods: hasEnrolledTotp(user) ? ['email', 'totp'] : ['email'] };
  }

  /** Verifies the 2FA code (mailed, or the authenticator app's) and opens a 7-day session. */
  async function verifySignInCode(msp: TMspRow,
    kind: TMspUserKind,
    input: { challengeId: string; code: string },
    meta: TRequestMeta,
  ): Promise<{ user: TSessionMspUser; redirectTo: string; session: { token: string; expiresAt: Date } }> {
    if (input.challengeId === '' || input.code === '') {
      throw validation(MESSAGES.verificationCodeRequired, [{ name: 'code', reason: MESSAGES.verificationCodeRequired }]);
    }
    const db = deps.database.db;
    const { row, user } = await loadChallenge(deps, msp, kind, input.challengeId);
    const key = throttleKey('two_factor', msp.id, user.id);
    // The failure and the code's try are both counted before the code is compared (a burst cannot outrun either limit).
    const reserved = await reserveAttempt(db, key, deps.now(), { spendsBudget: true });
    /** Settles the counted failure (the lock on the tenth) and records it, in one transaction. */
    const failed = async (reason: 'code_closed' | 'wrong_code' | 'code_used') => {
      await db.transaction(async (tx) => {
        const isNowLocked = await recordFailure(tx, reserved, deps.now());
        await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.two_factor', target: user.id, outcome: 'failure', ...meta, details: { reason } });
        if (isNowLocked) await deps.audit.record(tx, { mspId: msp.id, actorKind: 'system', action: 'auth.lockout', target: user.id, outcome: 'success', ...meta, details: { scope: 'two_factor', minutes: 15 } });
      });
      return invalidCodeError();
    };
    if (!(await takeCodeTry(db, row, deps.now()))) throw await failed('code_closed');
    const isEmailCode = isCodeRight(row, input.code);
    const enrolledSecret = enrolledSecretOf(user);
    const isTotpCode = !isEmailCode && enrolledSecret !== null && (await verifyTotp(deps, user, enrolledSecret, input.code));
    if (!isEmailCode && !isTotpCode) throw await failed('wrong_code');
    const session = await db.transaction(async (tx) => {
      if (!(await consumeCodeOnce(tx, row, deps.now()))) return null;
      await recordSuccess(tx, key);
      const created = await createSession(tx, { principalKind: 'user', mspId: msp.id, userId: user.id }, deps.now());
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.sign_in', target: user.id, outcome: 'success', ...meta, details: { kind, method: isTotpCode ? 'totp' : 'email' } });
      return created;
    });
    if (!session) throw await failed('code_used');
    const withTenant = await findUserWithTenant(db, msp.id, user.id);
    if (!withTenant) throw notFound();
    return { user: presentSessionMspUser(withTenant), redirectTo: mspUserHome(msp.customDomain, user.id), session };
  }

  /** Mails a new code for an open challenge; the previous code stops working. */
  async function resendSignInCode(msp: TMspRow, kind: TMspUserKind, challengeId: string, meta: TRequestMeta): Promise<void> {
    if (challengeId === '') throw validation(MESSAGES.verificationCodeRequired, [{ name: 'challengeId', reason: MESSAGES.verificationCodeRequired }]);
    const { row, user } = await loadChallenge(deps, msp, kind, challengeId);
    const key = throttleKey('two_factor', msp.id, user.id);
    await assertNotThrottled(deps.database.db, key, deps.now());
    await spendAttempt(deps.database.db, key, deps.now());
    if (row.consumedAt !== null) throw invalidCodeError();
    const code = await deps.database.db.transaction(async (tx) => {
      const renewed = await renewCode(tx, row, deps.now());
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.two_factor.resend', target: user.id, outcome: 'success', ...meta });
      return renewed;
    });
    await mailCode(deps, 'sign_in', user, code);
  }

  return { findSignInDomains, signInWithPassword, verifySignInCode, resendSignInCode };
}
