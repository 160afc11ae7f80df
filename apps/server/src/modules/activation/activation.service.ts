import { randomUUID } from 'node:crypto';
import { isValidEmail, MESSAGES, passwordProblems, type TActivationLookupResponse } from '@switchboard/contracts';
import { users, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, validation } from '../../lib/app-error';
import { hashPassword } from '../../lib/crypto';
import { isUniqueViolation } from '../../lib/db-errors';
import { ensureBuiltInRoles } from '../roles/built-in-roles';
import { findUserByEmail, type TMspRow, type TMspUserKind } from '../auth/auth.repository';
import { awaitingInvitationError, isAwaitingInvitation } from '../auth/auth.policy';
import { findIntegration, findIntegrationForShare } from '../integrations/integrations.repository';
import { assertStillConnectedTo, PsaConnectionChanged, workConnectionOf, type TWorkConnection } from '../integrations/psa-identity';
import { queueTimeZoneOf } from '../queue/queue-settings.repository';
import { formatDueTime } from '../queue/sla-alerts.service';
import { findPsaRecordsByEmail } from './activation.repository';
import type { TActivationPsaLookup } from './activation-psa-lookup';
import type { TRequestMeta } from '../../plugins/access';

type TActivationDeps = Pick<TAppDeps, 'database' | 'audit' | 'mailer' | 'now'>;

const LOOKUP_FLAG: Record<TMspUserKind, string> = { technician: 'techEmailCheck', client: 'clientEmailCheck' };
const SIGNUP_FLAG: Record<TMspUserKind, string> = { technician: 'techSignup', client: 'clientSignup' };

/**
 * Decision 042, "Work in flight": the first statement of the transaction that links an account to the PSA records found
 * under `connection`. Records the copies answered while no PSA was connected are linked only while none is connected.
 */
async function assertStillOn(tx: TDatabase, mspId: string, connection: TWorkConnection | null): Promise<void> {
  if (connection) return assertStillConnectedTo(tx, mspId, connection);
  if (workConnectionOf(await findIntegrationForShare(tx, mspId)) !== null) throw new PsaConnectionChanged();
}

/** The web app's MSP sign-in page, opened on the person's side (its LOGIN_AS_PARAM, as embedded.ts builds it). */
function signInLinkOf(baseUrl: string, msp: TMspRow, kind: TMspUserKind): string {
  return `${baseUrl}/${encodeURIComponent(msp.customDomain)}?as=${kind === 'technician' ? 'tech' : 'client'}`;
}

function activatedMailText(firstName: string, msp: TMspRow, activatedAt: string, signInLink: string): string {
  return [
    // A PSA record may have no first name.
    firstName.trim() === '' ? 'Hello,' : `Hello ${firstName.trim()},`,
    '',
    `Your Switchboard account at ${msp.name} was activated with this e-mail address just now, at ${activatedAt}. Sign in on this page:`,
    '',
    signInLink,
    '',
    `If you did not do this, choose a new password with "Forgot password" on that page — the code goes to this mailbox, so only you can — and tell ${msp.name}.`,
  ].join('\n');
}

/** Where the activation mail's sign-in link points, and who hears of a mail the mail server refused. */
export interface TActivationMail {
  baseUrl: string;
  onMailError: (error: unknown) => void;
}

export interface TActivationInput {
  email: string;
  password: string;
  /** The PSA member row (technician) or contact row (client) chosen from the lookup. */
  psaRecordRowId: string;
  /** Clients only: the PSA company the contact belongs to (A-090 query). */
  psaCompanyId?: string;
}

/** Account activation against the MSP's PSA records (A-007…A-010). */
export function createActivationService(deps: TActivationDeps) {
  /** The MSP's PSA connection, read before its PSA is asked (decision 042): what the records found are written for. */
  const connectionOf = async (mspId: string) => workConnectionOf(await findIntegration(deps.database.db, mspId));

  /** Another PSA connected while the records were looked up or linked: nothing was written, the person looks up again. */
  const connectionChanged = (flags: Record<string, boolean>) => conflict(MESSAGES.imports.activationConnectionChanged, flags);

  /** the PSA records an activating user may link to (the synchronized copies first, to spare the MSP's PSA budget). */
  async function lookUpActivationRecords(psa: TActivationPsaLookup, msp: TMspRow, kind: TMspUserKind, email: string): Promise<TActivationLookupResponse> {
    if (!isValidEmail(email)) throw validation(MESSAGES.validEmailRequired, [{ name: 'email', reason: MESSAGES.validEmailRequired }], { [LOOKUP_FLAG[kind]]: true, validEmail: false });
    if (isAwaitingInvitation(await findUserByEmail(deps.database.db, msp.id, kind, email))) throw awaitingInvitationError({ [LOOKUP_FLAG[kind]]: true });
    const found = await findPsaRecordsByEmail(deps.database.db, msp.id, await connectionOf(msp.id), kind, email, psa, deps.now(), 'copies').catch((error: unknown) => {
      throw error instanceof PsaConnectionChanged ? connectionChanged({ [LOOKUP_FLAG[kind]]: true }) : error;
    });
    if (found.matches.length === 0) throw new AppError('not_found', MESSAGES.accountDoesNotExist, { flags: { [LOOKUP_FLAG[kind]]: true } });
    return { records: found.matches.map((match) => match.record) };
  }

  /**
   * Tells the mailbox its account was activated (brief s29): activation proves no ownership of the address, and the
   * owner who did not activate it takes it back with "Forgot password". Sent after the commit; a failure is only logged.
   */
  async function mailActivated(msp: TMspRow, kind: TMspUserKind, to: string, firstName: string, mail: TActivationMail): Promise<void> {
    try {
      const activatedAt = formatDueTime(deps.now(), await queueTimeZoneOf(deps.database.db, msp.id));
      await deps.mailer.send({ mspId: msp.id, to, subject: MESSAGES.activation.mailSubject(msp.name), text: activatedMailText(firstName, msp, activatedAt, signInLinkOf(mail.baseUrl, msp, kind)) });
    } catch (error) {
      mail.onMailError(error);
    }
  }

  /**
   * creates the user linked to its PSA record (technician → Technician/Tier1, client → Client), then mails
   * the address that it was activated, with the sign-in page under `mail.baseUrl` (the account stands whatever the mail server says).
   */
  async function activateAccount(psa: TActivationPsaLookup, msp: TMspRow, kind: TMspUserKind, input: TActivationInput, meta: TRequestMeta, mail: TActivationMail): Promise<{ id: string }> {
    const flags = { [SIGNUP_FLAG[kind]]: true };
    if (!isValidEmail(input.email)) throw validation(MESSAGES.validEmailRequired, [{ name: 'email', reason: MESSAGES.validEmailRequired }], { ...flags, validEmail: false });
    const problems = passwordProblems(input.password);
    const firstProblem = problems[0];
    if (firstProblem !== undefined) throw validation(firstProblem, problems.map((reason) => ({ name: 'password', reason })), { ...flags, validPassword: problems });
    const db = deps.database.db;
    const fail = async (reason: string, error: AppError) => {
      await deps.audit.record(deps.database.db, { mspId: msp.id, actorKind: 'anonymous', action: 'auth.activation', target: input.email.trim().toLowerCase(), outcome: 'failure', ...meta, details: { kind, reason } });
      return error;
    };
    const existing = await findUserByEmail(db, msp.id, kind, input.email);
    if (isAwaitingInvitation(existing)) throw await fail('awaiting_invitation', awaitingInvitationError(flags));
    if (existing) throw await fail('exists', conflict(MESSAGES.accountExists, flags));
    const connection = await connectionOf(msp.id);
    const refuseChangedConnection = async (error: unknown) => {
      if (error instanceof PsaConnectionChanged) throw await fail('psa_connection_changed', connectionChanged(flags));
      throw error;
    };
    const found = await findPsaRecordsByEmail(db, msp.id, connection, kind, input.email, psa, deps.now(), 'live').catch(refuseChangedConnection);
    const roleIds = await ensureBuiltInRoles(db, msp.id);
    const id = randomUUID();
    const passwordHash = await hashPassword(input.password);
    const base = { mspId: msp.id, id, email: input.email.trim(), passwordHash, createdAt: deps.now(), updatedAt: deps.now() };
    // Two activations racing for one email: the unique index lets one through, the other gets 409.
    // The user and its audit event commit together, after the integrations lock: keys for another PSA saved since the
    // records were found refuse the link to them (decision 042).
    const insertUser = async (values: typeof users.$inferInsert) => {
      try {
        await db.transaction(async (tx) => {
          await assertStillOn(tx, msp.id, connection);
          await tx.insert(users).values(values);
          await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: id, action: 'auth.activation', target: id, outcome: 'success', ...meta, details: { kind } });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw await fail('exists', conflict(MESSAGES.accountExists, flags));
        await refuseChangedConnection(error);
      }
    };
    if (found.kind === 'technician') {
      const member = found.matches.find((match) => match.rowId === input.psaRecordRowId);
      if (!member) throw await fail('no_psa_record', new AppError('not_found', MESSAGES.notFound, { flags }));
      await insertUser({
        ...base,
        kind: 'technician',
        roleId: roleIds.Technician,
        tierLevel: 'Tier1',
        firstName: member.record.firstName,
        lastName: member.record.lastName,
        phone: member.phone ?? '',
        psaMemberId: member.record.psaMembersId,
        psaMemberRowId: member.rowId,
      });
      await mailActivated(msp, kind, base.email, member.record.firstName, mail);
    } else {
      const contact = found.matches.find((match) => match.rowId === input.psaRecordRowId && match.record.psaCompanyId === input.psaCompanyId);
      if (!contact) throw await fail('no_psa_record', new AppError('not_found', MESSAGES.notFound, { flags }));
      await insertUser({
        ...base,
        kind: 'client',
        roleId: roleIds.Client,
        tierLevel: null,
        firstName: contact.record.firstName,
        lastName: contact.record.lastName,
        phone: contact.phone ?? '',
        psaContactId: contact.record.psaContactId,
        psaContactRowId: contact.rowId,
        psaCompanyId: contact.record.psaCompanyId,
        companyRowId: contact.companyRowId,
      });
      await mailActivated(msp, kind, base.email, contact.record.firstName, mail);
    }
    return { id };
  }

  return { lookUpActivationRecords, activateAccount };
}
