import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute, TSimRequest, TSimResponse } from '../http';
import type { SimStore, TSimBoard, TSimBoardTeam } from '../store';
import { CW_API_PREFIX, cwInvalidObject, cwNotFound, itemResponse, listResponse, readObjectBody } from './common';
import type { TCwRecord, TCwValidationError } from './common';
import { applyPatch, parsePatchOperations } from './json-patch';

// Board teams (`service/boards/{id}/teams`, model BoardTeam): a named group of members that tickets can be dispatched to.

const TEAM_NAME_MAX = 30;

function presentTeam(store: SimStore, team: TSimBoardTeam): TCwRecord {
  const leader = team.leaderId === null ? undefined : store.members.get(team.leaderId);
  const presented: TCwRecord = {
    id: team.id,
    name: team.name,
    members: team.memberIds,
    defaultFlag: team.isDefault,
    notifyOnTicketDelete: team.notifyOnTicketDelete,
    boardId: team.boardId,
    locationId: 1,
    businessUnitId: 1,
    _info: {},
  };
  if (leader) presented.teamLeader = { id: leader.id, identifier: leader.identifier, name: `${leader.firstName} ${leader.lastName}` };
  return presented;
}

/** Reads a BoardTeam body; `base` supplies the values a PATCH leaves alone. */
function readTeam(store: SimStore, board: TSimBoard, body: Record<string, unknown>, base: TSimBoardTeam | null): Omit<TSimBoardTeam, 'id'> | { errors: TCwValidationError[] } {
  const errors: TCwValidationError[] = [];
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') errors.push({ code: 'MissingRequiredField', message: 'name is required.', resource: 'boardTeam', field: 'name' });
  else if (name.length > TEAM_NAME_MAX) errors.push({ code: 'InvalidField', message: `name must be at most ${TEAM_NAME_MAX} characters.`, resource: 'boardTeam', field: 'name' });
  const sameName = [...store.boardTeams.all()].find((team) => team.boardId === board.id && team.name.toLowerCase() === name.toLowerCase() && team.id !== base?.id);
  if (sameName) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardTeam', field: 'name' });
  let leaderId: number | null = base?.leaderId ?? null;
  if (body.teamLeader === null) leaderId = null;
  else if (isRecord(body.teamLeader)) {
    const reference = body.teamLeader;
    const leader = typeof reference.id === 'number' ? store.members.get(reference.id) : [...store.members.all()].find((member) => member.identifier === reference.identifier);
    if (!leader) errors.push({ code: 'InvalidObject', message: `Member ${JSON.stringify(reference)} was not found.`, resource: 'boardTeam', field: 'teamLeader' });
    else leaderId = leader.id;
  }
  const requestedMembers = Array.isArray(body.members) ? body.members : base?.memberIds ?? [];
  const memberIds = requestedMembers.filter((value): value is number => typeof value === 'number');
  const unknown = memberIds.filter((id) => !store.members.get(id));
  if (unknown.length > 0 || memberIds.length !== requestedMembers.length) {
    errors.push({ code: 'InvalidObject', message: `Members ${unknown.join(', ')} were not found; members must be member ids.`, resource: 'boardTeam', field: 'members' });
  }
  if (errors.length > 0) return { errors };
  return {
    boardId: board.id,
    name,
    leaderId,
    memberIds: [...new Set(memberIds)],
    isDefault: typeof body.defaultFlag === 'boolean' ? body.defaultFlag : (base?.isDefault ?? false),
    notifyOnTicketDelete: typeof body.notifyOnTicketDelete === 'boolean' ? body.notifyOnTicketDelete : (base?.notifyOnTicketDelete ?? false),
  };
}

export function connectWiseTeamRoutes(context: TSimContext): TRoute[] {
  const store = (): SimStore => context.store;
  const base = `${CW_API_PREFIX}/service/boards/{id}/teams`;
  const withBoard = (params: string[], handle: (board: TSimBoard) => TSimResponse): TSimResponse => {
    const board = store().boards.get(idParam(params));
    return board ? handle(board) : cwNotFound('Board', idParam(params));
  };
  const withTeam = (params: string[], handle: (board: TSimBoard, team: TSimBoardTeam) => TSimResponse): TSimResponse =>
    withBoard(params, (board) => {
      const team = store().boardTeams.get(idParam(params, 1));
      return team && team.boardId === board.id ? handle(board, team) : cwNotFound('BoardTeam', idParam(params, 1));
    });
  const teamsOf = (board: TSimBoard): TCwRecord[] => [...store().boardTeams.all()].filter((team) => team.boardId === board.id).map((team) => presentTeam(store(), team));
  const save = (request: TSimRequest, board: TSimBoard, body: Record<string, unknown>, existing: TSimBoardTeam): TSimResponse => {
    const result = readTeam(store(), board, body, existing);
    if ('errors' in result) return cwInvalidObject('boardTeam', result.errors);
    return itemResponse(request, presentTeam(store(), store().boardTeams.put({ ...result, id: existing.id })));
  };
  return [
    route('GET', base, (request, params) => withBoard(params, (board) => listResponse(request, teamsOf(board)))),
    route('GET', `${base}/{id}`, (request, params) => withTeam(params, (_board, team) => itemResponse(request, presentTeam(store(), team)))),
    route('POST', base, (request, params) =>
      withBoard(params, (board) => {
        const parsed = readObjectBody(request, 'boardTeam');
        if ('response' in parsed) return parsed.response;
        const result = readTeam(store(), board, parsed.body, null);
        if ('errors' in result) return cwInvalidObject('boardTeam', result.errors);
        const team = store().boardTeams.insert(result);
        countCreate(context);
        return json(201, presentTeam(store(), team));
      }),
    ),
    route('PATCH', `${base}/{id}`, (request, params) =>
      withTeam(params, (board, team) => {
        const operations = parsePatchOperations(request.body, 'boardTeam');
        if ('errors' in operations) return cwInvalidObject('boardTeam', operations.errors);
        return save(request, board, applyPatch(presentTeam(store(), team), operations), team);
      }),
    ),
    route('PUT', `${base}/{id}`, (request, params) =>
      withTeam(params, (board, team) => {
        const parsed = readObjectBody(request, 'boardTeam');
        if ('response' in parsed) return parsed.response;
        return save(request, board, { members: [], teamLeader: null, ...parsed.body }, team);
      }),
    ),
    route('DELETE', `${base}/{id}`, (_request, params) =>
      withTeam(params, (_board, team) => {
        store().boardTeams.delete(team.id);
        return { status: 204 };
      }),
    ),
  ];
}
