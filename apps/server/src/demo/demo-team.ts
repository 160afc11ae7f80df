import { DEMO_SIGN_INS } from './seed-demo';
import { loadDemoData } from '@switchboard/psa-sim';
import type { TAppDeps } from '../app-deps';
import { findActiveTechniciansByEmail, insertTeam, insertTeamMembers, listTeams, type TTeamMemberTier } from '../modules/teams/teams.repository';
import { psaMemberNumberOf } from '../modules/teams/teams.policy';
import { findDemoHelpDesk } from './demo-help-desk';

export const DEMO_TEAM_NAME = 'Help Desk team';

/**
 * Northwind's team (issue #7 "The demo": technicians, teams, clients and contacts already imported):
 * the demo technicians on the Help Desk board, each at their own tier, created at the PSA as a board
 * team and here, as A-053 does. Idempotent: an MSP that has any team keeps what it has.
 */
export async function seedDemoTeam(deps: Pick<TAppDeps, 'database' | 'psaClients' | 'now'>, mspId: string): Promise<boolean> {
  const db = deps.database.db;
  if ((await listTeams(db, mspId)).length > 0) return false;
  const client = await deps.psaClients.forMsp(mspId);
  const helpDesk = await findDemoHelpDesk(client, loadDemoData());
  if (!helpDesk) return false;
  const emails = DEMO_SIGN_INS.filter((signIn) => signIn.kind === 'technician').map((signIn) => signIn.email);
  const members = (await findActiveTechniciansByEmail(db, mspId, emails)).flatMap((user) => {
    const psaMemberNumber = psaMemberNumberOf(user);
    const tierLevel: TTeamMemberTier = user.tierLevel === 'Tier2' || user.tierLevel === 'Tier3' ? user.tierLevel : 'Tier1';
    return psaMemberNumber === null ? [] : [{ userId: user.id, psaMemberNumber, tierLevel }];
  });
  if (members.length === 0) return false;
  const psaTeam = await client.createTeam(helpDesk.id, { name: DEMO_TEAM_NAME, memberIds: members.map((member) => member.psaMemberNumber) });
  await db.transaction(async (tx) => {
    const team = await insertTeam(tx, { mspId, name: DEMO_TEAM_NAME, psaType: 'CONNECTWISE', boardId: helpDesk.id, boardName: helpDesk.name, psaTeamId: psaTeam.id, createdAt: deps.now(), updatedAt: deps.now() });
    await insertTeamMembers(tx, mspId, team.id, members.map((member) => ({ userId: member.userId, tierLevel: member.tierLevel })));
  });
  return true;
}
