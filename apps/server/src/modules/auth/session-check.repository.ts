import { and, eq, sql } from 'drizzle-orm';
import { accounts, msps, roles, users } from '@switchboard/db';
import { preparedPerDatabase } from '../../lib/prepared-statements';

/**
 * What the session check shows beyond the request's auth context (names, phone, tier, PSA ids, MSP
 * and role names): one narrow primary-key query, prepared.
 */
export const sessionUserDetailsQuery = preparedPerDatabase((db) =>
  db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      phone: users.phone,
      tierLevel: users.tierLevel,
      psaMemberId: users.psaMemberId,
      psaContactId: users.psaContactId,
      mspName: msps.name,
      roleName: roles.name,
    })
    .from(users)
    .innerJoin(msps, eq(msps.id, users.mspId))
    .leftJoin(roles, and(eq(roles.mspId, users.mspId), eq(roles.id, users.roleId)))
    .where(and(eq(users.mspId, sql.placeholder('mspId')), eq(users.id, sql.placeholder('userId'))))
    .limit(1)
    .prepare('sb_session_user_details'),
);

/** The general account's name, phone and company for the session check. */
export const sessionAccountDetailsQuery = preparedPerDatabase((db) =>
  db
    .select({ firstName: accounts.firstName, lastName: accounts.lastName, phone: accounts.phone, companyName: accounts.companyName })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('accountId')))
    .limit(1)
    .prepare('sb_session_account_details'),
);
