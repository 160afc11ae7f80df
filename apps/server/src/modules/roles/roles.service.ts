import { MESSAGES, type TPermissionMap, type TRole } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import { isRoleChangeable } from './roles.policy';
import { presentRole } from './roles.presenter';
import { countUsersWithRole, deleteUnusedCustomRole, findRole, insertCustomRole, isRoleNameTaken, listRoles, updateCustomRole } from './roles.repository';

/** Who is acting, for the tenant scope and the audit trail. */
export interface TRoleActor {
  mspId: string;
  mspCustomDomain: string;
  userId: string;
  ip: string;
  requestId: string;
}

export interface TSaveRoleInput {
  id?: string | undefined;
  name: string;
  permissions: TPermissionMap;
}

const builtInRoleError = () => new AppError('forbidden', MESSAGES.roleBuiltIn);
const roleNameTakenError = () => conflict(MESSAGES.roleNameTaken);

export function createRolesService(deps: Pick<TAppDeps, 'database' | 'audit'>) {
  const db = deps.database.db;

  const audit = (actor: TRoleActor, action: string, target: string, details: Record<string, unknown>, outcome: 'success' | 'failure' = 'success') =>
    deps.audit({ mspId: actor.mspId, actorKind: 'user', actorId: actor.userId, action, target, outcome, ip: actor.ip, requestId: actor.requestId, details });

  /** every role of the actor's MSP. */
  async function listForMsp(mspId: string, mspCustomDomain: string): Promise<TRole[]> {
    return (await listRoles(db, mspId)).map((row) => presentRole(row, mspCustomDomain));
  }

  /** creates a custom role, or edits one when `id` is given; built-in roles are read-only. */
  async function save(actor: TRoleActor, input: TSaveRoleInput): Promise<TRole> {
    const name = input.name.trim();
    if (input.id === undefined) {
      if (await isRoleNameTaken(db, actor.mspId, name)) throw roleNameTakenError();
      try {
        const created = await insertCustomRole(db, actor.mspId, name, input.permissions);
        await audit(actor, 'role.create', created.id, { name, permissions: input.permissions });
        return presentRole(created, actor.mspCustomDomain);
      } catch (error) {
        if (isUniqueViolation(error)) throw roleNameTakenError();
        throw error;
      }
    }
    const existing = await findRole(db, actor.mspId, input.id);
    if (!existing) throw notFound();
    if (!isRoleChangeable(existing)) {
      await audit(actor, 'role.update', existing.id, { name: existing.name, reason: 'built_in' }, 'failure');
      throw builtInRoleError();
    }
    if (await isRoleNameTaken(db, actor.mspId, name, existing.id)) throw roleNameTakenError();
    try {
      const updated = await updateCustomRole(db, actor.mspId, existing.id, name, input.permissions);
      if (!updated) throw notFound();
      await audit(actor, 'role.update', updated.id, {
        before: { name: existing.name, permissions: existing.permissions },
        after: { name: updated.name, permissions: updated.permissions },
      });
      return presentRole(updated, actor.mspCustomDomain);
    } catch (error) {
      if (isUniqueViolation(error)) throw roleNameTakenError();
      throw error;
    }
  }

  /** deletes a custom role that no user holds. */
  async function remove(actor: TRoleActor, roleId: string): Promise<void> {
    const existing = await findRole(db, actor.mspId, roleId);
    if (!existing) throw notFound();
    if (!isRoleChangeable(existing)) {
      await audit(actor, 'role.delete', existing.id, { name: existing.name, reason: 'built_in' }, 'failure');
      throw builtInRoleError();
    }
    // The delete re-checks "no holder" itself, so a user assigned meanwhile keeps the role.
    if (!(await deleteUnusedCustomRole(db, actor.mspId, existing.id))) {
      const holders = await countUsersWithRole(db, actor.mspId, existing.id);
      if (holders === 0) throw notFound();
      await audit(actor, 'role.delete', existing.id, { name: existing.name, reason: 'in_use', holders }, 'failure');
      throw conflict(MESSAGES.roleInUse);
    }
    await audit(actor, 'role.delete', existing.id, { name: existing.name, permissions: existing.permissions });
  }

  return { listForMsp, save, remove };
}
