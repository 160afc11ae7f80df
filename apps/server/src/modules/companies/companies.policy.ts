import type { TActor } from '../../plugins/access';

/** The admitted user as the companies service needs them: a client user's own company scopes every read. */
export interface TCompaniesActor extends TActor {
  psaCompanyId: string | null;
  companyRowId: string | null;
}

/**
 * Which company's records the actor may see (DESIGN §4): technicians see all the MSP's companies,
 * client users only their own (`''` when they have none, which matches no company).
 */
export function companyScopeOf(actor: Pick<TCompaniesActor, 'userKind' | 'psaCompanyId'>): string | null {
  if (actor.userKind === 'technician') return null;
  return actor.psaCompanyId ?? '';
}

/** Whether the actor may read or add contacts of this company (404 otherwise: it is not theirs to know about). */
export function canUseCompany(actor: Pick<TCompaniesActor, 'userKind' | 'psaCompanyId'>, externalCompanyId: string): boolean {
  const scope = companyScopeOf(actor);
  return scope === null || scope === externalCompanyId;
}

/** Whether the actor may open this company row by its client database id. */
export function canUseCompanyRow(actor: Pick<TCompaniesActor, 'userKind' | 'companyRowId'>, companyRowId: string): boolean {
  return actor.userKind === 'technician' || actor.companyRowId === companyRowId;
}
