import {
  MESSAGES,
  PUBLIC_DASHBOARD_PATH,
  accountDashboardPath,
  isValidEmail,
  passwordProblems,
  validateAccountSignup,
  type TGetUserByEmailResponse,
  type TMspSignInPage,
  type ZAccountSignInBody,
  type ZCreateAccountBody,
  type ZPublicSignupBody,
} from '@switchboard/contracts';
import type { z } from 'zod';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound, validation } from '../../lib/app-error';
import type { TAuditEvent } from '../../lib/audit';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import { createSession } from '../sessions/session.service';
import { recordFailure, recordSuccess, releaseAttempt, reserveAttempt, throttleKey } from '../sessions/throttle.service';
import { findMspsOfEmail } from '../auth/auth.repository';
import { findAccountByEmail, findAccountsByEmail, insertAccount, type TAccountRow } from './accounts.repository';
import type { TRequestMeta } from '../../plugins/access';

export type TAccountsDeps = Pick<TAppDeps, 'database' | 'audit' | 'now'>;
const PASSWORD_RULE_MESSAGES: ReadonlySet<string> = new Set(Object.values(MESSAGES.passwordRules));

/** Where an account goes after signing in: the public dashboard for public users, else its own. */
export function landingPathFor(account: TAccountRow): string {
  return account.kind === 'public' ? PUBLIC_DASHBOARD_PATH : accountDashboardPath(account.id);
}

/** Where an account goes after signing out (02 §2: public users back to /public). */
export function signedOutPathFor(accountKind: TAccountRow['kind']): string {
  return accountKind === 'public' ? '/public' : '/auth/login';
}

/** The MSP login pages where this email has an active technician or client user, by MSP name. */
async function findMspSignInPages(deps: TAccountsDeps, email: string): Promise<TMspSignInPage[]> {
  const db = deps.database.db;
  const [technicianMsps, clientMsps] = await Promise.all([findMspsOfEmail(db, email, 'technician'), findMspsOfEmail(db, email, 'client')]);
  const pages: TMspSignInPage[] = [
    ...technicianMsps.map((msp) => ({ mspCustomDomain: msp.customDomain, mspName: msp.name, userKind: 'technician' as const })),
    ...clientMsps.map((msp) => ({ mspCustomDomain: msp.customDomain, mspName: msp.name, userKind: 'client' as const })),
  ];
  return pages.sort((a, b) => a.mspName.localeCompare(b.mspName) || a.userKind.localeCompare(b.userKind));
}

function trimmedAddress(address: z.output<typeof ZCreateAccountBody>['companyAddress']) {
  return { street: address.street.trim(), city: address.city.trim(), state: address.state.trim(), zipcode: address.zipcode.trim() };
}

/**
 * Inserts the account and its audit event in one transaction, turning a taken email into 409 and
 * anything else into the spec's sign-up failure.
 */
export async function insertNewAccount(
  deps: TAccountsDeps,
  values: Parameters<typeof insertAccount>[1],
  auditEvent: (account: TAccountRow) => TAuditEvent,
  takenFlags?: Record<string, unknown>,
): Promise<TAccountRow> {
  let created: TAccountRow | undefined;
  try {
    created = await deps.database.db.transaction(async (tx) => {
      const row = await insertAccount(tx, values);
      if (row) await deps.audit.record(tx, auditEvent(row));
      return row;
    });
  } catch {
    throw new AppError('internal', MESSAGES.signupError);
  }
  if (!created) throw new AppError('account_exists', MESSAGES.accountExists, takenFlags ? { flags: takenFlags } : {});
  return created;
}

/** A 7-day session for an account, remembering how it signed in. */
export function startAccountSession(db: TDatabase, now: Date, account: TAccountRow, authMethod: 'password' | 'google' | 'microsoft' = 'password') {
  return createSession(db, { principalKind: 'account', accountId: account.id }, now, authMethod);
}

/** General accounts: look-up by e-mail, password sign-in and the two sign-up forms (01 §5). */
export function createAccountsService(deps: TAccountsDeps) {
  /**
   * whether an account exists for the email and how it signs in. An email of MSP technicians
   * or clients is not told to sign up (it has an account, just not here): the answer names the MSP
   * pages to use. The MSP sign-in lookup already tells anyone which MSPs an email
   * belongs to, so this reveals nothing new.
   */
  async function describeAccountByEmail(email: string): Promise<TGetUserByEmailResponse> {
    const [account] = await findAccountsByEmail(deps.database.db, email);
    if (account) return { exists: true, hasPassword: account.passwordHash !== null, provider: account.provider };
    const mspPages = await findMspSignInPages(deps, email);
    if (mspPages.length > 0) throw new AppError('account_not_found', MESSAGES.auth.useMspPage, { flags: { mspPages } });
    throw notFound(MESSAGES.accountDoesNotExist);
  }

  /**
   * checks the password of the general or public account with this email. Throttled per
   * account; a provider account (no password) is told to use its provider.
   */
  async function signInWithPassword(body: z.output<typeof ZAccountSignInBody>, meta: TRequestMeta): Promise<TAccountRow> {
    const db = deps.database.db;
    const email = body.emailId.trim().toLowerCase();
    if (!isValidEmail(email)) throw validation(MESSAGES.validEmailRequired, undefined, { validEmail: false });
    if (body.password === '') throw validation(MESSAGES.passwordRequired);
    const key = throttleKey('sign_in', 'account', email);
    // Counted as a failure before any password is checked, so a burst of guesses cannot outrun the lock.
    const reserved = await reserveAttempt(db, key, deps.now(), { spendsBudget: false });
    const audit = (handle: TDatabase, outcome: 'success' | 'failure', actorId: string | null, reason?: string) =>
      deps.audit.record(handle, { actorKind: actorId ? 'account' : 'anonymous', actorId, action: 'account.sign_in', target: email, outcome, ip: meta.ip, requestId: meta.requestId, ...(reason ? { details: { reason } } : {}) });

    const candidates = await findAccountsByEmail(db, email);
    const withPassword = candidates.filter((account) => account.passwordHash !== null);
    const [providerOnly] = candidates;
    if (providerOnly && withPassword.length === 0) {
      await releaseAttempt(db, reserved);
      await audit(db, 'failure', providerOnly.id, 'provider_account');
      throw new AppError('provider_account', MESSAGES.providerAccount);
    }
    for (const account of withPassword) {
      if (account.passwordHash !== null && (await verifyPassword(account.passwordHash, body.password))) {
        await db.transaction(async (tx) => {
          await recordSuccess(tx, key);
          await audit(tx, 'success', account.id);
        });
        return account;
      }
    }
    await db.transaction(async (tx) => {
      await recordFailure(tx, reserved, deps.now());
      await audit(tx, 'failure', null, candidates.length === 0 ? 'unknown_email' : 'wrong_password');
    });
    throw new AppError('invalid_credentials', MESSAGES.invalidCredentials, { flags: { emailCheck: true } });
  }

  /** 409 when a general account already uses the email. */
  async function assertSignupEmailAvailable(email: string): Promise<void> {
    if (await findAccountByEmail(deps.database.db, 'account', email)) throw new AppError('account_exists', MESSAGES.accountExists);
  }

  /** the sign-up form, checked in the 01 §5 order; the first failing check is the answer. */
  async function createGeneralAccount(body: z.output<typeof ZCreateAccountBody>, meta: TRequestMeta): Promise<TAccountRow> {
    const companyAddress = trimmedAddress(body.companyAddress);
    const problem = validateAccountSignup({ ...body, companyAddress });
    if (problem) {
      throw validation(problem, undefined, PASSWORD_RULE_MESSAGES.has(problem) ? { validPassword: passwordProblems(body.password) } : undefined);
    }
    const email = body.email.trim().toLowerCase();
    await assertSignupEmailAvailable(email);
    const account = await insertNewAccount(
      deps,
      {
        kind: 'account',
        email,
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        phone: body.phoneNumber.trim(),
        companyId: body.companyId?.trim() || null,
        companyName: body.companyName.trim(),
        companyAddress,
        passwordHash: await hashPassword(body.password),
      },
      (created) => ({ actorKind: 'account', actorId: created.id, action: 'account.create', target: email, outcome: 'success', ip: meta.ip, requestId: meta.requestId }),
    );
    return account;
  }

  /** public users need every field, a valid email and a strong password. */
  async function createPublicUser(body: z.output<typeof ZPublicSignupBody>, meta: TRequestMeta): Promise<TAccountRow> {
    const fields = {
      firstName: body.firstName.trim(),
      lastName: body.lastName.trim(),
      phoneNumber: body.phoneNumber.trim(),
      emailId: body.emailId.trim().toLowerCase(),
    };
    const flags = { publicSignup: true };
    if (Object.values(fields).some((value) => value === '') || body.password === '') {
      throw new AppError('empty_fields', MESSAGES.emptyFields, { flags: { ...flags, emptyFields: true } });
    }
    if (!isValidEmail(fields.emailId)) throw validation(MESSAGES.validEmailRequired, undefined, { ...flags, validEmail: false });
    const problems = passwordProblems(body.password);
    const [firstProblem] = problems;
    if (firstProblem) throw validation(firstProblem, undefined, { ...flags, validPassword: problems });
    if (await findAccountByEmail(deps.database.db, 'public', fields.emailId)) throw new AppError('account_exists', MESSAGES.accountExists, { flags });
    const account = await insertNewAccount(
      deps,
      {
        kind: 'public',
        email: fields.emailId,
        firstName: fields.firstName,
        lastName: fields.lastName,
        phone: fields.phoneNumber,
        passwordHash: await hashPassword(body.password),
      },
      (created) => ({ actorKind: 'account', actorId: created.id, action: 'public_user.create', target: fields.emailId, outcome: 'success', ip: meta.ip, requestId: meta.requestId }),
      flags,
    );
    return account;
  }

  return { describeAccountByEmail, signInWithPassword, assertSignupEmailAvailable, createGeneralAccount, createPublicUser };
}
