import { MESSAGES, type TAddTeamMembersBody, type TCreateTeamBody, type TTeam, type TTeamMemberInput, type TUpdateTeamBody } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
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
  lockTeam,
  listMembersOfTeams,
  listTeams,
  updateTeamMemberTier,
  updateTeamName,
  type TTeamMemberRow,
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
/** How many times a team's member list is sent while other changes keep landing between the read and the send. */
const MEMBER_LIST_ROUNDS = 4;

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

  /**
   * Changes a team's member list. ConnectWise replaces a board team's whole member list, so two changes at once must not
   * each send a list without the other's member. The change here is made under the lock of the team's row and committed;
   * then the list as it stands is sent to the PSA, and sent again while it changed meanwhile (another change committed
   * between the read and the send), so the last list sent holds both. No network call runs inside the transaction
   * (ARCHITECTURE): a PSA that refuses undoes this change here instead, in a transaction of its own.
   */
  async function changeMembers(actor: TActor, team: TTeamRow, change: (tx: TDatabase, team: TTeamRow, current: TTeamMemberRow[]) => Promise<(tx: TDatabase) => Promise<void>>): Promise<void> {
    const undo = await db.transaction(async (tx) => {
      const locked = await lockTeam(tx, actor.mspId, team.id);
      if (!locked) throw notFound();
      return change(tx, locked, await listMembersOfTeams(tx, actor.mspId, [locked.id]));
    });
    const psaTeamId = team.psaTeamId;
    if (!isMirrored(team) || psaTeamId === null) return;
    try {
      const client = await psaOf(actor);
      let sent: string | null = null;
      for (let round = 0; round < MEMBER_LIST_ROUNDS; round += 1) {
        const memberIds = psaMemberIdsOf((await listMembersOfTeams(db, actor.mspId, [team.id])).map((member) => member.user)).sort((a, b) => a - b);
        if (memberIds.join(',') === sent) return;
        await withPsaErrors(() => client.updateTeam(team.boardId, psaTeamId, { memberIds }));
        sent = memberIds.join(',');
      }
    } catch (error) {
      await db.transaction(undo);
      throw error;
    }
  }

  const psaMemberIdsOf = (users: Array<TTeamMemberRow['user']>) => users.map((user) => psaMemberNumberOf(user)).filter((id): id is number => id !== null);

  /** adds members (Tier1 unless given, 02 §4); on ConnectWise to the PSA team's member list too. */
  async function addMembers(actor: TActor, teamId: string, body: TAddTeamMembersBody): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    if (body.length === 0) throw validation(MESSAGES.teams.selectMembers, [{ name: 'members', reason: MESSAGES.teams.selectMembers }]);
    const added = await resolveMembers(actor, body.map((member) => ({ email: member.email, tierLevel: member.tierLevel ?? 'Tier1' })));
    if (new Set(added.map((member) => member.user.id)).size !== added.length) throw conflict(MESSAGES.teams.alreadyMember);
    const members = added.map((member) => ({ userId: member.user.id, tierLevel: member.tierLevel }));
    try {
      await changeMembers(actor, team, async (tx, locked, current) => {
        const currentIds = new Set(current.map((member) => member.user.id));
        if (added.some((member) => currentIds.has(member.user.id))) throw conflict(MESSAGES.teams.alreadyMember);
        await insertTeamMembers(tx, actor.mspId, locked.id, members);
        await deps.audit.record(tx, { ...userAuditFields(actor), action: 'team.members_add', target: locked.id, outcome: 'success', details: { members } });
        return async (undoTx) => {
          for (const member of members) await deleteTeamMember(undoTx, actor.mspId, locked.id, member.userId);
          await deps.audit.record(undoTx, { ...userAuditFields(actor), action: 'team.members_add', target: locked.id, outcome: 'failure', details: { members, reason: 'The PSA refused the team’s member list; the members were not added.' } });
        };
      });
    } catch (error) {
      // The lock makes a repeat see the member first; the key still answers for a path that gets past it.
      if (isUniqueViolation(error)) throw conflict(MESSAGES.teams.alreadyMember);
      throw error;
    }
    return load(actor, team.id);
  }

  /** removes the member with this e-mail. */
  async function removeMember(actor: TActor, teamId: string, email: string): Promise<TTeam> {
    const team = await findTeam(db, actor.mspId, teamId);
    if (!team) throw notFound();
    await changeMembers(actor, team, async (tx, locked, current) => {
      const leaving = current.find((member) => member.user.email.toLowerCase() === email.trim().toLowerCase());
      if (!leaving) throw notFound(MESSAGES.teams.notMember);
      await deleteTeamMember(tx, actor.mspId, locked.id, leaving.user.id);
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'team.member_remove', target: locked.id, outcome: 'success', details: { userId: leaving.user.id, email: leaving.user.email } });
      return async (undoTx) => {
        await insertTeamMembers(undoTx, actor.mspId, locked.id, [{ userId: leaving.user.id, tierLevel: leaving.tierLevel }]);
        await deps.audit.record(undoTx, { ...userAuditFields(actor), action: 'team.member_remove', target: locked.id, outcome: 'failure', details: { userId: leaving.user.id, email: leaving.user.email, reason: 'The PSA refused the team’s member list; the member was not removed.' } });
      };
    });
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
