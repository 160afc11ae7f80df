import { randomUUID } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { decryptSecret, safeEqualHex, sha256, sixDigitCode } from '../../lib/crypto';
import { findMspById } from '../msp/msp.repository';
import {
  consumeCode,
  consumeOpenCodes,
  insertVerificationCode,
  replaceCode,
  returnCodeAttempt,
  spendTotpStep,
  takeCodeAttempt,
  type TCodePurpose,
  type TUserRow,
  type TVerificationCodeRow,
} from './auth.repository';

/** DESIGN §4: codes live 10 minutes and allow 5 tries. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

const MAIL_SUBJECTS: Record<TCodePurpose, string> = {
  sign_in: 'Your Switchboard verification code',
  password_reset: 'Your Switchboard password reset code',
  invitation: 'You are invited to Switchboard',
};

/** The row id salts the hash, so one table of 10^6 precomputed hashes does not open every row. */
const hashCode = (codeId: string, code: string): string => sha256(`${codeId}:${code}`);

/**
 * The first line names the MSP: one address can have accounts at several MSPs, and the code is for one of them.
 * No requirement fixes these texts.
 */
function mailText(purpose: TCodePurpose, code: string, mspName: string | undefined): string {
  const at = mspName ? ` at ${mspName}` : '';
  const reason = purpose === 'sign_in' ? `to sign in to Switchboard${at}` : `to reset your Switchboard password${at}`;
  return [`Use this code ${reason}:`, '', code, '', 'It expires in 10 minutes and works once. If this was not you, ignore this mail.'].join('\n');
}

/** Mails a code to its user, naming their MSP; called after the transaction that stored the code has committed. */
export async function mailCode(deps: Pick<TAppDeps, 'mailer' | 'database'>, purpose: TCodePurpose, user: TUserRow, code: string): Promise<void> {
  const msp = await findMspById(deps.database.db, user.mspId);
  await deps.mailer.send({ mspId: user.mspId, to: user.email, subject: MAIL_SUBJECTS[purpose], text: mailText(purpose, code, msp?.name) });
}

/** A stored code and the digits to mail (only its salted hash is kept). */
export interface TIssuedCode {
  id: string;
  code: string;
}

/** Stores a fresh code (older open codes of the same purpose stop working); the caller mails it after commit. */
export async function storeCode(db: TDatabase, purpose: TCodePurpose, user: TUserRow, now: Date): Promise<TIssuedCode> {
  const id = randomUUID();
  const code = sixDigitCode();
  await consumeOpenCodes(db, user.mspId, user.id, purpose, now);
  await insertVerificationCode(db, {
    id,
    purpose,
    mspId: user.mspId,
    userId: user.id,
    codeHash: hashCode(id, code),
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
  });
  return { id, code };
}

/** Replaces the code behind an open challenge with a new one (the old code stops working); the caller mails it after commit. */
export async function renewCode(db: TDatabase, row: TVerificationCodeRow, now: Date): Promise<string> {
  const code = sixDigitCode();
  await replaceCode(db, row, hashCode(row.id, code), new Date(now.getTime() + CODE_TTL_MS));
  return code;
}

/**
 * Takes one of a code's 5 tries before the code is compared; false when it is used, expired or out of tries.
 * One conditional update, so tries sent together cannot all pass a count read before any was added (security review).
 */
export async function takeCodeTry(db: TDatabase, row: TVerificationCodeRow, now: Date): Promise<boolean> {
  return takeCodeAttempt(db, row, now, CODE_MAX_ATTEMPTS);
}

/** Gives back the try a right code took when the code stays open (a reset code is validated, then used). */
export async function returnCodeTry(db: TDatabase, row: TVerificationCodeRow): Promise<void> {
  await returnCodeAttempt(db, row);
}

/** Compares a submitted code in constant time, after `takeCodeTry` has counted the try. */
export function isCodeRight(row: TVerificationCodeRow, code: string): boolean {
  return /^\d{6}$/.test(code) && safeEqualHex(hashCode(row.id, code), row.codeHash);
}

/** Uses a code up; false when a concurrent request already did. */
export async function consumeCodeOnce(db: TDatabase, row: TVerificationCodeRow, now: Date): Promise<boolean> {
  return consumeCode(db, row, now);
}

/**
 * How the release before review s27 kept an unconfirmed setup in `totp_secret`; migration 0031 moves those to
 * `totp_pending_secret`, and one a server of that release writes during a rolling upgrade is still never an enrolled app.
 */
const LEGACY_PENDING_TOTP_PREFIX = 'pending:';

/** The sealed secret of the user's confirmed authenticator app, or null. */
export function enrolledSecretOf(user: Pick<TUserRow, 'totpSecret'>): string | null {
  return user.totpSecret !== null && !user.totpSecret.startsWith(LEGACY_PENDING_TOTP_PREFIX) ? user.totpSecret : null;
}

export function hasEnrolledTotp(user: Pick<TUserRow, 'totpSecret'>): boolean {
  return enrolledSecretOf(user) !== null;
}

/** The start (epoch seconds) of the 30-second step a code of the sealed secret is for, at the app's clock (±1 step for drift), or null; spends nothing. */
async function matchedTotpStep(deps: Pick<TAppDeps, 'config' | 'now'>, sealedSecret: string, token: string): Promise<number | null> {
  if (!/^\d{6}$/.test(token)) return null;
  try {
    const secret = decryptSecret(deps.config.encryptionKey, sealedSecret);
    const nowSeconds = Math.floor(deps.now().getTime() / 1000);
    const result = await verify({ secret, token, epoch: nowSeconds, epochTolerance: 30 });
    // delta: how many steps away from now the code matched.
    return result.valid ? (Math.floor(nowSeconds / 30) + result.delta) * 30 : null;
  } catch {
    return null;
  }
}

/**
 * Checks an authenticator-app code against a sealed secret and spends its time step for this user, so the same code
 * is never accepted twice (RFC 6238 §5.2) — the update is conditional, so two racing requests cannot both win.
 */
export async function verifyTotp(deps: Pick<TAppDeps, 'config' | 'now' | 'database'>, user: Pick<TUserRow, 'mspId' | 'id'>, sealedSecret: string, token: string): Promise<boolean> {
  const step = await matchedTotpStep(deps, sealedSecret, token);
  return step !== null && spendTotpStep(deps.database.db, user.mspId, user.id, step);
}

/** Why a replacement of the enrolled app was refused; the field named is the code to enter again. */
export type TTotpReplacementRefusal = 'currentCodeWrong' | 'newCodeWrong' | 'codesAlreadyUsed';

/**
 * Checks a current code from the enrolled app and one from the app replacing it (security review s28: a session alone
 * must not swap the second factor) and, only when both are right, spends their steps in one conditional update: the
 * two apps show codes of the same step, and neither code may have been accepted before (RFC 6238 §5.2).
 */
export async function verifyTotpReplacement(
  deps: Pick<TAppDeps, 'config' | 'now' | 'database'>,
  user: Pick<TUserRow, 'mspId' | 'id'>,
  codes: { enrolledSecret: string; currentCode: string; pendingSecret: string; code: string },
): Promise<TTotpReplacementRefusal | null> {
  const currentStep = await matchedTotpStep(deps, codes.enrolledSecret, codes.currentCode);
  const newStep = await matchedTotpStep(deps, codes.pendingSecret, codes.code);
  if (currentStep === null) return 'currentCodeWrong';
  if (newStep === null) return 'newCodeWrong';
  const isSpent = await spendTotpStep(deps.database.db, user.mspId, user.id, Math.max(currentStep, newStep), Math.min(currentStep, newStep));
  return isSpent ? null : 'codesAlreadyUsed';
}

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, email: string, mspName: string): string {
  return generateURI({ issuer: `Switchboard (${mspName})`, label: email, secret });
}
