import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute, TSimResponse } from '../http';
import type { SimTable, TSimBoard, TSimBoardSubType, TSimTicket } from '../store';
import { CW_API_PREFIX, cwError, cwInvalidObject, cwNotFound, itemResponse, listResponse, readObjectBody } from './common';
import { applyPatch, parsePatchOperations } from './json-patch';
import type { TCwRecord, TCwValidationError } from './common';
import { presentBoard, presentPriority, presentSource, presentStatus } from './presenters';

const NAME_MAX = 50;

function requireName(body: Record<string, unknown>, resource: string, errors: TCwValidationError[], field = 'name'): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') errors.push({ code: 'MissingRequiredField', message: `${field} is required.`, resource, field });
  else if (value.length > NAME_MAX) errors.push({ code: 'InvalidField', message: `${field} must be at most ${NAME_MAX} characters.`, resource, field });
  return typeof value === 'string' ? value.trim() : '';
}

function isDuplicateName(rows: Iterable<{ name: string }>, name: string): boolean {
  for (const row of rows) if (row.name.toLowerCase() === name.toLowerCase()) return true;
  return false;
}

function referenceId(value: unknown): number | null {
  return isRecord(value) && typeof value.id === 'number' ? value.id : null;
}

interface TChildResource<TRow extends { id: number; boardId: number }> {
  segment: string;
  resource: string;
  table: (context: TSimContext) => SimTable<TRow>;
  present: (row: TRow, board: TSimBoard) => TCwRecord;
  /** Validates a body (POST) and inserts the row. */
  create: (body: Record<string, unknown>, board: TSimBoard) => TRow | TCwValidationError[];
  /** Validates a full body (PUT, or the patched record of a PATCH) against the existing row and returns the new row. */
  update: (body: Record<string, unknown>, existing: TRow, board: TSimBoard) => TRow | TCwValidationError[];
  /** Whether a ticket references the row; deleting a row in use answers 409 Conflict. */
  isInUse: (row: TRow) => boolean;
}

/** GET list, GET count, GET by id, POST, PATCH (JSON-Patch), PUT and DELETE for a resource nested under a board. */
function boardChildRoutes<TRow extends { id: number; boardId: number }>(context: TSimContext, child: TChildResource<TRow>): TRoute[] {
  const { segment, resource, table, present, create } = child;
  const base = `${CW_API_PREFIX}/service/boards/{id}/${segment}`;
  const rowsOf = (board: TSimBoard): TCwRecord[] => [...table(context).all()].filter((row) => row.boardId === board.id).map((row) => present(row, board));
  const withBoard = (params: string[], handle: (board: TSimBoard) => TSimResponse): TSimResponse => {
    const board = context.store.boards.get(idParam(params));
    return board ? handle(board) : cwNotFound('Board', idParam(params));
  };
  return [
    route('GET', base, (request, params) => withBoard(params, (board) => listResponse(request, rowsOf(board)))),
    route('GET', `${base}/{id}`, (request, params) =>
      withBoard(params, (board) => {
        const row = table(context).get(idParam(params, 1));
        return row && row.boardId === board.id ? itemResponse(request, present(row, board)) : cwNotFound(resource, idParam(params, 1));
      }),
    ),
    route('POST', base, (request, params) =>
      withBoard(params, (board) => {
        const parsed = readObjectBody(request, resource);
        if ('response' in parsed) return parsed.response;
        const created = create(parsed.body, board);
        if (Array.isArray(created)) return cwInvalidObject(resource, created);
        countCreate(context);
        return json(201, present(created, board));
      }),
    ),
    ...(['PATCH', 'PUT'] as const).map((method) =>
      route(method, `${base}/{id}`, (request, params) =>
        withBoard(params, (board) => {
          const row = table(context).get(idParam(params, 1));
          if (!row || row.boardId !== board.id) return cwNotFound(resource, idParam(params, 1));
          let body: Record<string, unknown>;
          if (method === 'PATCH') {
            const operations = parsePatchOperations(request.body, resource);
            if ('errors' in operations) return cwInvalidObject(resource, operations.errors);
            body = applyPatch(present(row, board), operations);
          } else {
            const parsed = readObjectBody(request, resource);
            if ('response' in parsed) return parsed.response;
            body = parsed.body;
          }
          const updated = child.update(body, row, board);
          if (Array.isArray(updated)) return cwInvalidObject(resource, updated);
          return json(200, present(table(context).put(updated), board));
        }),
      ),
    ),
    route('DELETE', `${base}/{id}`, (_request, params) =>
      withBoard(params, (board) => {
        const row = table(context).get(idParam(params, 1));
        if (!row || row.boardId !== board.id) return cwNotFound(resource, idParam(params, 1));
        if (child.isInUse(row)) return cwError(409, 'Conflict', `The ${resource} is in use by tickets and cannot be deleted.`);
        table(context).delete(row.id);
        return { status: 204 };
      }),
    ),
  ];
}

function ticketUses(context: TSimContext, matches: (ticket: TSimTicket) => boolean): boolean {
  for (const ticket of context.store.tickets.all()) if (matches(ticket)) return true;
  return false;
}

function isNameTaken(rows: Iterable<{ id: number; boardId: number; name: string }>, boardId: number, name: string, exceptId: number | null): boolean {
  for (const row of rows) if (row.boardId === boardId && row.id !== exceptId && row.name.toLowerCase() === name.toLowerCase()) return true;
  return false;
}

export function connectWiseBoardRoutes(context: TSimContext): TRoute[] {
  const store = (): TSimContext['store'] => context.store;
  const boards = `${CW_API_PREFIX}/service/boards`;
  const presentedBoards = (): TCwRecord[] => [...store().boards.all()].map((board) => presentBoard(store(), board));
  const readSubType = (body: Record<string, unknown>, board: TSimBoard, exceptId: number | null): Omit<TSimBoardSubType, 'id'> | TCwValidationError[] => {
    const errors: TCwValidationError[] = [];
    const name = requireName(body, 'boardSubType', errors);
    const boardTypeIds = [...store().boardTypes.all()].filter((row) => row.boardId === board.id).map((row) => row.id);
    const requested = Array.isArray(body.typeAssociationIds) ? body.typeAssociationIds.filter((value): value is number => typeof value === 'number') : [];
    const unknown = requested.filter((id) => !boardTypeIds.includes(id));
    if (unknown.length > 0) errors.push({ code: 'InvalidObject', message: `Types ${unknown.join(', ')} are not on this board.`, resource: 'boardSubType', field: 'typeAssociationIds' });
    if (name !== '' && isNameTaken(store().boardSubTypes.all(), board.id, name, exceptId)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardSubType', field: 'name' });
    const typeIds = body.removeAllTypesFlag === true ? [] : body.addAllTypesFlag === true ? boardTypeIds : requested;
    return errors.length > 0 ? errors : { boardId: board.id, name, typeIds, isActive: body.inactiveFlag !== true };
  };
  // Autotask's status picklist is global: New is 1, Complete is 5, and other statuses take the next free value from 7.
  const nextAutotaskStatusValue = (isNew: boolean, isClosed: boolean): number => {
    if (isNew) return 1;
    if (isClosed) return 5;
    const usedValues = new Set([...store().statuses.all()].map((row) => row.autotaskValue));
    let value = 7;
    while (usedValues.has(value)) value += 1;
    return value;
  };
  return [
    route('GET', boards, (request) => listResponse(request, presentedBoards())),
    route('GET', `${boards}/{id}`, (request, params) => {
      const board = store().boards.get(idParam(params));
      return board ? itemResponse(request, presentBoard(store(), board)) : cwNotFound('Board', idParam(params));
    }),
    route('PATCH', `${boards}/{id}`, (request, params) => {
      const board = store().boards.get(idParam(params));
      if (!board) return cwNotFound('Board', idParam(params));
      const operations = parsePatchOperations(request.body, 'board');
      if ('errors' in operations) return cwInvalidObject('board', operations.errors);
      const patched = applyPatch(presentBoard(store(), board), operations);
      const errors: TCwValidationError[] = [];
      const name = requireName(patched, 'board', errors);
      if (name !== '' && [...store().boards.all()].some((other) => other.id !== board.id && other.name.toLowerCase() === name.toLowerCase())) {
        errors.push({ code: 'ObjectExists', message: 'The name is already in use.', resource: 'board', field: 'name' });
      }
      const locationId = referenceId(patched.location) ?? board.locationId;
      const departmentId = referenceId(patched.department) ?? board.departmentId;
      if (locationId !== null && !store().locations.get(locationId)) errors.push({ code: 'InvalidObject', message: `Location ${locationId} was not found.`, resource: 'board', field: 'location' });
      if (departmentId !== null && !store().departments.get(departmentId)) errors.push({ code: 'InvalidObject', message: `Department ${departmentId} was not found.`, resource: 'board', field: 'department' });
      if (errors.length > 0) return cwInvalidObject('board', errors);
      const updated = store().boards.put({ ...board, name, locationId, departmentId, isActive: patched.inactiveFlag !== true });
      return json(200, presentBoard(store(), updated));
    }),
    route('POST', boards, (request) => {
      const parsed = readObjectBody(request, 'board');
      if ('response' in parsed) return parsed.response;
      const errors: TCwValidationError[] = [];
      const name = requireName(parsed.body, 'board', errors);
      if (name !== '' && isDuplicateName(store().boards.all(), name)) errors.push({ code: 'ObjectExists', message: 'The name is already in use.', resource: 'board', field: 'name' });
      const locationId = referenceId(parsed.body.location) ?? 1;
      const departmentId = referenceId(parsed.body.department) ?? 1;
      if (!store().locations.get(locationId)) errors.push({ code: 'InvalidObject', message: `Location ${locationId} was not found.`, resource: 'board', field: 'location' });
      if (!store().departments.get(departmentId)) errors.push({ code: 'InvalidObject', message: `Department ${departmentId} was not found.`, resource: 'board', field: 'department' });
      if (errors.length > 0) return cwInvalidObject('board', errors);
      const board = store().boards.insert({ name, locationId, departmentId, isActive: parsed.body.inactiveFlag !== true });
      countCreate(context);
      return json(201, presentBoard(store(), board));
    }),
    ...boardChildRoutes(context, {
      segment: 'types',
      resource: 'boardType',
      table: (current) => current.store.boardTypes,
      present: (type, board) => ({ id: type.id, name: type.name, category: 'Reactive', defaultFlag: false, inactiveFlag: !type.isActive, requestForChangeFlag: false, integrationXref: '', board: { id: board.id, name: board.name }, _info: {} }),
      create: (body, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardType', errors);
        if (name !== '' && isNameTaken(store().boardTypes.all(), board.id, name, null)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardType', field: 'name' });
        return errors.length > 0 ? errors : store().boardTypes.insert({ boardId: board.id, name, isActive: body.inactiveFlag !== true });
      },
      update: (body, existing, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardType', errors);
        if (name !== '' && isNameTaken(store().boardTypes.all(), board.id, name, existing.id)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardType', field: 'name' });
        return errors.length > 0 ? errors : { ...existing, name, isActive: body.inactiveFlag !== true };
      },
      isInUse: (type) => ticketUses(context, (ticket) => ticket.typeId === type.id),
    }),
    ...boardChildRoutes(context, {
      segment: 'subtypes',
      resource: 'boardSubType',
      table: (current) => current.store.boardSubTypes,
      present: (subType, board) => ({ id: subType.id, name: subType.name, inactiveFlag: !subType.isActive, typeAssociationIds: subType.typeIds, board: { id: board.id, name: board.name }, _info: {} }),
      create: (body, board) => {
        const result = readSubType(body, board, null);
        return Array.isArray(result) ? result : store().boardSubTypes.insert(result);
      },
      update: (body, existing, board) => {
        const result = readSubType(body, board, existing.id);
        return Array.isArray(result) ? result : { ...existing, ...result };
      },
      isInUse: (subType) => ticketUses(context, (ticket) => ticket.subTypeId === subType.id),
    }),
    ...boardChildRoutes(context, {
      segment: 'items',
      resource: 'boardItem',
      table: (current) => current.store.boardItems,
      present: (item, board) => ({ id: item.id, name: item.name, inactiveFlag: !item.isActive, board: { id: board.id, name: board.name }, _info: {} }),
      create: (body, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardItem', errors);
        if (name !== '' && isNameTaken(store().boardItems.all(), board.id, name, null)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardItem', field: 'name' });
        return errors.length > 0 ? errors : store().boardItems.insert({ boardId: board.id, name, subTypeIds: [], isActive: body.inactiveFlag !== true });
      },
      update: (body, existing, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardItem', errors);
        if (name !== '' && isNameTaken(store().boardItems.all(), board.id, name, existing.id)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardItem', field: 'name' });
        return errors.length > 0 ? errors : { ...existing, name, isActive: body.inactiveFlag !== true };
      },
      isInUse: (item) => ticketUses(context, (ticket) => ticket.itemId === item.id),
    }),
    ...boardChildRoutes(context, {
      segment: 'statuses',
      resource: 'boardStatus',
      table: (current) => current.store.statuses,
      present: (status, board) => presentStatus(status, board.name),
      create: (body, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardStatus', errors);
        if (name !== '' && isNameTaken(store().statuses.all(), board.id, name, null)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardStatus', field: 'name' });
        if (errors.length > 0) return errors;
        const isClosed = body.closedStatus === true;
        const isNew = body.defaultFlag === true;
        const onBoard = [...store().statuses.all()].filter((row) => row.boardId === board.id);
        if (isNew) for (const row of onBoard) store().statuses.put({ ...row, isNew: false });
        const sortOrder = typeof body.sortOrder === 'number' ? body.sortOrder : onBoard.length;
        return store().statuses.insert({ boardId: board.id, name, sortOrder, isNew, isClosed, isActive: body.inactive !== true, autotaskValue: nextAutotaskStatusValue(isNew, isClosed) });
      },
      update: (body, existing, board) => {
        const errors: TCwValidationError[] = [];
        const name = requireName(body, 'boardStatus', errors);
        if (name !== '' && isNameTaken(store().statuses.all(), board.id, name, existing.id)) errors.push({ code: 'ObjectExists', message: 'The name is already in use on this board.', resource: 'boardStatus', field: 'name' });
        if (errors.length > 0) return errors;
        const isNew = body.defaultFlag === true;
        const isClosed = body.closedStatus === true;
        if (isNew && !existing.isNew) for (const row of store().statuses.all()) if (row.boardId === board.id && row.isNew) store().statuses.put({ ...row, isNew: false });
        const autotaskValue = isNew === existing.isNew && isClosed === existing.isClosed ? existing.autotaskValue : nextAutotaskStatusValue(isNew, isClosed);
        return { ...existing, name, isNew, isClosed, isActive: body.inactive !== true, sortOrder: typeof body.sortOrder === 'number' ? body.sortOrder : existing.sortOrder, autotaskValue };
      },
      isInUse: (status) => ticketUses(context, (ticket) => ticket.statusId === status.id),
    }),
    route('GET', `${boards}/{id}/typeSubTypeItemAssociations`, (request, params) => {
      const board = store().boards.get(idParam(params));
      if (!board) return cwNotFound('Board', idParam(params));
      const rows: TCwRecord[] = [];
      const items = [...store().boardItems.all()].filter((item) => item.boardId === board.id);
      for (const subType of store().boardSubTypes.all()) {
        if (subType.boardId !== board.id) continue;
        for (const typeId of subType.typeIds) {
          const type = store().boardTypes.get(typeId);
          if (!type) continue;
          const subTypeItems = items.filter((item) => item.subTypeIds.includes(subType.id));
          const itemRefs = subTypeItems.length > 0 ? subTypeItems.map((item) => ({ id: item.id, name: item.name })) : [undefined];
          for (const itemRef of itemRefs) {
            const association: TCwRecord = { id: rows.length + 1, type: { id: type.id, name: type.name }, subType: { id: subType.id, name: subType.name }, board: { id: board.id, name: board.name }, _info: {} };
            if (itemRef) association.item = itemRef;
            rows.push(association);
          }
        }
      }
      return listResponse(request, rows);
    }),
    route('GET', `${CW_API_PREFIX}/service/priorities`, (request) => listResponse(request, [...store().priorities.all()].map(presentPriority))),
    route('GET', `${CW_API_PREFIX}/service/priorities/{id}`, (request, params) => {
      const priority = store().priorities.get(idParam(params));
      return priority ? itemResponse(request, presentPriority(priority)) : cwNotFound('Priority', idParam(params));
    }),
    route('POST', `${CW_API_PREFIX}/service/priorities`, (request) => {
      const parsed = readObjectBody(request, 'priority');
      if ('response' in parsed) return parsed.response;
      const errors: TCwValidationError[] = [];
      const name = requireName(parsed.body, 'priority', errors);
      const color = parsed.body.color;
      if (typeof color !== 'string' || color === '') errors.push({ code: 'MissingRequiredField', message: 'color is required.', resource: 'priority', field: 'color' });
      if (name !== '' && isDuplicateName(store().priorities.all(), name)) errors.push({ code: 'ObjectExists', message: 'The name is already in use.', resource: 'priority', field: 'name' });
      if (errors.length > 0 || typeof color !== 'string') return cwInvalidObject('priority', errors);
      const sortOrder = typeof parsed.body.sortOrder === 'number' ? parsed.body.sortOrder : store().priorities.size + 1;
      const priority = store().priorities.insert({ name, color, sortOrder, isDefault: parsed.body.defaultFlag === true });
      countCreate(context);
      return json(201, presentPriority(priority));
    }),
    route('GET', `${CW_API_PREFIX}/service/sources`, (request) => listResponse(request, [...store().sources.all()].map(presentSource))),
    route('GET', `${CW_API_PREFIX}/service/sources/{id}`, (request, params) => {
      const source = store().sources.get(idParam(params));
      return source ? itemResponse(request, presentSource(source)) : cwNotFound('Source', idParam(params));
    }),
  ];
}
