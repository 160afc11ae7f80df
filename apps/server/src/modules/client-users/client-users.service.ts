import type { TClientUser } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import type { TActor } from '../../plugins/access';
import { presentClientUser } from './client-users.presenter';
import { notFound } from '../../lib/app-error';
import { companyExists, listClientUsersOfCompany } from './client-users.repository';

/** Client users (A-010; are served by the auth module's profile routes). */
export function createClientUsersService(deps: Pick<TAppDeps, 'database'>) {
  /** a company this MSP does not have (another MSP's included) is not found (404). */
  async function listOfCompany(actor: TActor, companyRowId: string): Promise<TClientUser[]> {
    if (!(await companyExists(deps.database.db, actor.mspId, companyRowId))) throw notFound();
    return (await listClientUsersOfCompany(deps.database.db, actor.mspId, companyRowId)).map(presentClientUser);
  }
  return { listOfCompany };
}
