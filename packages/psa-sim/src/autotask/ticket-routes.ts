import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { headerValue, idParam, isRecord, json, route } from '../http';
import type { TRoute, TSimRequest, TSimResponse } from '../http';
import type { SimStore, TSimTicket } from '../store';
import { AT_API_PREFIX, atErrors, bodyField, countQuerySourceResponse, presentFieldDefinitions, querySourceResponse } from './common';
import { atNoteSource, atTicketSource } from './fast-fields';
import { API_USER_RESOURCE_ID, INTERNAL_PUBLISH, NOTE_FIELDS, NOTE_PUBLISH, NOTE_TYPES, RESOLUTION_NOTE_TYPE, SERVICE_DESK_ROLE_ID, TICKET_CATEGORIES, TICKET_FIELDS, TICKET_TYPES, isAtResource, presentAtNote, presentAtTicket } from './entities';

type TTicketFields = Omit<TSimTicket, 'id'>;

function optionalInteger(body: Record<string, unknown>, name: string, errors: string[]): number | null | undefined {
  const value = bodyField(body, name);
  if (value === undefined) return undefined;
  if (value === null) return null;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) {
    errors.push(`Value '${JSON.stringify(value)}' is not valid for ${name}.`);
    return undefined;
  }
  return number;
}

function optionalString(body: Record<string, unknown>, name: string): string | null | undefined {
  const value = bodyField(body, name);
  if (value === undefined || value === null) return value;
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** Maps an Autotask ticket body onto the logical ticket; Autotask reports these problems as 500 {errors: [...]} (psa-apis.md §3.3). */
export function readAtTicketInput(store: SimStore, body: Record<string, unknown>, base: TSimTicket | null): TTicketFields | { errors: string[] } {
  const errors: string[] = [];
  const now = store.now();
  const reference = (name: string, exists: (id: number) => boolean): number | null | undefined => {
    const value = optionalInteger(body, name, errors);
    if (value !== undefined && value !== null && !exists(value)) {
      errors.push(`Value does not reference an existing entity for ${name} .`);
      return undefined;
    }
    return value;
  };
  const title = optionalString(body, 'title');
  const companyId = reference('companyID', (id) => store.companies.get(id) !== undefined);
  const contactId = reference('contactID', (id) => store.contacts.get(id) !== undefined);
  const queueId = reference('queueID', (id) => store.boards.get(id) !== undefined);
  const statusValue = optionalInteger(body, 'status', errors);
  const priorityId = reference('priority', (id) => store.priorities.get(id) !== undefined);
  const issueType = reference('issueType', (id) => store.boardTypes.get(id) !== undefined);
  const subIssueType = reference('subIssueType', (id) => store.boardSubTypes.get(id) !== undefined);
  const ticketType = reference('ticketType', (id) => id >= 1 && id <= TICKET_TYPES.length);
  const ticketCategory = reference('ticketCategory', (id) => id >= 1 && id <= TICKET_CATEGORIES.length);
  const sourceId = reference('source', (id) => store.sources.get(id) !== undefined);
  const resourceId = reference('assignedResourceID', (id) => store.members.get(id) !== undefined);
  const roleId = optionalInteger(body, 'assignedResourceRoleID', errors);
  const dueText = optionalString(body, 'dueDateTime');
  const dueAt = dueText === undefined ? undefined : dueText === null || dueText === '' ? null : Date.parse(dueText);
  if (typeof dueAt === 'number' && Number.isNaN(dueAt)) errors.push(`Value '${dueText ?? ''}' is not a valid date for dueDateTime.`);
  if (!base) {
    for (const [name, value] of [['title', title], ['companyID', companyId], ['status', statusValue], ['priority', priorityId]] as const) {
      if (value === undefined || value === null || value === '') errors.push(`Missing Required Field: ${name}.`);
    }
  } else if (title === null || title === '' || companyId === null || statusValue === null || priorityId === null) {
    errors.push('Required fields (title, companyID, status, priority) cannot be cleared.');
  }
  const nextResource = resourceId === undefined ? (base?.ownerId ?? null) : resourceId;
  const nextRole = roleId === undefined ? (base?.ownerId === nextResource && nextResource !== null ? SERVICE_DESK_ROLE_ID : null) : roleId;
  if ((nextResource === null) !== (nextRole === null)) errors.push('When assigning a Resource, you must assign both a assignedResourceID and assignedResourceRoleID.');
  else if (nextRole !== null && nextRole !== SERVICE_DESK_ROLE_ID) errors.push('Value does not reference an existing entity for assignedResourceRoleID .');
  if (title && title.length > 255) errors.push('title exceeds the maximum length of 255.');
  const boardId = queueId ?? base?.boardId ?? store.defaultBoard()?.id ?? 0;
  let statusId = base?.statusId;
  if (statusValue !== undefined && statusValue !== null) {
    const statuses = [...store.statuses.all()].filter((status) => status.autotaskValue === statusValue);
    const status = statuses.find((candidate) => candidate.boardId === boardId) ?? statuses[0];
    if (!status) errors.push('Value does not reference an existing entity for status .');
    else statusId = status.id;
  } else if (queueId !== undefined && queueId !== null && base && base.boardId !== queueId) {
    statusId = store.newStatusOf(queueId)?.id;
  }
  const typeId = issueType === undefined ? (base?.typeId ?? null) : issueType;
  const subTypeId = subIssueType === undefined ? (base?.subTypeId ?? null) : subIssueType;
  const subType = subTypeId === null ? undefined : store.boardSubTypes.get(subTypeId);
  if (subType && (typeId === null || !subType.typeIds.includes(typeId))) errors.push(`The subIssueType ${subType.id} does not belong to the issueType ${typeId ?? 'null'}.`);
  const finalCompanyId = companyId ?? base?.companyId;
  if (errors.length > 0 || statusId === undefined || finalCompanyId === undefined) return { errors: errors.length > 0 ? errors : ['Missing Required Field: status.'] };
  const status = store.statuses.get(statusId);
  const closedAt = status?.isClosed ? (base?.closedAt ?? now) : null;
  const member = nextResource === null ? undefined : store.members.get(nextResource);
  return {
    summary: title ?? base?.summary ?? '',
    boardId,
    statusId,
    companyId: finalCompanyId,
    contactId: contactId === undefined ? (base?.contactId ?? null) : contactId,
    typeId,
    subTypeId,
    itemId: base?.itemId ?? null,
    priorityId: priorityId ?? base?.priorityId ?? null,
    ownerId: nextResource,
    teamId: boardId === base?.boardId ? base.teamId : null,
    sourceId: sourceId === undefined ? (base?.sourceId ?? null) : sourceId,
    ticketTypeValue: ticketType ?? base?.ticketTypeValue ?? 1,
    ticketCategoryValue: ticketCategory ?? base?.ticketCategoryValue ?? 1,
    description: optionalString(body, 'description') ?? base?.description ?? '',
    resolution: optionalString(body, 'resolution') ?? base?.resolution ?? '',
    externalReference: optionalString(body, 'externalID') ?? base?.externalReference ?? '',
    dueAt: dueAt === undefined ? (base?.dueAt ?? null) : dueAt,
    createdAt: base?.createdAt ?? now,
    updatedAt: now,
    closedAt,
    closedBy: closedAt === null ? null : (base?.closedBy ?? member?.identifier ?? 'SimAPI'),
  };
}

/** The resource named by the ImpersonationResourceId header: null without one, an error when it names no resource. */
function impersonatedResource(context: TSimContext, request: TSimRequest): { resourceId: number | null } | { error: string } {
  const header = headerValue(request.headers, 'impersonationresourceid');
  if (header === undefined || header === '') return { resourceId: null };
  const resourceId = Number(header);
  if (!Number.isInteger(resourceId) || !isAtResource(context.store, resourceId)) return { error: 'Value does not reference an existing entity for ImpersonationResourceId .' };
  return { resourceId };
}

/** Writes are attributed to the impersonated resource, or else to the API user's own resource (psa-apis.md §3.2). */
function actingResource(context: TSimContext, request: TSimRequest): { resourceId: number } | { error: string } {
  const impersonated = impersonatedResource(context, request);
  if ('error' in impersonated) return impersonated;
  return { resourceId: impersonated.resourceId ?? API_USER_RESOURCE_ID };
}

/** Applies an Autotask ticket update body and reports the change as made by `actorResourceId`. */
export function applyAtTicketUpdate(context: TSimContext, body: unknown, isReplace: boolean, actorResourceId: number): TSimResponse {
  if (!isRecord(body)) return atErrors(500, 'The request body must be a JSON object.');
  const id = bodyField(body, 'id');
  const ticket = typeof id === 'number' ? context.store.tickets.get(id) : undefined;
  if (!ticket) return atErrors(500, `Unable to find the Ticket with id ${String(id)}.`);
  // PUT replaces the entity, so optional fields the body leaves out are cleared (psa-apis.md §3.3).
  const base: TSimTicket = isReplace ? { ...ticket, contactId: null, typeId: null, subTypeId: null, sourceId: null, ownerId: null, externalReference: '', resolution: '', description: '', dueAt: null } : ticket;
  const result = readAtTicketInput(context.store, body, base);
  if ('errors' in result) return atErrors(500, ...result.errors);
  context.store.updateTicket({ ...result, id: ticket.id }, 'autotask', false, actorResourceId);
  return json(200, { itemId: ticket.id });
}

/**
 * Simulator hook for "a technician changed the ticket in the Autotask UI": `{resourceId, ticket: {id, …fields}}` is
 * applied like a PATCH but attributed to that technician's resource instead of the API user.
 */
export function editTicketAsTechnician(context: TSimContext, body: unknown): TSimResponse {
  const resourceId = isRecord(body) ? body.resourceId : undefined;
  if (!isRecord(body) || typeof resourceId !== 'number' || context.store.members.get(resourceId) === undefined) {
    return { status: 400, body: { error: 'resourceId must be the id of a simulated technician resource' } };
  }
  return applyAtTicketUpdate(context, body.ticket, false, resourceId);
}

function updateTicket(context: TSimContext, request: TSimRequest, isReplace: boolean): TSimResponse {
  const actor = actingResource(context, request);
  if ('error' in actor) return atErrors(500, actor.error);
  return applyAtTicketUpdate(context, request.body, isReplace, actor.resourceId);
}

export function autotaskTicketRoutes(context: TSimContext): TRoute[] {
  const tickets = `${AT_API_PREFIX}/Tickets`;
  return [
    route('GET', `${tickets}/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, TICKET_FIELDS))),
    route('GET', `${tickets}/entityInformation`, () => json(200, { info: { name: 'Ticket', canCreate: true, canUpdate: true, canQuery: true, canDelete: false, hasUserDefinedFields: true, supportsWebhookCallouts: true } })),
    route('GET', `${tickets}/entityInformation/userDefinedFields`, () => json(200, { fields: [] })),
    route('GET', `${AT_API_PREFIX}/TicketNotes/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, NOTE_FIELDS))),
    ...(['query', 'query/next', 'query/prev'] as const).flatMap((suffix) => [
      route('POST', `${tickets}/${suffix}`, (request) => querySourceResponse(request, 'Tickets', TICKET_FIELDS, atTicketSource(context.store))),
      route('GET', `${tickets}/${suffix}`, (request) => querySourceResponse(request, 'Tickets', TICKET_FIELDS, atTicketSource(context.store))),
      route('POST', `${AT_API_PREFIX}/TicketNotes/${suffix}`, (request) => querySourceResponse(request, 'TicketNotes', NOTE_FIELDS, atNoteSource(context.store))),
      route('GET', `${AT_API_PREFIX}/TicketNotes/${suffix}`, (request) => querySourceResponse(request, 'TicketNotes', NOTE_FIELDS, atNoteSource(context.store))),
    ]),
    route('POST', `${tickets}/query/count`, (request) => countQuerySourceResponse(request, 'Tickets', TICKET_FIELDS, atTicketSource(context.store))),
    route('POST', `${AT_API_PREFIX}/TicketNotes/query/count`, (request) => countQuerySourceResponse(request, 'TicketNotes', NOTE_FIELDS, atNoteSource(context.store))),
    route('GET', `${tickets}/{id}`, (_request, params) => {
      const ticket = context.store.tickets.get(idParam(params));
      return json(200, { item: ticket ? presentAtTicket(context.store, ticket) : null });
    }),
    route('POST', tickets, (request) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      if (bodyField(request.body, 'id') !== undefined && bodyField(request.body, 'id') !== 0 && bodyField(request.body, 'id') !== null) return atErrors(500, 'id must not be set when creating a Ticket.');
      const actor = actingResource(context, request);
      if ('error' in actor) return atErrors(500, actor.error);
      const result = readAtTicketInput(context.store, request.body, null);
      if ('errors' in result) return atErrors(500, ...result.errors);
      const ticket = context.store.tickets.insert(result);
      if (ticket.description !== '') {
        // ConnectWise keeps the description in the first note, so the shared store mirrors it there.
        context.store.addNote({ ticketId: ticket.id, text: ticket.description, title: 'Description', isDescription: true, isInternal: false, isResolution: false, memberId: null, contactId: ticket.contactId, createdAt: ticket.createdAt, updatedAt: ticket.createdAt, autotaskNoteType: 1, autotaskPublish: 1 });
      }
      countCreate(context);
      context.store.emitTicketChange({ action: 'added', ticket, changedFields: [], via: 'autotask', isCallbackSkipped: false, actorResourceId: actor.resourceId });
      return json(200, { itemId: ticket.id });
    }),
    route('PATCH', tickets, (request) => updateTicket(context, request, false)),
    route('PUT', tickets, (request) => updateTicket(context, request, true)),
    route('GET', `${tickets}/{id}/Notes`, (_request, params) => {
      const notes = context.store.notesOfTicket(idParam(params)).map(presentAtNote);
      return json(200, { items: notes, pageDetails: { count: notes.length, requestCount: 500, prevPageUrl: null, nextPageUrl: null } });
    }),
    route('GET', `${tickets}/{id}/Notes/{id}`, (_request, params) => {
      const note = context.store.notes.get(idParam(params, 1));
      return json(200, { item: note && note.ticketId === idParam(params) ? presentAtNote(note) : null });
    }),
    route('GET', `${AT_API_PREFIX}/TicketNotes/{id}`, (_request, params) => {
      const note = context.store.notes.get(idParam(params));
      return json(200, { item: note ? presentAtNote(note) : null });
    }),
    route('POST', `${tickets}/{id}/Notes`, (request, params) => {
      const ticket = context.store.tickets.get(idParam(params));
      if (!ticket) return atErrors(500, `Value does not reference an existing entity for ticketID .`);
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const errors: string[] = [];
      const description = optionalString(request.body, 'description');
      if (!description) errors.push('Missing Required Field: description.');
      const noteType = optionalInteger(request.body, 'noteType', errors);
      const publish = optionalInteger(request.body, 'publish', errors);
      if (noteType === undefined || noteType === null) errors.push('Missing Required Field: noteType.');
      else if (noteType < 1 || noteType > NOTE_TYPES.length) errors.push('Value does not reference an existing entity for noteType .');
      if (publish === undefined || publish === null) errors.push('Missing Required Field: publish.');
      else if (publish < 1 || publish > NOTE_PUBLISH.length) errors.push('Value does not reference an existing entity for publish .');
      const title = optionalString(request.body, 'title') ?? '';
      // Writes made while impersonating a resource are attributed to it (psa-apis.md §3.2).
      const impersonated = impersonatedResource(context, request);
      if ('error' in impersonated) errors.push(impersonated.error);
      const creatorId = 'error' in impersonated ? null : impersonated.resourceId;
      if (title.length > 250) errors.push('title exceeds the maximum length of 250.');
      if (errors.length > 0 || !description || typeof noteType !== 'number' || typeof publish !== 'number') return atErrors(500, ...errors);
      const now = context.store.now();
      const isInternal = publish === INTERNAL_PUBLISH;
      const isResolution = noteType === RESOLUTION_NOTE_TYPE;
      const note = context.store.addNote({
        ticketId: ticket.id,
        text: description,
        title,
        isDescription: !isInternal && !isResolution,
        isInternal,
        isResolution,
        memberId: creatorId,
        contactId: null,
        createdAt: now,
        updatedAt: now,
        autotaskNoteType: noteType,
        autotaskPublish: publish,
      });
      countCreate(context);
      context.store.updateTicket({ ...ticket, updatedAt: now }, 'autotask', false, creatorId ?? API_USER_RESOURCE_ID);
      return json(200, { itemId: note.id });
    }),
  ];
}
