import { randomUUID } from 'node:crypto';
import { MESSAGES, PAGE_SIZE, type TAddPsaMembersBody, type TEmployee, type TEmployeeListQuery, type TEmployeePage, type TPsaMemberCandidate, type TTierLevel } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound, validation } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TActor } from '../../plugins/access';
import { assertMayActOnHolderOf, grantsNoMoreThan } from '../roles/roles.policy';
import { findRole } from '../roles/roles.repository';
import { ensureBuiltInRoles } from '../roles/built-in-roles';
import { findIntegration } from '../integrations/integrations.repository';
import { isStillConnectedTo, workConnectionOf, writeForConnection, type TWorkConnection } from '../integrations/psa-identity';
import { psaNotConfigured, withPsaErrors } from '../integrations/psa-errors';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import { revokeUserSessions } from '../sessions/session.service';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { closeOpenInvitations } from '../invitations/invitations.repository';
import { leavesARoleManager, type TRoleManagerChange } from './last-role-manager';
import { presentEmployee, presentPsaMemberCandidate } from './employees.presenter';
import {
  findPsaMembers,
  findTechnician,
  findTechniciansLinkedOrNamed,
  insertTechnicians,
  linkTechnicianToMember,
  listTechnicians,
  listUnimportedPsaMembers,
  updateTechnician,
  type TTechnicianRow,
} from './employees.repository';
import { userAuditFields } from '../../lib/audit';

/**
 * Refuses a change that takes roleManagement away from the MSP's last active holder (deleting them,
 * or giving them a role without it). Runs inside the change's transaction, under the MSP's
 * role-manager lock (decision 025). Shared with the A-036 role edit.
 */
export async function assertRoleManagerRemains(tx: TDatabase, mspId: string, change: Extract<TRoleManagerChange, { userId: string }>): Promise<void> {
  if (!(await leavesARoleManager(tx, mspId, change))) throw conflict(MESSAGES.employees.lastRoleManager);
}

/** Employees screen (01 §2) and the PSA member import. */
export function createEmployeesService(deps: TAppDeps) {
  const db = deps.database.db;
  const audit = (actor: TActor, action: string, target: string | null, details: Record<string, unknown>, handle: TDatabase = db) =>
    deps.audit.record(handle, { ...userAuditFields(actor), action, target, outcome: 'success', details });

  /** A-007 (active) and the inactive list: search, role filter and 30 a page. */
  async function list(actor: TActor, isActive: boolean, query: TEmployeeListQuery): Promise<TEmployeePage> {
    const filter = {
      isActive,
      search: query.search,
      roleId: query.roleId === 'all' ? null : query.roleId,
      hasPsaMember: query.hasPsaMember === undefined ? null : query.hasPsaMember === 'true',
    };
    const { rows, total } = await listTechnicians(db, actor.mspId, filter, { offset: (query.page - 1) * PAGE_SIZE, limit: PAGE_SIZE }, deps.now());
    return { employees: rows.map(presentEmployee), total, page: query.page, pageSize: PAGE_SIZE };
  }

  async function technicianOf(actor: TActor, userId: string) {
    const found = await findTechnician(db, actor.mspId, userId, deps.now());
    if (!found) throw notFound();
    return found;
  }

  /**
   * Refuses (403) acting on a technician whose current role holds a permission the actor lacks (review s26 #2; every
   * change of a person, decision 044). Oneself is never a richer colleague.
   */
  async function assertMayActOn(actor: TActor, user: Pick<TTechnicianRow, 'id' | 'roleId'>): Promise<void> {
    if (user.id === actor.userId) return;
    const role = await findRole(db, actor.mspId, user.roleId);
    if (!role) throw notFound();
    assertMayActOnHolderOf(actor.permissions, role);
  }

  /**
   * a soft delete. The employee becomes inactive (listed under Inactive), cannot sign in,
   * and their open sessions end; nobody deletes themself, someone whose role holds more than their own, or the last
   * person who can manage roles.
   */
  async function remove(actor: TActor, userId: string): Promise<TEmployee> {
    const found = await technicianOf(actor, userId);
    if (!found.user.isActive) throw conflict(MESSAGES.employees.alreadyInactive);
    if (found.user.id === actor.userId) throw conflict(MESSAGES.employees.cannotDeleteSelf);
    await assertMayActOn(actor, found.user);
    await db.transaction(async (tx) => {
      await assertRoleManagerRemains(tx, actor.mspId, { kind: 'userDeactivated', userId: found.user.id });
      await updateTechnician(tx, actor.mspId, found.user.id, { isActive: false, updatedAt: deps.now() });
      await revokeUserSessions(tx, actor.mspId, found.user.id, deps.now());
      // Review s27 #3: a deleted technician's invitation link dies with the deletion, so a restore does not revive it.
      await closeOpenInvitations(tx, actor.mspId, [found.user.id], deps.now());
      await audit(actor, 'technician.delete', found.user.id, { email: found.user.email, soft: true }, tx);
    });
    forgetCachedSessions.ofUser(deps.caches.sessions, actor.mspId, found.user.id);
    return presentEmployee({ ...found, user: { ...found.user, isActive: false }, hasOpenInvitation: false });
  }

  /** Restores a deleted (inactive) employee, who may sign in again (addition: the Inactive list's way back); not one whose role holds more than the actor's. */
  async function restore(actor: TActor, userId: string): Promise<TEmployee> {
    const found = await technicianOf(actor, userId);
    if (found.user.isActive) throw conflict(MESSAGES.employees.alreadyActive);
    await assertMayActOn(actor, found.user);
    await db.transaction(async (tx) => {
      await updateTechnician(tx, actor.mspId, found.user.id, { isActive: true, updatedAt: deps.now() });
      await audit(actor, 'technician.restore', found.user.id, { email: found.user.email }, tx);
    });
    return presentEmployee({ ...found, user: { ...found.user, isActive: true } });
  }

  /** sets a technician's tier (its id is the technician's user id); not of someone whose role holds more than the actor's. */
  async function updateTier(actor: TActor, userId: string, tier: TTierLevel): Promise<TEmployee> {
    const found = await technicianOf(actor, userId);
    await assertMayActOn(actor, found.user);
    if (found.user.tierLevel !== tier) {
      await db.transaction(async (tx) => {
        await updateTechnician(tx, actor.mspId, found.user.id, { tierLevel: tier, updatedAt: deps.now() });
        await audit(actor, 'technician.tier', found.user.id, { before: found.user.tierLevel, after: tier }, tx);
      });
      // The tier is part of the user's cached sessions (decision 011).
      forgetCachedSessions.ofUser(deps.caches.sessions, actor.mspId, found.user.id);
    }
    return presentEmployee({ ...found, user: { ...found.user, tierLevel: tier } });
  }

  const connectionChanged = () => conflict(MESSAGES.imports.connectionChanged);

  /**
   * Refreshes the synchronized PSA members from the MSP's PSA (network first, no transaction open)
   * and answers the connection they were read from (null: no PSA connected).
   */
  async function refreshPsaMembers(actor: TActor): Promise<TWorkConnection | null> {
    // Read before the client is built, so the client is of this connection or a later one (which the write refuses).
    const connection = workConnectionOf(await findIntegration(db, actor.mspId));
    if (!connection) return null;
    const client = await deps.psaClients.forMsp(actor.mspId);
    const members = await withPsaErrors(() => client.listMembers());
    await writeForConnection(db, actor.mspId, connection, connectionChanged, (tx) =>
      upsertPsaDirectory(
        tx,
        actor.mspId,
        connection.psaType,
        { members: members.map((member) => ({ externalId: String(member.id), identifier: member.identifier, firstName: member.firstName, lastName: member.lastName, email: member.email, phone: null, isActive: member.isActive })) },
        deps.now(),
      ),
    );
    return connection;
  }

  /** the PSA's members that are not employees yet (fresh from the PSA when one is connected). */
  async function listImportCandidates(actor: TActor): Promise<TPsaMemberCandidate[]> {
    const connection = await refreshPsaMembers(actor);
    if (connection === null) return [];
    return (await listUnimportedPsaMembers(db, actor.mspId, connection.psaType)).map(presentPsaMemberCandidate);
  }

  /**
   * imports PSA members as technicians, each with a tier (default Tier1) and a role (default
   * the built-in Technician role, 01 §6). They have no password yet: they sign in once they
   * activate their account.
   */
  async function importPsaMembers(actor: TActor, body: TAddPsaMembersBody): Promise<TEmployee[]> {
    if (body.members.length === 0) throw validation(MESSAGES.employees.selectMembers, [{ name: 'members', reason: MESSAGES.employees.selectMembers }]);
    // The roles first: another MSP's role is not found (404) whether or not a PSA is connected.
    const roleIds = await ensureBuiltInRoles(db, actor.mspId);
    const roleNames = new Map<string, string>();
    for (const roleId of new Set(body.members.map((member) => member.roleId ?? body.roleId ?? roleIds.Technician))) {
      const role = await findRole(db, actor.mspId, roleId);
      if (!role) throw notFound();
      if (!grantsNoMoreThan(role.permissions, actor.permissions)) throw new AppError('forbidden', MESSAGES.employees.roleBeyondOwn);
      roleNames.set(role.id, role.name);
    }
    const connection = await refreshPsaMembers(actor);
    if (connection === null) throw psaNotConfigured();
    const externalIds = [...new Set(body.members.map((member) => member.psaMemberId))];
    const stored = new Map((await findPsaMembers(db, actor.mspId, connection.psaType, externalIds)).map((row) => [row.externalId, row]));
    // A member gone from the copies because another PSA was connected since the refresh is that, not "no such record".
    const isMemberMissing = body.members.some((member) => !stored.has(member.psaMemberId));
    if (isMemberMissing && !isStillConnectedTo(await findIntegration(db, actor.mspId), connection)) throw connectionChanged();
    const rows = body.members.map((member) => {
      const record = stored.get(member.psaMemberId);
      if (!record || !record.isActive) throw new AppError('psa_not_found', MESSAGES.psa.notFound);
      if (!record.email) throw validation(MESSAGES.employees.memberWithoutEmail, [{ name: 'members', reason: MESSAGES.employees.memberWithoutEmail }]);
      return { member, record, email: record.email };
    });
    const existing = await findTechniciansLinkedOrNamed(db, actor.mspId, externalIds, rows.map((row) => row.email));
    if (new Set(rows.map((row) => row.email.toLowerCase())).size !== rows.length) throw conflict(MESSAGES.employees.memberAlreadyImported);
    // Decision 042: an account of the member's e-mail without a PSA link (connecting another PSA cleared it) is linked,
    // keeping its role, tier and password; one linked to any member, this one included, is refused as before.
    const unlinkedByEmail = new Map(existing.filter((user) => user.psaMemberId === null && user.psaMemberRowId === null).map((user) => [user.email.toLowerCase(), user]));
    if (existing.some((user) => !unlinkedByEmail.has(user.email.toLowerCase()))) throw conflict(MESSAGES.employees.memberAlreadyImported);
    // Decision 044: linking an account to a member changes that person, so not one whose role holds more than the actor's.
    for (const account of unlinkedByEmail.values()) await assertMayActOn(actor, account);
    const now = deps.now();
    // The integrations lock first: another PSA connected since the members were read refuses the import (decision 042).
    const { inserted, linked } = await writeForConnection(db, actor.mspId, connection, connectionChanged, async (tx) => {
      const linkedUsers: TTechnicianRow[] = [];
      for (const { record, email } of rows) {
        const account = unlinkedByEmail.get(email.toLowerCase());
        if (!account) continue;
        const user = await linkTechnicianToMember(tx, actor.mspId, account.id, record, now);
        // Linked meanwhile by another request: the same refusal as a member already imported.
        if (!user) throw conflict(MESSAGES.employees.memberAlreadyImported);
        linkedUsers.push(user);
      }
      const insertedUsers = await insertTechnicians(
        tx,
        rows
          .filter(({ email }) => !unlinkedByEmail.has(email.toLowerCase()))
          .map(({ member, record, email }) => ({
            mspId: actor.mspId,
            id: randomUUID(),
            kind: 'technician' as const,
            roleId: member.roleId ?? body.roleId ?? roleIds.Technician,
            firstName: record.firstName,
            lastName: record.lastName,
            email,
            phone: record.phone ?? '',
            passwordHash: null,
            tierLevel: member.tierLevel ?? body.tierLevel ?? 'Tier1',
            psaMemberId: record.externalId,
            psaMemberRowId: record.id,
            createdAt: now,
            updatedAt: now,
          })),
      );
      return { inserted: insertedUsers, linked: linkedUsers };
    }).catch((error: unknown) => {
      // Another import of the same person won the race (unique e-mail per MSP).
      if (isUniqueViolation(error)) throw conflict(MESSAGES.employees.memberAlreadyImported);
      throw error;
    });
    for (const user of linked) {
      forgetCachedSessions.ofUser(deps.caches.sessions, actor.mspId, user.id);
      await audit(actor, 'technician.link', user.id, { psaMemberId: user.psaMemberId, email: user.email });
    }
    for (const user of inserted) await audit(actor, 'technician.import', user.id, { psaMemberId: user.psaMemberId, email: user.email, roleId: user.roleId, tierLevel: user.tierLevel });
    const linkedRoleNames = new Map<string, string | null>();
    for (const user of linked) if (!roleNames.has(user.roleId)) linkedRoleNames.set(user.roleId, (await findRole(db, actor.mspId, user.roleId))?.name ?? null);
    return [...linked, ...inserted].map((user) => presentEmployee({ user, roleName: roleNames.get(user.roleId) ?? linkedRoleNames.get(user.roleId) ?? null, hasOpenInvitation: false }));
  }

  return { list, remove, restore, updateTier, listImportCandidates, importPsaMembers };
}
