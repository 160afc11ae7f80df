import { MESSAGES, type TAddTeamMembersBody, type TCreateTeamBody, type TTeam, type TTeamMemberInput, type TUpdateTeamBody } from '@switchboard/contracts';
import type { PsaClient } from '@switchboard/psa';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TActor } from '../../plugins/access';
import { withPsaErrors } from '../integrations/psa-errors';
import { DB_PSA_TYPE } from '../psa-directory/psa-directory.repository';
import { psaMemberNumberOf } from './teams.policy';
import { presentTeam } from './teams.presenter';
import {
  deleteTeamMember,
  findActiveTechniciansByEmail,
  findTeam,
  insertTeam,
  insertTeamMembers,
  isTeamNameTaken,
  listMembersOfTeams,
  listTeams,
  updateTeamMemberTier,
  updateTeamName,
  type TTeamMemberTier,
  type TTeamRow,
} from './teams.repository';
import { userAuditFields } from '../../lib/audit';

type TMemberWithTier = { email: string; tierLevel: TTeamMemberTier };

const tierRequired = () => validation(MESSAGES.teams.tierRequired, [{ name: 'members', reason: MESSAGES.teams.tierRequired }]);
const nameTaken = () => conflict(MESSAGES.teams.nameTaken);

/** 01 §5: every member needs a tier before a team is saved. */
function withTiers(members: TTeamMemberInput[]): TMemberWithTier[] {
  return members.map((member) => {
    if (!member.tierLevel) throw tierRequired();
    return { email: member.email, tierLevel: member.tierLevel };
  });
}

/** Teams (02 §4, R-224–R-231): stored here and, on ConnectWise, mirrored as PSA board teams. */
export function createTeamsService(deps: TAppDeps) {
  const db = deps.database.db;
  const audit = (actor: TActor, action: string, target: string, details: Record<string, unknown>) =>
    deps.audit.record(db, { ...userAuditFields(actor), action, target, outcome: 'success', details });
  const psaOf = (actor: TActor): Promise<PsaClient> => deps.psaClients.forMsp(actor.mspId);
  // Autotask has no board teams of ConnectWise's kind (its queues have no member lists through the
  // REST API), so Autotask teams are kept in Switchboard only: no PSA call for them.
  const isMirrored = (team: Pick<TTeamRow, 'psaType' | 'psaTeamId'>) => team.psaType === 'CONNECTWISE' && team.psaTeamId !== null;

  async function load(actor: TActor, teamId: string): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    return presentTeam(team, await listMembersOfTeams(db, actor.mspId, [team.id]));
  }

  /** The technicians named by e-mail, each active and linked to a PSA member. */
  async function resolveMembers(actor: TActor, members: TMemberWithTier[]) {
    const found = await findActiveTechniciansByEmail(db, actor.mspId, members.map((member) => member.email));
    const byEmail = new Map(found.map((user) => [user.email.toLowerCase(), user]));
    return members.map((member) => {
      const user = byEmail.get(member.email.toLowerCase());
      if (!user) throw notFound();
      const psaMemberNumber = psaMemberNumberOf(user);
      if (psaMemberNumber === null) throw validation(MESSAGES.teams.memberNeedsPsa, [{ name: 'members', reason: MESSAGES.teams.memberNeedsPsa }]);
      return { user, psaMemberNumber, tierLevel: member.tierLevel };
    });
  }

  /** the MSP's teams with their members. */
  async function listForMsp(actor: TActor): Promise<TTeam[]> {
    const rows = await listTeams(db, actor.mspId);
    const members = await listMembersOfTeams(db, actor.mspId, rows.map((row) => row.id));
    return rows.map((row) => presentTeam(row, members));
  }

  /** one team of the MSP. */
  function getById(actor: TActor, teamId: string): Promise<TTeam> {
    return load(actor, teamId);
  }

  /** a board and a name are needed (01 §5); the PSA team is made first, then the local one. */
  async function create(actor: TActor, body: TCreateTeamBody): Promise<TTeam> {
    if (body.boardId === null || body.boardId === undefined) throw validation(MESSAGES.teams.boardRequired, [{ name: 'boardId', reason: MESSAGES.teams.boardRequired }]);
    const boardId = body.boardId;
    if (body.teamName === '') throw validation(MESSAGES.teams.nameRequired, [{ name: 'teamName', reason: MESSAGES.teams.nameRequired }]);
    const members = await resolveMembers(actor, withTiers(body.members));
    if (new Set(members.map((member) => member.user.id)).size !== members.length) throw conflict(MESSAGES.teams.alreadyMember);
    if (await isTeamNameTaken(db, actor.mspId, boardId, body.teamName)) throw nameTaken();
    const client = await psaOf(actor);
    const boards = await withPsaErrors(() => client.listBoards());
    const board = boards.find((candidate) => candidate.id === boardId);
    if (!board) throw validation(MESSAGES.teams.boardRequired, [{ name: 'boardId', reason: MESSAGES.teams.boardRequired }]);
    const psaType = DB_PSA_TYPE[client.psaType];
    const psaTeam = psaType === 'CONNECTWISE' ? await withPsaErrors(() => client.createTeam(board.id, { name: body.teamName, memberIds: members.map((member) => member.psaMemberNumber) })) : null;
    let created: TTeamRow;
    try {
      created = await db.transaction(async (tx) => {
        const team = await insertTeam(tx, { mspId: actor.mspId, name: body.teamName, psaType, boardId: board.id, boardName: board.name, psaTeamId: psaTeam?.id ?? null, createdAt: deps.now(), updatedAt: deps.now() });
        await insertTeamMembers(tx, actor.mspId, team.id, members.map((member) => ({ userId: member.user.id, tierLevel: member.tierLevel })));
        return team;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    await audit(actor, 'team.create', created.id, { name: created.name, boardId: created.boardId, psaTeamId: created.psaTeamId, members: members.map((member) => ({ userId: member.user.id, tierLevel: member.tierLevel })) });
    return load(actor, created.id);
  }

  /** adds members (Tier1 unless given, 02 §4); on ConnectWise the PSA team's member list first. */
  async function addMembers(actor: TActor, teamId: string, body: TAddTeamMembersBody): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    if (body.length === 0) throw validation(MESSAGES.teams.selectMembers, [{ name: 'members', reason: MESSAGES.teams.selectMembers }]);
    const added = await resolveMembers(actor, body.map((member) => ({ email: member.email, tierLevel: member.tierLevel ?? 'Tier1' })));
    const current = await listMembersOfTeams(db, actor.mspId, [team.id]);
    const currentIds = new Set(current.map((member) => member.user.id));
    if (added.some((member) => currentIds.has(member.user.id)) || new Set(added.map((member) => member.user.id)).size !== added.length) throw conflict(MESSAGES.teams.alreadyMember);
    const psaTeamId = team.psaTeamId;
    if (isMirrored(team) && psaTeamId !== null) {
      const memberIds = [...current.map((member) => psaMemberNumberOf(member.user)), ...added.map((member) => member.psaMemberNumber)].filter((id): id is number => id !== null);
      const client = await psaOf(actor);
      await withPsaErrors(() => client.updateTeam(team.boardId, psaTeamId, { memberIds }));
    }
    await insertTeamMembers(db, actor.mspId, team.id, added.map((member) => ({ userId: member.user.id, tierLevel: member.tierLevel })));
    await audit(actor, 'team.members_add', team.id, { members: added.map((member) => ({ userId: member.user.id, tierLevel: member.tierLevel })) });
    return load(actor, team.id);
  }

  /** removes the member with this e-mail. */
  async function removeMember(actor: TActor, teamId: string, email: string): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    const current = await listMembersOfTeams(db, actor.mspId, [team.id]);
    const leaving = current.find((member) => member.user.email.toLowerCase() === email.trim().toLowerCase());
    if (!leaving) throw notFound(MESSAGES.teams.notMember);
    const psaTeamId = team.psaTeamId;
    if (isMirrored(team) && psaTeamId !== null) {
      const memberIds = current.filter((member) => member !== leaving).map((member) => psaMemberNumberOf(member.user)).filter((id): id is number => id !== null);
      const client = await psaOf(actor);
      await withPsaErrors(() => client.updateTeam(team.boardId, psaTeamId, { memberIds }));
    }
    await deleteTeamMember(db, actor.mspId, team.id, leaving.user.id);
    await audit(actor, 'team.member_remove', team.id, { userId: leaving.user.id, email: leaving.user.email });
    return load(actor, team.id);
  }

  /** A-063: renames the team and/or sets its members' tiers (the edit-member dialog). */
  async function update(actor: TActor, teamId: string, body: TUpdateTeamBody): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    const tiers = withTiers(body.members);
    if (body.teamName !== undefined && body.teamName === '') throw validation(MESSAGES.teams.nameRequired, [{ name: 'teamName', reason: MESSAGES.teams.nameRequired }]);
    const current = await listMembersOfTeams(db, actor.mspId, [team.id]);
    const byEmail = new Map(current.map((member) => [member.user.email.toLowerCase(), member]));
    const changes = tiers.map((tier) => {
      const member = byEmail.get(tier.email.toLowerCase());
      if (!member) throw notFound(MESSAGES.teams.notMember);
      return { member, tierLevel: tier.tierLevel };
    });
    const newName = body.teamName !== undefined && body.teamName !== team.name ? body.teamName : null;
    if (newName !== null && (await isTeamNameTaken(db, actor.mspId, team.boardId, newName, team.id))) throw nameTaken();
    const psaTeamId = team.psaTeamId;
    if (newName !== null && isMirrored(team) && psaTeamId !== null) {
      const client = await psaOf(actor);
      await withPsaErrors(() => client.updateTeam(team.boardId, psaTeamId, { name: newName }));
    }
    try {
      await db.transaction(async (tx) => {
        if (newName !== null) await updateTeamName(tx, actor.mspId, team.id, newName, deps.now());
        for (const change of changes) await updateTeamMemberTier(tx, actor.mspId, team.id, change.member.user.id, change.tierLevel);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    await audit(actor, 'team.update', team.id, {
      ...(newName !== null ? { name: { before: team.name, after: newName } } : {}),
      tiers: changes.filter((change) => change.member.tierLevel !== change.tierLevel).map((change) => ({ userId: change.member.user.id, before: change.member.tierLevel, after: change.tierLevel })),
    });
    return load(actor, team.id);
  }

  return { listForMsp, getById, create, addMembers, removeMember, update };
}
