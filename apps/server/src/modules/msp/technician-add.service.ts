import { randomUUID } from 'node:crypto';
import { isValidEmail, isValidPhone, MESSAGES, passwordProblems, type TAddTechnicianBody, type TPermissionMap, type TTechnicianRecord } from '@switchboard/contracts';
import { USERS_ROLE_FOREIGN_KEY } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound, validation } from '../../lib/app-error';
import { hashPassword, safeEqualHex, sha256 } from '../../lib/crypto';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';
import { ensureBuiltInRoles } from '../roles/built-in-roles';
import { assertMayGrantRole } from '../roles/roles.policy';
import { findRole } from '../roles/roles.repository';
import type { TRequestMeta } from '../../plugins/access';
import { mspSignupError } from './msp.service';
import { presentTechnician } from './msp.presenter';
import { countTechnicians, findMspByDomain, insertUser, isTechnicianEmailTaken, spendBootstrapToken, type TMspRow } from './msp.repository';

/** The signed-in admin adding an employee (already checked for tenant and permission by the route). */
export interface TEmployeeAdder {
  mspId: string;
  mspCustomDomain: string;
  userId: string;
  /** What the adder's own role grants: the new employee's role may hold no more (roles.policy). */
  permissions: TPermissionMap;
}

const bootstrapTokenError = () => mspSignupError('unauthenticated', MESSAGES.bootstrapTokenInvalid);

function isBootstrapTokenValid(msp: TMspRow, token: string, now: Date): boolean {
  if (!msp.bootstrapTokenHash || !msp.bootstrapExpiresAt || msp.bootstrapExpiresAt.getTime() <= now.getTime()) return false;
  return safeEqualHex(msp.bootstrapTokenHash, sha256(token));
}

/** The trimmed form with the email lower-cased, as it is stored and compared. */
function normalise(body: TAddTechnicianBody) {
  return { firstName: body.firstName.trim(), lastName: body.lastName.trim(), phoneNumber: body.phoneNumber.trim(), email: body.email.trim().toLowerCase(), password: body.password };
}

export function createTechnicianAddService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now'>) {
  const db = deps.database.db;

  /**
   * A-035 with `x-bootstrap-token` (decisions #6): the MSP's first technician, always with the
   * built-in Admin role (a role picked in sign-up step 2 cannot exist yet), spending the token.
   */
  async function addFirstTechnician(mspCustomDomain: string, token: string, body: TAddTechnicianBody, origin: TRequestMeta): Promise<TTechnicianRecord> {
    const msp = await findMspByDomain(db, mspCustomDomain);
    if (!msp) throw notFound();
    const auditFailure = (reason: string) =>
      deps.audit.record(db, { mspId: msp.id, actorKind: 'anonymous', action: 'technician.add', target: null, outcome: 'failure', ip: origin.ip, requestId: origin.requestId, details: { bootstrap: true, reason } });
    if (!isBootstrapTokenValid(msp, token, deps.now()) || (await countTechnicians(db, msp.id)) > 0) {
      await auditFailure('bootstrap_token');
      throw bootstrapTokenError();
    }

    const form = normalise(body);
    if ([form.firstName, form.lastName, form.phoneNumber, form.email, form.password].some((value) => value === '')) {
      throw mspSignupError('empty_fields', MESSAGES.emptyFields, { emptyFields: true });
    }
    if (!isValidEmail(form.email)) throw mspSignupError('validation', MESSAGES.validEmailRequired, { validEmail: false });
    if (!isValidPhone(form.phoneNumber)) throw mspSignupError('validation', MESSAGES.signup.phoneNumber.invalid);
    const problems = passwordProblems(form.password);
    const firstProblem = problems[0];
    if (firstProblem !== undefined) throw mspSignupError('validation', firstProblem, { validPassword: problems });

    const passwordHash = await hashPassword(form.password);
    const created = await db.transaction(async (tx) => {
      if (!(await spendBootstrapToken(tx, msp.id, sha256(token), deps.now()))) return null;
      const roleIds = await ensureBuiltInRoles(tx, msp.id);
      const user = await insertUser(tx, {
        mspId: msp.id,
        id: randomUUID(),
        kind: 'technician',
        roleId: roleIds.Admin,
        firstName: form.firstName,
        lastName: form.lastName,
        email: form.email,
        phone: form.phoneNumber,
        passwordHash,
        tierLevel: body.tierLevel ?? 'Tier1',
      });
      await deps.audit.record(tx, { mspId: msp.id, actorKind: 'anonymous', action: 'technician.add', target: user.id, outcome: 'success', ip: origin.ip, requestId: origin.requestId, details: { bootstrap: true, role: 'Admin', email: user.email } });
      return user;
    });
    if (!created) {
      await auditFailure('bootstrap_token_spent');
      throw bootstrapTokenError();
    }
    return presentTechnician(created, msp.customDomain, 'Admin');
  }

  /** A-035 from the Employees screen: the new-employee form's checks and messages (01 §5), in order. */
  async function addEmployee(adder: TEmployeeAdder, body: TAddTechnicianBody, origin: TRequestMeta): Promise<TTechnicianRecord> {
    const form = normalise(body);
    const employee = MESSAGES.employee;
    if (form.firstName === '' || form.lastName === '') throw validation(employee.names);
    if (!isValidEmail(form.email)) throw validation(employee.email);
    if (!isValidPhone(form.phoneNumber)) throw validation(employee.phone);
    const problems = passwordProblems(form.password);
    if (problems.length > 0) throw new AppError('validation', employee.password, { flags: { validPassword: problems } });

    const roleIds = await ensureBuiltInRoles(db, adder.mspId);
    const roleId = body.roleId ?? roleIds.Technician;
    const role = await findRole(db, adder.mspId, roleId);
    if (!role) throw notFound();
    assertMayGrantRole(adder.permissions, role);
    const roleName = role.name;
    if (await isTechnicianEmailTaken(db, adder.mspId, form.email)) throw conflict(MESSAGES.accountExists);

    const passwordHash = await hashPassword(form.password);
    let created;
    try {
      created = await db.transaction(async (tx) => {
        const user = await insertUser(tx, {
          mspId: adder.mspId,
          id: randomUUID(),
          kind: 'technician',
          roleId,
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phoneNumber,
          passwordHash,
          // decisions #8: Tier1 when a member is added on the Team/Employees screen.
          tierLevel: body.tierLevel ?? 'Tier1',
        });
        await deps.audit.record(tx, {
          mspId: adder.mspId,
          actorKind: 'user',
          actorId: adder.userId,
          action: 'technician.add',
          target: user.id,
          outcome: 'success',
          ip: origin.ip,
          requestId: origin.requestId,
          details: { roleId, roleName, tierLevel: user.tierLevel, email: user.email },
        });
        return user;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.accountExists);
      // The role was deleted after it was looked up: the database refuses a user without it.
      if (isForeignKeyViolation(error, USERS_ROLE_FOREIGN_KEY)) throw notFound();
      throw error;
    }
    return presentTechnician(created, adder.mspCustomDomain, roleName);
  }

  return { addFirstTechnician, addEmployee };
}
