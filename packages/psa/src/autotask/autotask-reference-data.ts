import type { TPsaBoard, TPsaMember, TPsaMemberWithPhone, TPsaNamed, TPsaPriority, TPsaStatus, TPsaSubtype, TPsaTicketType, TPsaTypeAssociation } from '../psa-client';
import type { AutotaskApi } from './autotask-api';
import * as map from './autotask-mappers';
import { atFilter } from './filters';
import { isClosedStatus } from './picklists';

// Autotask's boards, statuses, types and subtypes are Ticket picklists (queueID, status, issueType, subIssueType):
// global rather than per board, and read-only through the API (decision 17).

export async function listBoards(api: AutotaskApi): Promise<TPsaBoard[]> {
  return (await api.ticketPicklist('queueID')).map((value) => ({ id: value.value, name: value.label, isActive: value.isActive }));
}

export async function listTypes(api: AutotaskApi): Promise<TPsaTicketType[]> {
  return (await api.ticketPicklist('issueType')).map((value) => ({ id: value.value, name: value.label, boardId: null, isActive: value.isActive }));
}

export async function listSubtypes(api: AutotaskApi): Promise<TPsaSubtype[]> {
  return (await api.ticketPicklist('subIssueType')).map((value) => ({
    id: value.value,
    name: value.label,
    boardId: null,
    typeIds: value.parentValue === null ? [] : [value.parentValue],
    isActive: value.isActive,
  }));
}

export async function listTypeAssociations(api: AutotaskApi): Promise<TPsaTypeAssociation[]> {
  const subtypes = await listSubtypes(api);
  return subtypes.flatMap((subtype) => subtype.typeIds.map((typeId) => ({ typeId, subtypeId: subtype.id, itemId: null })));
}

export async function listStatuses(api: AutotaskApi): Promise<TPsaStatus[]> {
  return (await api.ticketPicklist('status')).map((value) => ({
    id: value.value,
    name: value.label,
    boardId: null,
    isClosed: isClosedStatus(value),
    isDefault: value.isDefault,
    isActive: value.isActive,
    sortOrder: value.sortOrder,
  }));
}

export async function listPriorities(api: AutotaskApi): Promise<TPsaPriority[]> {
  return (await api.ticketPicklist('priority')).map((value) => ({ id: value.value, name: value.label, sortOrder: value.sortOrder, isDefault: value.isDefault }));
}

export async function listSources(api: AutotaskApi): Promise<TPsaNamed[]> {
  return (await api.ticketPicklist('source')).map((value) => ({ id: value.value, name: value.label }));
}

export async function listTicketTypes(api: AutotaskApi): Promise<TPsaNamed[]> {
  return (await api.ticketPicklist('ticketType')).map((value) => ({ id: value.value, name: value.label }));
}

export async function listCompanyTypes(api: AutotaskApi): Promise<TPsaNamed[]> {
  return (await api.fields('Companies')).picklist('companyType').map((value) => ({ id: value.value, name: value.label }));
}

export async function listNoteTypes(api: AutotaskApi): Promise<TPsaNamed[]> {
  return (await api.fields('TicketNotes')).picklist('noteType').map((value) => ({ id: value.value, name: value.label }));
}

export function listDepartments(api: AutotaskApi): Promise<TPsaNamed[]> {
  return api.query('Departments', [atFilter.all()], map.toNamed);
}

export function listLocations(api: AutotaskApi): Promise<TPsaNamed[]> {
  return api.query('InternalLocations', [atFilter.all()], map.toNamed);
}

/** The integration's own API user is a resource too, but not a technician anyone can pick. */
export async function listMembers(api: AutotaskApi): Promise<TPsaMember[]> {
  const members = await api.query('Resources', [atFilter.eq('isActive', true)], map.toMember);
  const apiUserName = api.config.username.toLowerCase();
  return members.filter((member) => member.identifier.toLowerCase() !== apiUserName);
}

export async function findMembersByEmail(api: AutotaskApi, email: string): Promise<TPsaMemberWithPhone[]> {
  const address = email.trim();
  if (address === '') return [];
  return api.query('Resources', [atFilter.eq('email', address)], map.toMemberWithPhone);
}
