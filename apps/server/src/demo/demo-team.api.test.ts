import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TTeam } from '@switchboard/contracts';
import { users } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { signedInClient } from '../../test/factories';
import type { TTestApp } from '../../test/test-app';
import { simulatorPsaClient, withSimulatorApp } from '../../test/psa-simulator';
import { DEMO_MSP, seedDemoMsp } from './seed-demo';
import { DEMO_TEAM_NAME, seedDemoTeam } from './demo-team';

let t: TTestApp;
let sim: TPsaSimulator;
let mspId: string;

withSimulatorApp({}, (ready) => ({ t, sim } = ready));
beforeAll(async () => {
  mspId = (await seedDemoMsp(t.deps, { simulatorUrl: sim.url })).mspId;
}, 120_000);

describe('the onboarded demo MSP has a team (issue #7 "The demo")', () => {
  it('puts the demo technicians on a Help Desk team at their tiers, here and at the PSA, once', async () => {
    expect(await seedDemoTeam(t.deps, mspId)).toBe(true);
    expect(await seedDemoTeam(t.deps, mspId)).toBe(false);

    const [admin] = await t.deps.database.db.select().from(users).where(and(eq(users.mspId, mspId), eq(users.email, 'samuel.whitaker@northwind-it.example')));
    if (!admin) throw new Error('demo admin missing');
    const client = await signedInClient(t, { id: admin.id, mspId, email: admin.email, password: '', kind: 'technician', roleId: admin.roleId });
    const listed = await client.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${DEMO_MSP.customDomain}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const teams = listed.json<{ teams: TTeam[] }>().teams;
    expect(teams.map((team) => [team.teamName, team.boardName])).toEqual([[DEMO_TEAM_NAME, 'Help Desk']]);
    const [team] = teams;
    expect(team?.members.map((member) => [member.email, member.tierLevel]).sort()).toEqual([
      ['jordan.avila@northwind-it.example', 'Tier1'],
      ['samuel.whitaker@northwind-it.example', 'Tier3'],
      ['tomasz.nowak@northwind-it.example', 'Tier2'],
    ]);

    // The board team exists in the PSA with the same members.
    if (!team?.psaTeamId) throw new Error('the demo team is not mirrored at the PSA');
    const atPsa = await simulatorPsaClient(sim, 'connectwise', 'demo-team-direct').updateTeam(team.boardId, team.psaTeamId, {});
    expect(atPsa.name).toBe(DEMO_TEAM_NAME);
    expect([...atPsa.memberIds].sort()).toEqual(team.members.map((member) => Number(member.psaMemberId)).sort());
  });
});
