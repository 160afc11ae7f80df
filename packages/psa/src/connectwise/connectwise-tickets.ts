import { lookUpFirst } from '../http/create-options';
import { sameNoteIn } from '../note-lookup';
import { PsaError } from '../errors';
import { formatConversation } from '../conversation';
import type {
  TAddPsaNote,
  TAssignPsaTicket,
  TClosePsaTicket,
  TCreatePsaTicket,
  TPsaNote,
  TPsaStatus,
  TPsaTicket,
  TPsaTicketStatus,
  TUnassignPsaTicket,
  TUpdatePsaTicket,
} from '../psa-client';
import { eq } from './conditions';
import { checkId } from '../record-id';
import type { ConnectWiseApi, TPatchOperation } from './connectwise-api';
import * as map from './connectwise-mappers';
import { listStatuses } from './connectwise-reference-data';

const reference = (id: number | null | undefined): { id: number } | undefined => (id === null || id === undefined ? undefined : { id });
const text = (value: string | null | undefined, maxLength: number): string | undefined => {
  const trimmed = value?.trim();
  // ConnectWise refuses the whole ticket over an over-long reporter field, so the draft's value is cut to fit instead.
  return trimmed ? trimmed.slice(0, maxLength) : undefined;
};

/**
 * The idempotency key travels as externalXRef, which is how a create of unknown outcome is found again. The
 * conversation goes in initialInternalAnalysis, which ConnectWise turns into the ticket's first Internal note in the
 * same request, so the ticket and its conversation land together.
 */
export function createTicket(api: ConnectWiseApi, input: TCreatePsaTicket): Promise<TPsaTicket> {
  const conversation = input.conversation ? formatConversation(input.conversation) : '';
  const body = {
    summary: input.summary,
    initialDescription: input.description,
    initialInternalAnalysis: conversation || undefined,
    team: reference(input.teamId),
    impact: input.impact ?? undefined,
    severity: input.severity ?? undefined,
    requiredDate: input.dueAt ?? undefined,
    contactName: text(input.reporterName, 62),
    contactEmailAddress: text(input.reporterEmail, 250),
    contactPhoneNumber: text(input.reporterPhone, 20),
    board: { id: input.boardId },
    company: { id: input.companyId },
    contact: reference(input.contactId),
    type: reference(input.typeId),
    subType: reference(input.subtypeId),
    item: reference(input.itemId),
    priority: reference(input.priorityId),
    status: reference(input.statusId),
    source: reference(input.sourceId),
    owner: reference(input.ownerId),
    externalXRef: input.idempotencyKey,
  };
  return api.create('/service/tickets', body, map.toTicket, async () => {
    const tickets = await api.list('/service/tickets', map.toTicket, { conditions: eq('externalXRef', input.idempotencyKey) });
    return tickets[0] ?? null;
  }, lookUpFirst);
}

export function getTicket(api: ConnectWiseApi, ticketId: number): Promise<TPsaTicket> {
  return api.get(`/service/tickets/${checkId(ticketId)}`, map.toTicket);
}

export function updateTicket(api: ConnectWiseApi, ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket> {
  const operations: TPatchOperation[] = [];
  const replace = (path: string, value: unknown): void => {
    if (value !== undefined) operations.push({ op: 'replace', path, value });
  };
  replace('summary', input.summary);
  replace('board', reference(input.boardId));
  replace('status', reference(input.statusId));
  replace('priority', reference(input.priorityId));
  replace('type', input.typeId === null ? null : reference(input.typeId));
  replace('subType', input.subtypeId === null ? null : reference(input.subtypeId));
  replace('item', input.itemId === null ? null : reference(input.itemId));
  replace('owner', input.ownerId === null ? null : reference(input.ownerId));
  if (operations.length === 0) return getTicket(api, ticketId);
  return api.patch(`/service/tickets/${checkId(ticketId)}`, operations, map.toTicket);
}

/** The active status of that name on the ticket's board (ConnectWise statuses belong to a board), or undefined. */
function statusNamed(statuses: TPsaStatus[], name: string): TPsaStatus | undefined {
  const wanted = name.trim().toLowerCase();
  return statuses.find((status) => status.isActive && status.name.trim().toLowerCase() === wanted);
}

/** Owner = the member; status = the board's status named "Assigned" (or the one asked for), kept when the board has none. */
export async function assignTicket(api: ConnectWiseApi, ticketId: number, input: TAssignPsaTicket): Promise<TPsaTicket> {
  const ticket = await getTicket(api, ticketId);
  const status = statusNamed(await listStatuses(api, ticket.boardId), input.statusName ?? 'Assigned');
  return updateTicket(api, ticket.id, { ownerId: checkId(input.memberId), statusId: status?.id });
}

/** No owner, and the board's New status (its default, else the first open one by sort order) or the one named. */
export async function unassignTicket(api: ConnectWiseApi, ticketId: number, input: TUnassignPsaTicket = {}): Promise<TPsaTicket> {
  const ticket = await getTicket(api, ticketId);
  const statuses = await listStatuses(api, ticket.boardId);
  const open = statuses.filter((status) => status.isActive && !status.isClosed).sort((a, b) => a.sortOrder - b.sortOrder);
  const status = input.statusName === undefined ? (open.find((candidate) => candidate.isDefault) ?? open[0]) : statusNamed(statuses, input.statusName);
  return updateTicket(api, ticket.id, { ownerId: null, statusId: status?.id });
}

export async function closeTicket(api: ConnectWiseApi, ticketId: number, input: TClosePsaTicket = {}): Promise<TPsaTicket> {
  const ticket = await getTicket(api, ticketId);
  let statusId = input.statusId;
  if (statusId === undefined) {
    const statuses = await listStatuses(api, ticket.boardId);
    const closing = statuses.filter((status) => status.isClosed && status.isActive).sort((a, b) => a.sortOrder - b.sortOrder)[0];
    if (!closing) throw new PsaError('validation', 'The ticket\'s board has no closed status to close it with.', { fieldMessages: [{ field: 'status', message: 'No closed status on this board.' }] });
    statusId = closing.id;
  }
  if (input.resolution) await addNote(api, ticketId, { text: input.resolution, kind: 'resolution', memberId: input.memberId, resend: input.resend });
  return updateTicket(api, ticketId, { statusId });
}

export async function getTicketStatus(api: ConnectWiseApi, ticketId: number): Promise<TPsaTicketStatus> {
  const ticket = await getTicket(api, ticketId);
  return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
}

export function addNote(api: ConnectWiseApi, ticketId: number, input: TAddPsaNote): Promise<TPsaNote> {
  const id = checkId(ticketId);
  const body = {
    text: input.text,
    detailDescriptionFlag: input.kind === 'description',
    internalAnalysisFlag: input.kind === 'internal',
    resolutionFlag: input.kind === 'resolution',
    member: reference(input.memberId),
    // Notes written by the product should not e-mail the contact unless the MSP's workflow does so itself.
    processNotifications: false,
  };
  // Notes carry no external reference: an unknown outcome is resolved by finding the same text and kind among the
  // notes created since this write was first tried; looked up before sending only on a resend (TPsaResend).
  return api.create(`/service/tickets/${id}/notes`, body, (row) => map.toNote(row, id), async (createdSince) => sameNoteIn(await listNotes(api, id), input, createdSince), { resend: input.resend });
}

export function listNotes(api: ConnectWiseApi, ticketId: number): Promise<TPsaNote[]> {
  const id = checkId(ticketId);
  return api.list(`/service/tickets/${id}/notes`, (row) => map.toNote(row, id));
}
