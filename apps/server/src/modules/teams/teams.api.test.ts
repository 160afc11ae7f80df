import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TTeam } from '@switchboard/contracts';
import type { PsaClient, TPsaType } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import { buildMsp, buildUser, signedInClient, type TTestMsp, type TTestUser } from '../../../test/factories';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withSimulatorApp } from '../../../test/psa-simulator';
import { newClient, nextIp } from '../auth/auth-test-helpers';

let t: TTestApp;
let sim: TPsaSimulator;
withSimulatorApp({}, (ready) => ({ t, sim } = ready));

const directClient = (psaType: TPsaType): PsaClient => simulatorPsaClient(sim, psaType, psaType === 'connectwise' ? 'direct-teams-cw' : 'direct-teams-at');

interface TSetup {
  msp: TTestMsp;
  admin: TestClient;
  direct: PsaClient;
  board: { id: number; name: string };
  techs: TTestUser[];
}

/** An MSP connected to the simulator with three technicians linked to real PSA members. */
async function connected(psaType: TPsaType): Promise<TSetup> {
  const { msp, admin } = await buildConnectedMsp(t, sim, psaType, { ip: nextIp() });
  const direct = directClient(psaType);
  const [board] = await direct.listBoards();
  const members = (await direct.listMembers()).slice(0, 3);
  if (!board || members.length < 3) throw new Error('the demo PSA needs a board and three members');
  const techs = await Promise.all(members.map((member, index) => buildUser(t, msp, { role: 'Technician', firstName: `Member${index}`, psaMemberId: String(member.id) })));
  return { msp, admin, direct, board: { id: board.id, name: board.name }, techs };
}

let teamCounter = 0;
const uniqueName = () => `Team ${Date.now().toString(36).slice(-5)}${teamCounter++}`;

async function createTeam(setup: TSetup, members: Array<{ email: string; tierLevel?: string | null }>, teamName = uniqueName()) {
  return setup.admin.post(`/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${setup.msp.customDomain}`, {
    mspCustomDomain: setup.msp.customDomain,
    teamName,
    boardId: setup.board.id,
    boardName: setup.board.name,
    members,
  });
}

describe('Teams on ConnectWise (mirrored as board teams)', () => {
  let setup: TSetup;
  beforeAll(async () => {
    setup = await connected('connectwise');
  });
  const [first, second, third] = [0, 1, 2];
  const tech = (index: number): TTestUser => {
    const found = setup.techs[index];
    if (!found) throw new Error('no such technician');
    return found;
  };
  const psaTeam = (team: TTeam) => {
    if (team.psaTeamId === null) throw new Error('team not mirrored');
    return setup.direct.updateTeam(setup.board.id, team.psaTeamId, {});
  };

  it('creates the team in the PSA and here, lists it and reads it by id', async () => {
    const name = uniqueName();
    const response = await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier2' }], name);
    expect(response.statusCode).toBe(201);
    const team = response.json<{ team: TTeam }>().team;
    expect(team).toMatchObject({ teamName: name, boardId: setup.board.id, boardName: setup.board.name, members: [{ email: tech(first).email, tierLevel: 'Tier2' }] });
    expect(await psaTeam(team)).toMatchObject({ name, memberIds: [Number(team.members[0]?.psaMemberId)] });

    const listed = (await setup.admin.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${setup.msp.customDomain}`)).json<{ teams: TTeam[] }>().teams;
    expect(listed.map((entry) => entry.teamName)).toContain(name);
    expect((await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json()).toEqual({ team });
  });

  it('words a missing board, name and tier, a technician without a PSA member, and a taken name', async () => {
    const post = (body: Record<string, unknown>) => setup.admin.post(`/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${setup.msp.customDomain}`, body);
    expect((await post({ teamName: 'No board', members: [] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.boardRequired });
    expect((await post({ teamName: 'Ghost board', boardId: 987654, members: [] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.boardRequired });
    // Past PostgreSQL's integer range: a 400 in plain words, not a database error (code review).
    expect((await post({ teamName: 'Huge board', boardId: 99_999_999_999, members: [] })).json()).toMatchObject({ status: 400, code: 'validation' });
    expect((await post({ boardId: setup.board.id, teamName: '  ', members: [] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.nameRequired });
    expect((await post({ boardId: setup.board.id, teamName: 'No tier', members: [{ email: tech(first).email }] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.tierRequired });
    const unlinked = await buildUser(t, setup.msp, { role: 'Technician' });
    expect((await post({ boardId: setup.board.id, teamName: 'Unlinked', members: [{ email: unlinked.email, tierLevel: 'Tier1' }] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.memberNeedsPsa });
    const name = uniqueName();
    expect((await createTeam(setup, [], name)).statusCode).toBe(201);
    expect((await createTeam(setup, [], name.toUpperCase())).json()).toMatchObject({ status: 409, detail: MESSAGES.teams.nameTaken });
  });

  it('adds members at Tier1 by default, in the PSA too, and refuses an empty selection or a member twice', async () => {
    const team = (await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier3' }])).json<{ team: TTeam }>().team;
    const added = await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: tech(second).email }, { email: tech(third).email, tierLevel: 'Tier2' }]);
    expect(added.statusCode).toBe(200);
    const after = added.json<{ team: TTeam }>().team;
    expect(Object.fromEntries(after.members.map((member) => [member.email, member.tierLevel]))).toEqual({ [tech(first).email]: 'Tier3', [tech(second).email]: 'Tier1', [tech(third).email]: 'Tier2' });
    expect((await psaTeam(after)).memberIds.sort()).toEqual(after.members.map((member) => Number(member.psaMemberId)).sort());
    expect((await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [])).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.selectMembers });
    expect((await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: tech(second).email }])).json()).toMatchObject({ status: 409, detail: MESSAGES.teams.alreadyMember });
  });

  it('two adds at once both reach the PSA team, and a double-clicked Add is a 409, not a 500 (regression: the member list was read before the other add wrote)', async () => {
    const team = (await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier1' }])).json<{ team: TTeam }>().team;
    const add = (email: string) => setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email }]);
    // A slow PSA keeps both requests in flight together, as two admins' clicks a moment apart would be.
    sim.faults.set({ latencyMs: 150 });
    try {
      const together = await Promise.all([add(tech(second).email), add(tech(third).email)]);
      expect(together.map((response) => response.statusCode)).toEqual([200, 200]);
      const stored = (await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json<{ team: TTeam }>().team;
      expect(stored.members.map((member) => member.email).sort()).toEqual([tech(first).email, tech(second).email, tech(third).email].sort());
      expect((await psaTeam(team)).memberIds.sort()).toEqual(stored.members.map((member) => Number(member.psaMemberId)).sort());

      const other = (await createTeam(setup, [])).json<{ team: TTeam }>().team;
      const twice = await Promise.all([1, 2].map(() => setup.admin.put(`/psa/api/teams/addMembers/${other.id}`, [{ email: tech(first).email }])));
      expect(twice.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      expect(twice.find((response) => response.statusCode === 409)?.json()).toMatchObject({ code: 'conflict', detail: MESSAGES.teams.alreadyMember });
      const once = (await setup.admin.get(`/db/api/teams/getById/${other.id}`)).json<{ team: TTeam }>().team;
      expect(once.members.map((member) => member.email)).toEqual([tech(first).email]);
      expect((await psaTeam(other)).memberIds).toEqual([Number(once.members[0]?.psaMemberId)]);
    } finally {
      sim.faults.set({ latencyMs: 0 });
    }
  });

  it('a PSA that refuses the member list leaves the team as it was, here too', async () => {
    const team = (await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier1' }])).json<{ team: TTeam }>().team;
    sim.faults.failNext({ kind: 400, pathPrefix: `/v4_6_release/apis/3.0/service/boards/${setup.board.id}/teams` });
    try {
      const refused = await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: tech(second).email }]);
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
    } finally {
      sim.faults.reset();
    }
    const stored = (await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json<{ team: TTeam }>().team;
    expect(stored.members.map((member) => member.email)).toEqual([tech(first).email]);
    expect((await psaTeam(team)).memberIds).toEqual([Number(stored.members[0]?.psaMemberId)]);
    // Sent again once the PSA takes it, it lands.
    const added = await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: tech(second).email }]);
    expect(added.statusCode).toBe(200);
    const members = added.json<{ team: TTeam }>().team.members;
    expect(members).toHaveLength(2);
    expect((await psaTeam(team)).memberIds.sort()).toEqual(members.map((member) => Number(member.psaMemberId)).sort());
  });

  it('changes a member’s tier and the team name; every listed member needs a tier', async () => {
    const team = (await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier1' }])).json<{ team: TTeam }>().team;
    const newName = uniqueName();
    const updated = await setup.admin.put(`/psa/api/teams/update/${team.id}`, { teamName: newName, members: [{ email: tech(first).email, tierLevel: 'Tier3' }] });
    expect(updated.json()).toMatchObject({ team: { teamName: newName, members: [{ email: tech(first).email, tierLevel: 'Tier3' }] } });
    expect((await psaTeam(team)).name).toBe(newName);
    expect((await setup.admin.put(`/psa/api/teams/update/${team.id}`, { members: [{ email: tech(first).email, tierLevel: null }] })).json()).toMatchObject({ status: 400, detail: MESSAGES.teams.tierRequired });
    expect((await setup.admin.put(`/psa/api/teams/update/${team.id}`, { members: [{ email: tech(second).email, tierLevel: 'Tier2' }] })).json()).toMatchObject({ status: 404, detail: MESSAGES.teams.notMember });
    expect((await setup.admin.put(`/psa/api/teams/update/${team.id}`, { members: [{ email: tech(first).email, tierLevel: 'NoTier' }] })).statusCode).toBe(400);
    expect((await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json()).toMatchObject({ team: { members: [{ tierLevel: 'Tier3' }] } });
  });

  it('removes a member here and in the PSA', async () => {
    const team = (await createTeam(setup, [{ email: tech(first).email, tierLevel: 'Tier1' }, { email: tech(second).email, tierLevel: 'Tier1' }])).json<{ team: TTeam }>().team;
    const removed = await setup.admin.delete(`/psa/api/teams/removeMember/${team.id}?emailId=${encodeURIComponent(tech(first).email)}`);
    expect(removed.json<{ team: TTeam }>().team.members.map((member) => member.email)).toEqual([tech(second).email]);
    expect((await psaTeam(team)).memberIds).toEqual([Number(removed.json<{ team: TTeam }>().team.members[0]?.psaMemberId)]);
    expect((await setup.admin.delete(`/psa/api/teams/removeMember/${team.id}?emailId=${encodeURIComponent(tech(first).email)}`)).json()).toMatchObject({ status: 404, detail: MESSAGES.teams.notMember });
  });

  it('hides other tenants’ teams (404) and refuses without permission, session or CSRF header', async () => {
    const team = (await createTeam(setup, [])).json<{ team: TTeam }>().team;
    const other = await buildMsp(t);
    const stranger = await signedInClient(t, await buildUser(t, other), nextIp());
    expect((await stranger.get(`/db/api/teams/getById/${team.id}`)).statusCode).toBe(404);
    expect((await stranger.put(`/psa/api/teams/update/${team.id}`, { teamName: 'Stolen' })).statusCode).toBe(404);
    expect((await stranger.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: tech(first).email }])).statusCode).toBe(404);
    expect((await stranger.delete(`/psa/api/teams/removeMember/${team.id}?emailId=a@example.com`)).statusCode).toBe(404);
    expect((await setup.admin.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${other.customDomain}`)).statusCode).toBe(404);
    expect((await setup.admin.post(`/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${setup.msp.customDomain}`, { mspCustomDomain: other.customDomain, teamName: 'X', boardId: setup.board.id })).statusCode).toBe(404);
    expect((await stranger.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${other.customDomain}`)).json()).toEqual({ teams: [] });

    const technician = await signedInClient(t, tech(first), nextIp());
    expect((await technician.get(`/db/api/teams/getById/${team.id}`)).statusCode).toBe(403);
    expect((await technician.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${setup.msp.customDomain}`)).statusCode).toBe(403);
    expect((await technician.put(`/psa/api/teams/update/${team.id}`, { teamName: 'Mine' })).statusCode).toBe(403);
    expect((await newClient(t).get(`/db/api/teams/getById/${team.id}`)).statusCode).toBe(401);
    expect((await newClient(t).put(`/psa/api/teams/addMembers/${team.id}`, [])).statusCode).toBe(401);
    expect((await setup.admin.put(`/psa/api/teams/update/${team.id}`, { teamName: 'No csrf' }, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await setup.admin.delete(`/psa/api/teams/removeMember/${team.id}?emailId=a@example.com`, { csrf: false })).json()).toMatchObject({ code: 'csrf' });
    expect((await setup.admin.get(`/db/api/teams/getById/not-a-uuid`)).statusCode).toBe(400);
    expect((await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json()).toMatchObject({ team: { teamName: team.teamName } });
  });
});

describe('Teams on Autotask (kept in Switchboard only)', () => {
  it('creates, fills, re-tiers and empties a team without a PSA team', async () => {
    const setup = await connected('autotask');
    const [one, two] = setup.techs;
    if (!one || !two) throw new Error('no technicians');
    const created = await createTeam(setup, [{ email: one.email, tierLevel: 'Tier2' }]);
    expect(created.statusCode).toBe(201);
    const team = created.json<{ team: TTeam }>().team;
    expect(team).toMatchObject({ psaTeamId: null, boardId: setup.board.id, members: [{ email: one.email, tierLevel: 'Tier2', connectWiseTechnicanId: null }] });
    expect((await setup.admin.put(`/psa/api/teams/addMembers/${team.id}`, [{ email: two.email }])).json<{ team: TTeam }>().team.members).toHaveLength(2);
    expect((await setup.admin.put(`/psa/api/teams/update/${team.id}`, { members: [{ email: two.email, tierLevel: 'Tier3' }] })).json<{ team: TTeam }>().team.members.find((member) => member.email === two.email)?.tierLevel).toBe('Tier3');
    expect((await setup.admin.delete(`/psa/api/teams/removeMember/${team.id}?emailId=${encodeURIComponent(one.email)}`)).json<{ team: TTeam }>().team.members.map((member) => member.email)).toEqual([two.email]);
  });

  // Regression (review s26 #4): a deactivated technician stays on the team (removed from the PSA team only by hand),
  // but the Team screen could not tell them from the others: the member carried no isActive.
  it('says which members are inactive, and again active once restored', async () => {
    const setup = await connected('autotask');
    const [leaving, staying] = setup.techs;
    if (!leaving || !staying) throw new Error('no technicians');
    const team = (await createTeam(setup, [{ email: leaving.email, tierLevel: 'Tier1' }, { email: staying.email, tierLevel: 'Tier2' }])).json<{ team: TTeam }>().team;
    expect(team.members.map((member) => member.isActive)).toEqual([true, true]);
    expect((await setup.admin.get(`/db/${setup.msp.customDomain}/technicianUsers/delete?id=${leaving.id}`)).statusCode).toBe(200);
    const activeOf = (listed: TTeam) => Object.fromEntries(listed.members.map((member) => [member.email, member.isActive]));
    expect(activeOf((await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json<{ team: TTeam }>().team)).toEqual({ [leaving.email]: false, [staying.email]: true });
    const listed = (await setup.admin.get(`/db/api/teams/getByMspCustomDomain?mspCustomDomain=${setup.msp.customDomain}`)).json<{ teams: TTeam[] }>().teams;
    expect(activeOf(listed.find((entry) => entry.id === team.id) ?? team)).toEqual({ [leaving.email]: false, [staying.email]: true });
    expect((await setup.admin.post(`/db/${setup.msp.customDomain}/technicianUsers/restore?id=${leaving.id}`)).statusCode).toBe(200);
    expect(activeOf((await setup.admin.get(`/db/api/teams/getById/${team.id}`)).json<{ team: TTeam }>().team)).toEqual({ [leaving.email]: true, [staying.email]: true });
  });

  it('needs a connected PSA to create a team', async () => {
    const msp = await buildMsp(t);
    const admin = await signedInClient(t, await buildUser(t, msp), nextIp());
    const response = await admin.post(`/psa/addTeamInConnectWiseAndAutopilot?mspCustomDomain=${msp.customDomain}`, { teamName: 'Team', boardId: 1, boardName: 'Board' });
    expect(response.json()).toMatchObject({ status: 409, code: 'psa_not_configured' });
  });
});
