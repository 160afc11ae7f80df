import { and, asc, eq, sql } from 'drizzle-orm';
import { psaCompanies, roles, users, type TDatabase } from '@switchboard/db';

export interface TClientUserRow {
  user: typeof users.$inferSelect;
  roleName: string | null;
}

/** Client users of one client company of the MSP (active first, then by name). */
export function listClientUsersOfCompany(db: TDatabase, mspId: string, companyRowId: string): Promise<TClientUserRow[]> {
  return db
    .select({ user: users, roleName: roles.name })
    .from(users)
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, mspId), eq(users.kind, 'client'), eq(users.companyRowId, companyRowId)))
    .orderBy(sql`${users.isActive} desc`, asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`));
}

/** Whether this MSP has a synchronized PSA company with this row id. */
export async function companyExists(db: TDatabase, mspId: string, companyRowId: string): Promise<boolean> {
  const [row] = await db.select({ id: psaCompanies.id }).from(psaCompanies).where(and(eq(psaCompanies.mspId, mspId), eq(psaCompanies.id, companyRowId))).limit(1);
  return row !== undefined;
}
