import type { TAccountSessionUser } from '@switchboard/contracts';
import type { TAccountRow } from './accounts.repository';

/** Account row → the account variant of TSessionUser; never a password hash. */
export function presentAccount(row: TAccountRow): TAccountSessionUser {
  return {
    principal: 'account',
    id: row.id,
    accountKind: row.kind,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneNumber: row.phone,
    companyName: row.companyName,
  };
}
