import { and, eq } from 'drizzle-orm';
import { BUILT_IN_ROLES, type TBuiltInRoleName } from '@switchboard/contracts';
import { roles, type TDatabase } from '@switchboard/db';

/** Creates the MSP's built-in Admin, Technician and Client roles if missing; returns their ids by name. */
export async function ensureBuiltInRoles(db: TDatabase, mspId: string): Promise<Record<TBuiltInRoleName, string>> {
  const ids = {} as Record<TBuiltInRoleName, string>;
  for (const [name, permissions] of Object.entries(BUILT_IN_ROLES) as Array<[TBuiltInRoleName, (typeof BUILT_IN_ROLES)[TBuiltInRoleName]]>) {
    const [existing] = await db.select({ id: roles.id }).from(roles).where(and(eq(roles.mspId, mspId), eq(roles.name, name), eq(roles.custom, false))).limit(1);
    if (existing) {
      ids[name] = existing.id;
      continue;
    }
    const [created] = await db.insert(roles).values({ mspId, name, custom: false, permissions }).returning({ id: roles.id });
    if (!created) throw new Error(`Could not create built-in role ${name}`);
    ids[name] = created.id;
  }
  return ids;
}
