import { randomUUID } from 'node:crypto';
import { INVITATION_TTL_HOURS, MESSAGES, passwordProblems, type TAcceptInvitationBody, type TEmployee, type TInvitationResponse } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound, validation } from '../../lib/app-error';
import { hashPassword, randomToken, safeEqualHex, sha256 } from '../../lib/crypto';
import type { TActor, TRequestMeta } from '../../plugins/access';
import type { TMspRow } from '../auth/auth.repository';
import { findTechnician } from '../employees/employees.repository';
import { presentEmployee } from '../employees/employees.presenter';
import { acceptInvitationRow, closeOpenInvitations, deleteInvitations, findOpenInvitation, findUninvitedTechnicians, insertInvitations, lockUsersForInvitation } from './invitations.repository';
import { userAuditFields } from '../../lib/audit';
import { assertMayActOnHolderOf, grantsNoMoreThan } from '../roles/roles.policy';
import { findRole, listRoles } from '../roles/roles.repository';

type TInvitationDeps = Pick<TAppDeps, 'database' | 'mailer' | 'audit' | 'now'>;
type TInvitee = { id: string; mspId: string; email: string; firstName: string };

export const INVITATION_TTL_MS = INVITATION_TTL_HOURS * 60 * 60 * 1000;
/** `<code row id>.<32 random bytes, base64url>`: the id finds the row, the secret (only its salted hash is stored) opens it. */
const TOKEN_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

const hashSecret = (id: string, secret: string): string => sha256(`invitation:${id}:${secret}`);
const invalidInvitation = () => new AppError('invalid_code', MESSAGES.invitations.invalid);

function mailText(msp: TMspRow, invitee: TInvitee, link: string): string {
  return [
    `Hello ${invitee.firstName},`,
    '',
    `${msp.name} invites you to Switchboard, its help desk. Open this link to set your password:`,
    '',
    link,
    '',
    `The link works once and expires in ${INVITATION_TTL_HOURS} hours. If you did not expect it, ignore this mail.`,
  ].join('\n');
}

/** Technician invitations (decision 019): a one-time link, valid 72 hours, that lets an imported technician set a password. */
export function createInvitationsService(deps: TInvitationDeps) {
  const db = deps.database.db;

  /**
   * Stores fresh invitations for the invitees (their older open ones stop working), then mails the links after the
   * commit, one by one. A mail the mail server refuses does not stop the others; its invitation is deleted (with a
   * failure audit event) so the technician shows "No account" and the next "invite all" picks them up again, and the
   * answer is a 502 saying how many were not sent. There is no durable mail outbox to hand the mail to (mail goes
   * straight to SMTP, lib/mailer.ts), and keeping the link for a retry would mean storing its secret in clear.
   */
  async function issue(actor: TActor, msp: TMspRow, candidates: TInvitee[], baseUrl: string, onMailError: (error: unknown) => void, options: { onlyUninvited: boolean }): Promise<number> {
    const now = deps.now();
    const issued = await db.transaction(async (tx) => {
      await lockUsersForInvitation(tx, actor.mspId, candidates.map((candidate) => candidate.id));
      // "Invite all" read its list before the lock: one invited meanwhile (by a call that held the lock) is skipped.
      // A statement after the lock sees what that call committed.
      const stillUninvited = options.onlyUninvited ? new Set((await findUninvitedTechnicians(tx, actor.mspId, now)).map((user) => user.id)) : null;
      const invitees = stillUninvited ? candidates.filter((candidate) => stillUninvited.has(candidate.id)) : candidates;
      const fresh = invitees.map((invitee) => ({ invitee, id: randomUUID(), secret: randomToken(32) }));
      await closeOpenInvitations(tx, actor.mspId, invitees.map((invitee) => invitee.id), now);
      await insertInvitations(tx, fresh.map(({ invitee, id, secret }) => ({ id, mspId: actor.mspId, userId: invitee.id, codeHash: hashSecret(id, secret), expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })));
      for (const { invitee } of fresh) {
        await deps.audit.record(tx, { ...userAuditFields(actor), action: 'technician.invite', target: invitee.id, outcome: 'success', details: { email: invitee.email } });
      }
      return fresh;
    });
    const unsent: typeof issued = [];
    for (const invitation of issued) {
      const { invitee, id, secret } = invitation;
      const link = `${baseUrl}/${encodeURIComponent(msp.customDomain)}/invitation?token=${id}.${secret}`;
      try {
        await deps.mailer.send({ mspId: actor.mspId, to: invitee.email, subject: MESSAGES.invitations.mailSubject, text: mailText(msp, invitee, link) });
      } catch (error) {
        onMailError(error);
        unsent.push(invitation);
      }
    }
    if (unsent.length === 0) return issued.length;
    await db.transaction(async (tx) => {
      await deleteInvitations(tx, actor.mspId, unsent.map(({ id }) => id));
      for (const { invitee } of unsent) {
        await deps.audit.record(tx, { ...userAuditFields(actor), action: 'technician.invite', target: invitee.id, outcome: 'failure', details: { email: invitee.email, reason: 'mail_not_sent' } });
      }
    });
    throw new AppError('mail_server_unreachable', MESSAGES.invitations.notAllSent(unsent.length, issued.length));
  }

  /**
   * Invites one active technician without an account (a second invitation replaces the first); not one whose role holds
   * a permission the actor lacks (decision 044: the invitation replaces their link and sets up their account).
   */
  async function inviteOne(actor: TActor, msp: TMspRow, userId: string, baseUrl: string, onMailError: (error: unknown) => void): Promise<TEmployee> {
    const found = await findTechnician(db, actor.mspId, userId, deps.now());
    if (!found) throw notFound();
    const role = await findRole(db, actor.mspId, found.user.roleId);
    if (!role) throw notFound();
    assertMayActOnHolderOf(actor.permissions, role);
    if (!found.user.isActive) throw conflict(MESSAGES.invitations.inactive);
    if (found.user.passwordHash !== null) throw conflict(MESSAGES.invitations.alreadyHasAccount);
    await issue(actor, msp, [found.user], baseUrl, onMailError, { onlyUninvited: false });
    return presentEmployee({ ...found, hasOpenInvitation: true });
  }

  /**
   * Invites every active technician with neither an account nor an open invitation whom the actor may act on: one whose
   * role holds a permission the actor lacks is left for someone who holds it (decision 044), not refused for all.
   */
  async function inviteAllUninvited(actor: TActor, msp: TMspRow, baseUrl: string, onMailError: (error: unknown) => void): Promise<{ invited: number }> {
    const permissionsOfRole = new Map((await listRoles(db, actor.mspId)).map((role) => [role.id, role.permissions]));
    const isWithinReach = (roleId: string) => {
      const permissions = permissionsOfRole.get(roleId);
      return permissions !== undefined && grantsNoMoreThan(permissions, actor.permissions);
    };
    const invitees = (await findUninvitedTechnicians(db, actor.mspId, deps.now())).filter((user) => isWithinReach(user.roleId));
    return { invited: await issue(actor, msp, invitees, baseUrl, onMailError, { onlyUninvited: true }) };
  }

  async function openInvitation(msp: TMspRow, token: string) {
    const match = TOKEN_PATTERN.exec(token);
    const id = match?.[1];
    const secret = match?.[2];
    if (id === undefined || secret === undefined) throw invalidInvitation();
    const found = await findOpenInvitation(db, msp.id, id, deps.now());
    if (!found || !found.user.isActive || found.user.passwordHash !== null || !safeEqualHex(hashSecret(id, secret), found.code.codeHash)) throw invalidInvitation();
    return found;
  }

  /** Whom an invitation link is for, so the page can greet them (does not use it up). */
  async function readInvitation(msp: TMspRow, token: string): Promise<TInvitationResponse> {
    const { user } = await openInvitation(msp, token);
    return { email: user.email, firstName: user.firstName, lastName: user.lastName, mspName: msp.name };
  }

  /** Sets the invited technician's password and uses the invitation up; they then sign in as usual (with 2FA). */
  async function acceptInvitation(msp: TMspRow, body: TAcceptInvitationBody, meta: TRequestMeta): Promise<{ accepted: true; email: string }> {
    const { code, user } = await openInvitation(msp, body.token);
    const problems = passwordProblems(body.password);
    const firstProblem = problems[0];
    if (firstProblem !== undefined) throw validation(firstProblem, problems.map((reason) => ({ name: 'password', reason })), { validPassword: problems });
    const passwordHash = await hashPassword(body.password);
    const isAccepted = await db.transaction(async (tx) => {
      if (!(await acceptInvitationRow(tx, code, passwordHash, deps.now()))) return false;
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'technician.invitation.accept', target: user.id, outcome: 'success', ...meta, details: {} });
      return true;
    });
    if (!isAccepted) throw invalidInvitation();
    return { accepted: true, email: user.email };
  }

  return { inviteOne, inviteAllUninvited, readInvitation, acceptInvitation };
}
