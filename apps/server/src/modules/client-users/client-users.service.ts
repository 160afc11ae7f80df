import type { TClientUser } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import type { TActor } from '../../plugins/access';
import { presentClientUser } from './client-users.presenter';
import { listClientUsersOfCompany } from './client-users.repository';

/** Client users (A-010; are served by the auth module's profile routes). */
export function createClientUsersService(deps: Pick<TAppDeps, 'database'>) {
  /** a company of another MSP simply has no client users here (the query is tenant-scoped). */
  async function listOfCompany(actor: TActor, companyRowId: string): Promise<TClientUser[]> {
    return (await listClientUsersOfCompany(deps.database.db, actor.mspId, companyRowId)).map(presentClientUser);
  }
  return { listOfCompany };
}
