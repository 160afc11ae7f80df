import type {
  TCreatePsaBoard,
  TCreatePsaStatus,
  TCreatePsaSubtype,
  TPsaBoard,
  TPsaCommunicationType,
  TPsaItem,
  TPsaMember,
  TPsaMemberWithPhone,
  TPsaNamed,
  TPsaPriority,
  TPsaStatus,
  TPsaSubtype,
  TPsaTicketType,
  TPsaTypeAssociation,
  TUpdatePsaSubtype,
  TUpdatePsaType,
} from '../psa-client';
import { checkId } from '../record-id';
import { Condition, eq } from './conditions';
import { requireBoard, type ConnectWiseApi, type TPatchOperation } from './connectwise-api';
import * as map from './connectwise-mappers';

export function listBoards(api: ConnectWiseApi): Promise<TPsaBoard[]> {
  return api.list('/service/boards', map.toBoard, { conditions: eq('inactiveFlag', false) });
}

export function listTypes(api: ConnectWiseApi, boardId: number | null): Promise<TPsaTicketType[]> {
  const board = requireBoard(boardId);
  return api.list(`/service/boards/${board}/types`, (row) => map.toType(row, board));
}

export function listSubtypes(api: ConnectWiseApi, boardId: number | null): Promise<TPsaSubtype[]> {
  const board = requireBoard(boardId);
  return api.list(`/service/boards/${board}/subtypes`, (row) => map.toSubtype(row, board));
}

export function listItems(api: ConnectWiseApi, boardId: number | null): Promise<TPsaItem[]> {
  const board = requireBoard(boardId);
  return api.list(`/service/boards/${board}/items`, (row) => map.toItem(row, board));
}

export async function listTypeAssociations(api: ConnectWiseApi, boardId: number | null): Promise<TPsaTypeAssociation[]> {
  const board = requireBoard(boardId);
  const associations = await api.list(`/service/boards/${board}/typeSubTypeItemAssociations`, map.toAssociation);
  return associations.filter((association): association is TPsaTypeAssociation => association !== null);
}

export function listStatuses(api: ConnectWiseApi, boardId: number | null): Promise<TPsaStatus[]> {
  const board = requireBoard(boardId);
  return api.list(`/service/boards/${board}/statuses`, (row) => map.toStatus(row, board), { orderBy: 'sortOrder asc' });
}

export function listPriorities(api: ConnectWiseApi): Promise<TPsaPriority[]> {
  return api.list('/service/priorities', map.toPriority, { orderBy: 'sortOrder asc' });
}

export function listSources(api: ConnectWiseApi): Promise<TPsaNamed[]> {
  return api.list('/service/sources', map.toNamed);
}

export function listMembers(api: ConnectWiseApi): Promise<TPsaMember[]> {
  return api.list('/system/members', map.toMember, { conditions: eq('inactiveFlag', false) });
}

export async function findMembersByEmail(api: ConnectWiseApi, email: string): Promise<TPsaMemberWithPhone[]> {
  const address = email.trim();
  if (address === '') return [];
  // The mapper reads primaryEmail and falls back to officeEmail, so a member is found by either.
  return api.list('/system/members', map.toMemberWithPhone, { conditions: Condition.or(eq('primaryEmail', address), eq('officeEmail', address)) });
}

export function listCompanyTypes(api: ConnectWiseApi): Promise<TPsaNamed[]> {
  return api.list('/company/companies/types', map.toNamed);
}

export function listCommunicationTypes(api: ConnectWiseApi): Promise<TPsaCommunicationType[]> {
  return api.list('/company/communicationTypes', map.toCommunicationType);
}

export function listDepartments(api: ConnectWiseApi): Promise<TPsaNamed[]> {
  return api.list('/system/departments', map.toNamed);
}

export function listLocations(api: ConnectWiseApi): Promise<TPsaNamed[]> {
  return api.list('/system/locations', map.toNamed);
}

// ConnectWise refuses a second board, or a second status/type/subtype on one board, with the same name, so the name
// is the natural key a create of unknown outcome is looked up by.

/** The first row of a list filtered by name, or null. */
async function findNamed<T>(api: ConnectWiseApi, path: string, name: string, mapRow: (row: unknown) => T): Promise<T | null> {
  const rows = await api.list(path, mapRow, { conditions: eq('name', name) });
  return rows[0] ?? null;
}

export function createBoard(api: ConnectWiseApi, input: TCreatePsaBoard): Promise<TPsaBoard> {
  const body = { name: input.name, location: { id: input.locationId }, department: { id: input.departmentId } };
  return api.create('/service/boards', body, map.toBoard, () => findNamed(api, '/service/boards', input.name, map.toBoard));
}

export function createStatus(api: ConnectWiseApi, boardId: number, input: TCreatePsaStatus): Promise<TPsaStatus> {
  const path = `/service/boards/${requireBoard(boardId)}/statuses`;
  const toStatus = (row: unknown) => map.toStatus(row, boardId);
  const body = { name: input.name, closedStatus: input.isClosed, sortOrder: input.sortOrder, inactive: false, displayOnBoard: true };
  return api.create(path, body, toStatus, () => findNamed(api, path, input.name, toStatus));
}

export function createType(api: ConnectWiseApi, boardId: number, input: { name: string }): Promise<TPsaTicketType> {
  const path = `/service/boards/${requireBoard(boardId)}/types`;
  const toType = (row: unknown) => map.toType(row, boardId);
  return api.create(path, { name: input.name, inactiveFlag: false }, toType, () => findNamed(api, path, input.name, toType));
}

export function createSubtype(api: ConnectWiseApi, boardId: number, input: TCreatePsaSubtype): Promise<TPsaSubtype> {
  const path = `/service/boards/${requireBoard(boardId)}/subtypes`;
  const toSubtype = (row: unknown) => map.toSubtype(row, boardId);
  const body = { name: input.name, typeAssociationIds: input.typeIds, inactiveFlag: false };
  return api.create(path, body, toSubtype, () => findNamed(api, path, input.name, toSubtype));
}

/** `PATCH service/boards/{id}/types/{id}`: only `inactiveFlag`, replaced (so a resend lands the same way). */
export function updateType(api: ConnectWiseApi, boardId: number, typeId: number, input: TUpdatePsaType): Promise<TPsaTicketType> {
  const path = `/service/boards/${requireBoard(boardId)}/types/${checkId(typeId)}`;
  const toType = (row: unknown) => map.toType(row, boardId);
  if (input.isActive === undefined) return api.get(path, toType);
  return api.patch(path, [{ op: 'replace', path: 'inactiveFlag', value: !input.isActive }], toType);
}

/**
 * `PATCH service/boards/{id}/subtypes/{id}`: the type↔subtype link lives on the subtype (`typeAssociationIds`, the
 * whole list), so associating a subtype with one more type sends the list it had plus that type.
 */
export function updateSubtype(api: ConnectWiseApi, boardId: number, subtypeId: number, input: TUpdatePsaSubtype): Promise<TPsaSubtype> {
  const path = `/service/boards/${requireBoard(boardId)}/subtypes/${checkId(subtypeId)}`;
  const toSubtype = (row: unknown) => map.toSubtype(row, boardId);
  const operations: TPatchOperation[] = [];
  if (input.typeIds !== undefined) operations.push({ op: 'replace', path: 'typeAssociationIds', value: input.typeIds });
  if (input.isActive !== undefined) operations.push({ op: 'replace', path: 'inactiveFlag', value: !input.isActive });
  if (operations.length === 0) return api.get(path, toSubtype);
  return api.patch(path, operations, toSubtype);
}
