import type { z } from 'zod';
import { lookUpFirst } from '../http/create-options';
import { sameNoteIn } from '../note-lookup';
import { PsaError } from '../errors';
import { parsePsaPayload } from '../http/parse';
import { conversationNoteTitle, formatConversation } from '../conversation';
import type {
  TAddPsaNote,
  TAssignPsaTicket,
  TClosePsaTicket,
  TCreatePsaTicket,
  TPsaNote,
  TPsaTicket,
  TPsaTicketStatus,
  TUnassignPsaTicket,
  TUpdatePsaTicket,
} from '../psa-client';
import type { AutotaskApi } from './autotask-api';
import * as map from './autotask-mappers';
import { checkId } from '../record-id';
import { firstLine, itemOf, noteSettingsFrom, toNote } from './autotask-records';
import { atFilter } from './filters';
import { defaultOf, isClosedStatus, type TPicklistValue } from './picklists';

/**
 * The idempotency key travels as the ticket's externalID, which is how a create of unknown outcome is found again.
 * Autotask has no impact, severity, team, item or free-text reporter on a ticket (see capabilities); the conversation
 * becomes an internal TicketNote titled "Conversation" written after the ticket, found again by that title on a retry.
 */
export async function createTicket(api: AutotaskApi, input: TCreatePsaTicket): Promise<TPsaTicket> {
  const statuses = await api.ticketPicklist('status');
  const priorities = await api.ticketPicklist('priority');
  const ownerRoleId = input.ownerId ? await defaultRoleOf(api, input.ownerId) : undefined;
  const body = {
    title: input.summary,
    description: input.description,
    queueID: input.boardId,
    companyID: input.companyId,
    contactID: input.contactId ?? undefined,
    issueType: input.typeId ?? undefined,
    subIssueType: input.subtypeId ?? undefined,
    priority: input.priorityId ?? defaultOf(priorities)?.value,
    status: input.statusId ?? defaultOf(statuses.filter((status) => !isClosedStatus(status)))?.value,
    source: input.sourceId ?? undefined,
    ticketType: input.ticketTypeId ?? undefined,
    ticketCategory: input.ticketCategoryId ?? undefined,
    dueDateTime: input.dueAt ?? undefined,
    assignedResourceID: input.ownerId ?? undefined,
    assignedResourceRoleID: ownerRoleId,
    externalID: input.idempotencyKey,
  };
  const ticketId = await api.create('/Tickets', body, async () => {
    const rows = await api.query('Tickets', [atFilter.eq('externalID', input.idempotencyKey)], (row) => parsePsaPayload(map.ZTicketRow, row, 'ticket'));
    return rows[0]?.id ?? null;
  }, lookUpFirst);
  const conversation = input.conversation ? formatConversation(input.conversation) : '';
  if (conversation) await addConversationNote(api, ticketId, conversation);
  return getTicket(api, ticketId);
}

async function addConversationNote(api: AutotaskApi, ticketId: number, text: string): Promise<void> {
  const settings = noteSettingsFrom(await api.fields('TicketNotes'));
  const body = { ticketID: ticketId, title: conversationNoteTitle, description: text, noteType: settings.ordinaryNoteType, publish: settings.internalPublish };
  await api.create(`/Tickets/${ticketId}/Notes`, body, async () => {
    const rows = await api.query('TicketNotes', [atFilter.eq('ticketID', ticketId), atFilter.eq('title', conversationNoteTitle)], (row) => parsePsaPayload(map.ZNoteRow, row, 'note'));
    return rows[0]?.id ?? null;
  }, lookUpFirst);
}

/** Autotask needs a resource and a role together; the resource's default service-desk role is the usual pair. */
async function defaultRoleOf(api: AutotaskApi, resourceId: number): Promise<number | undefined> {
  const resource = await api.get(`/Resources/${checkId(resourceId)}`, (body) => parsePsaPayload(map.ZResourceRole, itemOf(body), 'resource'));
  return resource.defaultServiceDeskRoleID ?? undefined;
}

export async function getTicket(api: AutotaskApi, ticketId: number): Promise<TPsaTicket> {
  const row = await api.get(`/Tickets/${checkId(ticketId)}`, (body) => parsePsaPayload(map.ZTicketRow, itemOf(body), 'ticket'));
  const statuses = await api.ticketPicklist('status');
  const status = statuses.find((value) => value.value === row.status);
  return ticketFromRow(row, status?.label ?? null, status ? isClosedStatus(status) : false);
}

/** An Autotask ticket row as a PSA ticket, given its status label and whether that status is a closed one. */
export function ticketFromRow(row: z.infer<typeof map.ZTicketRow>, statusName: string | null, isClosed: boolean): TPsaTicket {
  return {
    id: row.id,
    number: row.ticketNumber ?? String(row.id),
    summary: row.title,
    boardId: row.queueID ?? null,
    statusId: row.status ?? null,
    statusName,
    isClosed,
    priorityId: row.priority ?? null,
    typeId: row.issueType ?? null,
    subtypeId: row.subIssueType ?? null,
    itemId: null,
    companyId: row.companyID ?? null,
    contactId: row.contactID ?? null,
    ownerId: row.assignedResourceID ?? null,
    externalReference: row.externalID ?? null,
    sourceId: row.source ?? null,
    dueAt: row.dueDateTime ?? null,
    // Autotask has no impact, severity or board team (capabilities).
    teamId: null,
    impact: null,
    severity: null,
    ticketTypeId: row.ticketType ?? null,
    ticketCategoryId: row.ticketCategory ?? null,
  };
}

export async function updateTicket(api: AutotaskApi, ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket> {
  const body: Record<string, unknown> = { id: checkId(ticketId) };
  if (input.summary !== undefined) body.title = input.summary;
  if (input.boardId !== undefined) body.queueID = input.boardId;
  if (input.statusId !== undefined) body.status = input.statusId;
  if (input.priorityId !== undefined) body.priority = input.priorityId;
  if (input.typeId !== undefined) body.issueType = input.typeId;
  if (input.subtypeId !== undefined) body.subIssueType = input.subtypeId;
  if (input.ownerId !== undefined) {
    body.assignedResourceID = input.ownerId;
    body.assignedResourceRoleID = input.ownerId === null ? null : await defaultRoleOf(api, input.ownerId);
  }
  if (Object.keys(body).length > 1) await api.patch('/Tickets', body);
  return getTicket(api, ticketId);
}

/** The active status picklist value with this label (Autotask statuses are one global picklist). */
function statusLabelled(statuses: TPicklistValue[], label: string): TPicklistValue | undefined {
  const wanted = label.trim().toLowerCase();
  return statuses.find((status) => status.isActive && status.label.trim().toLowerCase() === wanted);
}

/** Autotask's system "New" status. */
const autotaskNewStatus = 1;

/** Primary resource + role (set together, as Autotask requires) and the status labelled "Assigned", kept when there is none. */
export async function assignTicket(api: AutotaskApi, ticketId: number, input: TAssignPsaTicket): Promise<TPsaTicket> {
  const id = checkId(ticketId);
  const resourceId = checkId(input.memberId);
  const roleId = input.roleId ?? (await defaultRoleOf(api, resourceId));
  if (roleId === undefined) throw new PsaError('validation', 'The Autotask resource has no default service-desk role to work the ticket in.', { fieldMessages: [{ field: 'roleId', message: 'Required.' }] });
  const status = statusLabelled(await api.ticketPicklist('status'), input.statusName ?? 'Assigned');
  const body: Record<string, unknown> = { id, assignedResourceID: resourceId, assignedResourceRoleID: roleId };
  if (status) body.status = status.value;
  await api.patch('/Tickets', body);
  return getTicket(api, id);
}

/** No primary resource or role, and the New status (value 1) or the one labelled as asked. */
export async function unassignTicket(api: AutotaskApi, ticketId: number, input: TUnassignPsaTicket = {}): Promise<TPsaTicket> {
  const id = checkId(ticketId);
  const statuses = await api.ticketPicklist('status');
  const status = input.statusName === undefined ? statuses.find((value) => value.value === autotaskNewStatus) : statusLabelled(statuses, input.statusName);
  const body: Record<string, unknown> = { id, assignedResourceID: null, assignedResourceRoleID: null };
  if (status) body.status = status.value;
  await api.patch('/Tickets', body);
  return getTicket(api, id);
}

export async function closeTicket(api: AutotaskApi, ticketId: number, input: TClosePsaTicket = {}): Promise<TPsaTicket> {
  let statusId = input.statusId;
  if (statusId === undefined) {
    const complete = (await api.ticketPicklist('status')).find((status) => isClosedStatus(status) && status.isActive);
    if (!complete) throw new PsaError('validation', 'Autotask has no active Complete status to close the ticket with.');
    statusId = complete.value;
  }
  // The resolution note sets the ticket's resolution field too, so it reads back like ConnectWise's resolution note.
  if (input.resolution) await addNote(api, ticketId, { text: input.resolution, kind: 'resolution', resend: input.resend });
  await api.patch('/Tickets', { id: checkId(ticketId), status: statusId });
  return getTicket(api, ticketId);
}

export async function getTicketStatus(api: AutotaskApi, ticketId: number): Promise<TPsaTicketStatus> {
  const ticket = await getTicket(api, ticketId);
  return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
}

export async function addNote(api: AutotaskApi, ticketId: number, input: TAddPsaNote): Promise<TPsaNote> {
  const id = checkId(ticketId);
  const settings = noteSettingsFrom(await api.fields('TicketNotes'));
  const publish = input.kind === 'internal' ? settings.internalPublish : settings.everyonePublish;
  if (input.kind === 'resolution') await api.patch('/Tickets', { id, resolution: input.text });
  const body = {
    ticketID: id,
    title: input.kind === 'resolution' ? map.resolutionNoteTitle : firstLine(input.text),
    description: input.text,
    noteType: input.noteTypeId ?? (input.kind === 'resolution' ? settings.resolutionNoteType : settings.ordinaryNoteType),
    publish,
  };
  // Notes carry no external reference: an unknown outcome is resolved by finding the same text and kind among the
  // notes created since this write was first tried; looked up before sending only on a resend (TPsaResend).
  const noteId = await api.create(`/Tickets/${id}/Notes`, body, async (createdSince) => sameNoteIn(await listNotes(api, id), input, createdSince)?.id ?? null, { resend: input.resend });
  const row = await api.get(`/TicketNotes/${noteId}`, (response) => parsePsaPayload(map.ZNoteRow, itemOf(response), 'note'));
  return toNote(row, id, settings.kindValues);
}

export async function listNotes(api: AutotaskApi, ticketId: number): Promise<TPsaNote[]> {
  const id = checkId(ticketId);
  const settings = noteSettingsFrom(await api.fields('TicketNotes'));
  const rows = await api.query('TicketNotes', [atFilter.eq('ticketID', id)], (row) => parsePsaPayload(map.ZNoteRow, row, 'note'));
  return rows.sort((a, b) => a.id - b.id).map((row) => toNote(row, id, settings.kindValues));
}
