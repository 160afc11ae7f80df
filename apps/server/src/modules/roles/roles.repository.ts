import { and, asc, count, eq, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { TPermissionMap } from '@switchboard/contracts';
import { roles, users, type TDatabase } from '@switchboard/db';
import { preparedPerDatabase } from '../../lib/prepared-statements';

export type TRoleRow = typeof roles.$inferSelect;

const listRolesQuery = preparedPerDatabase((db) =>
  db
    .select()
    .from(roles)
    .where(eq(roles.mspId, sql.placeholder('mspId')))
    .orderBy(asc(roles.custom), asc(sql`lower(${roles.name})`))
    .prepare('sb_list_roles'),
);

/** The MSP's roles, built-in ones first, then by name (prepared: every screen's permissions come from it). */
export function listRoles(db: TDatabase, mspId: string): Promise<TRoleRow[]> {
  return listRolesQuery(db).execute({ mspId });
}

/** One role of an MSP by id, or undefined. */
export async function findRole(db: TDatabase, mspId: string, roleId: string): Promise<TRoleRow | undefined> {
  const [row] = await db.select().from(roles).where(and(eq(roles.mspId, mspId), eq(roles.id, roleId))).limit(1);
  return row;
}

/** Whether another role of the MSP already has this name, compared case-insensitively. */
export async function isRoleNameTaken(db: TDatabase, mspId: string, name: string, exceptRoleId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.mspId, mspId), eq(sql`lower(${roles.name})`, name.toLowerCase()), exceptRoleId ? ne(roles.id, exceptRoleId) : undefined))
    .limit(1);
  return row !== undefined;
}

/**
 * Decision 025: who counts as someone able to manage roles, over `users` joined to their role. Only an active technician
 * who can sign in: MSP users sign in with a password only (provider sign-in is for general accounts, not MSP users),
 * so an imported or invited technician with none yet cannot, and a client user never reaches the roles screen.
 */
export function countsAsRoleManagerSql(): SQL | undefined {
  return and(eq(users.kind, 'technician'), eq(users.isActive, true), isNotNull(users.passwordHash), sql`(${roles.permissions} ->> 'roleManagement') = 'true'`);
}

/** Users of the MSP who count as role managers (decision 025) and whose role is not `roleId` (who could still manage roles if `roleId` lost it). */
export async function countActiveRoleManagersOutsideRole(db: TDatabase, mspId: string, roleId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .innerJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, mspId), ne(users.roleId, roleId), countsAsRoleManagerSql()));
  return row?.total ?? 0;
}

export async function insertCustomRole(db: TDatabase, mspId: string, name: string, permissions: TPermissionMap): Promise<TRoleRow> {
  const [row] = await db.insert(roles).values({ mspId, name, custom: true, permissions }).returning();
  if (!row) throw new Error('Role insert returned no row');
  return row;
}

export async function updateCustomRole(db: TDatabase, mspId: string, roleId: string, name: string, permissions: TPermissionMap): Promise<TRoleRow | undefined> {
  const [row] = await db
    .update(roles)
    .set({ name, permissions })
    .where(and(eq(roles.mspId, mspId), eq(roles.id, roleId), eq(roles.custom, true)))
    .returning();
  return row;
}

/** Deletes a custom role; true when a row went. Fails with a foreign-key error while a user holds it. */
export async function deleteCustomRole(db: TDatabase, mspId: string, roleId: string): Promise<boolean> {
  const deleted = await db
    .delete(roles)
    .where(and(eq(roles.mspId, mspId), eq(roles.id, roleId), eq(roles.custom, true)))
    .returning({ id: roles.id });
  return deleted.length === 1;
}

/** How many active users (technicians and clients) hold the role: the people who keep it from being deleted. */
export async function countActiveUsersWithRole(db: TDatabase, mspId: string, roleId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .where(and(eq(users.mspId, mspId), eq(users.roleId, roleId), eq(users.isActive, true)));
  return row?.total ?? 0;
}

/**
 * Moves the inactive (deleted) holders of a role to the built-in role of their kind (Technician or Client), so the role can
 * go without restoring them first (review s29 #3); the moved users, for the audit trail.
 */
export async function moveInactiveHoldersOfRole(
  db: TDatabase,
  mspId: string,
  roleId: string,
  builtInRoleIdOfKind: Record<'technician' | 'client', string>,
): Promise<Array<{ id: string; kind: 'technician' | 'client'; roleId: string }>> {
  const moved: Array<{ id: string; kind: 'technician' | 'client'; roleId: string }> = [];
  for (const kind of ['technician', 'client'] as const) {
    const rows = await db
      .update(users)
      .set({ roleId: builtInRoleIdOfKind[kind] })
      .where(and(eq(users.mspId, mspId), eq(users.roleId, roleId), eq(users.isActive, false), eq(users.kind, kind)))
      .returning({ id: users.id, roleId: users.roleId });
    moved.push(...rows.map((row) => ({ ...row, kind })));
  }
  return moved;
}
