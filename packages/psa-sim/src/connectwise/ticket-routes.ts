import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute, TSimResponse } from '../http';
import type { TSimTicket } from '../store';
import { CW_API_PREFIX, cwError, cwInvalidObject, cwNotFound, itemResponse, listResponse, listSourceResponse, readObjectBody } from './common';
import { ticketSource } from './fast-fields';
import { applyPatch, parsePatchOperations } from './json-patch';
import { presentNote, presentTicket } from './presenters';
import { readTicketInput } from './ticket-input';



function updateTicketFrom(context: TSimContext, base: TSimTicket, input: Record<string, unknown>): TSimResponse {
  const result = readTicketInput(context.store, input, base);
  if ('errors' in result) return cwInvalidObject('ticket', result.errors);
  const updated = context.store.updateTicket({ ...result.ticket, id: base.id }, 'connectwise', result.skipCallback);
  return json(200, presentTicket(context.store, updated));
}

/**
 * A technician's edit made in ConnectWise's own screens (`/__sim/connectwise/technician-ticket-edits`): unlike an API
 * change by the integration's member, it reaches self-suppressed callbacks, which is how a receiver hears about it.
 */
export function editConnectWiseTicketAsTechnician(context: TSimContext, body: unknown): TSimResponse {
  const input = isRecord(body) && isRecord(body.ticket) ? body.ticket : null;
  const ticket = input && typeof input.id === 'number' ? context.store.tickets.get(input.id) : undefined;
  if (!input || !ticket) return { status: 400, body: { error: 'ticket.id must be the id of a simulated ticket' } };
  // Fields given in ConnectWise's own names (summary, status, …) over the ticket as it stands, like a PUT.
  const result = readTicketInput(context.store, { ...presentTicket(context.store, ticket), ...input }, ticket);
  if ('errors' in result) return cwInvalidObject('ticket', result.errors);
  const updated = context.store.updateTicket({ ...result.ticket, id: ticket.id, updatedAt: context.now() }, 'connectwise-ui');
  return json(200, presentTicket(context.store, updated));
}

export function connectWiseTicketRoutes(context: TSimContext): TRoute[] {
  const base = `${CW_API_PREFIX}/service/tickets`;
  const findTicket = (id: number): TSimTicket | undefined => context.store.tickets.get(id);
  return [
    route('GET', base, (request) => listSourceResponse(request, ticketSource(context.store))),
    route('POST', `${base}/search`, (request) => {
      const body = isRecord(request.body) ? request.body : {};
      const text = (name: string): string | null => {
        const key = Object.keys(body).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
        const value = key === undefined ? undefined : body[key];
        return typeof value === 'string' ? value : null;
      };
      return listSourceResponse(request, ticketSource(context.store), { conditions: text('conditions'), childConditions: text('childConditions'), orderBy: text('orderBy') });
    }),
    route('POST', base, (request) => {
      const parsed = readObjectBody(request, 'ticket');
      if ('response' in parsed) return parsed.response;
      const body = parsed.body;
      const result = readTicketInput(context.store, body, null);
      if ('errors' in result) return cwInvalidObject('ticket', result.errors);
      const ticket = context.store.tickets.insert(result.ticket);
      for (const note of result.initialNotes) {
        context.store.addNote({
          ticketId: ticket.id,
          text: note.text,
          title: '',
          isDescription: note.isDescription,
          isInternal: note.isInternal,
          isResolution: note.isResolution,
          memberId: null,
          contactId: note.isDescription ? ticket.contactId : null,
          createdAt: ticket.createdAt,
          updatedAt: ticket.createdAt,
          autotaskNoteType: 1,
          autotaskPublish: note.isInternal ? 2 : 1,
        });
      }
      countCreate(context);
      context.store.emitTicketChange({ action: 'added', ticket, changedFields: [], via: 'connectwise', isCallbackSkipped: result.skipCallback, actorResourceId: null });
      return json(201, presentTicket(context.store, ticket));
    }),
    route('GET', `${base}/{id}`, (request, params) => {
      const ticket = findTicket(idParam(params));
      return ticket ? itemResponse(request, presentTicket(context.store, ticket)) : cwNotFound('Ticket', idParam(params));
    }),
    route('PATCH', `${base}/{id}`, (request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      const operations = parsePatchOperations(request.body, 'ticket');
      if ('errors' in operations) return cwInvalidObject('ticket', operations.errors);
      const patched = applyPatch(presentTicket(context.store, ticket), operations);
      return updateTicketFrom(context, ticket, patched);
    }),
    route('PUT', `${base}/{id}`, (request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      const parsed = readObjectBody(request, 'ticket');
      if ('response' in parsed) return parsed.response;
      const body = parsed.body;
      // PUT replaces the entity, so optional references the body leaves out are cleared.
      const cleared: TSimTicket = { ...ticket, contactId: null, typeId: null, subTypeId: null, itemId: null, ownerId: null, teamId: null, sourceId: null, externalReference: '', dueAt: null };
      return updateTicketFrom(context, cleared, body);
    }),
    route('DELETE', `${base}/{id}`, (_request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      context.store.tickets.delete(ticket.id);
      context.store.emitTicketChange({ action: 'deleted', ticket, changedFields: [], via: 'connectwise', isCallbackSkipped: false, actorResourceId: null });
      return { status: 204 };
    }),
    route('GET', `${base}/{id}/notes`, (request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      return listResponse(request, context.store.notesOfTicket(ticket.id).map((note) => presentNote(context.store, note)));
    }),
    route('GET', `${base}/{id}/notes/{id}`, (request, params) => {
      const note = context.store.notes.get(idParam(params, 1));
      if (!note || note.ticketId !== idParam(params)) return cwNotFound('ServiceNote', idParam(params, 1));
      return itemResponse(request, presentNote(context.store, note));
    }),
    route('POST', `${base}/{id}/notes`, (request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      const parsed = readObjectBody(request, 'serviceNote');
      if ('response' in parsed) return parsed.response;
      const body = parsed.body;
      const errors = [];
      if (typeof body.text !== 'string' || body.text.trim() === '') errors.push({ code: 'MissingRequiredField', message: 'text is required.', resource: 'serviceNote', field: 'text' });
      const isDescription = body.detailDescriptionFlag === true;
      const isInternal = body.internalAnalysisFlag === true;
      const isResolution = body.resolutionFlag === true;
      if (!isDescription && !isInternal && !isResolution) {
        errors.push({ code: 'InvalidField', message: 'At least one of detailDescriptionFlag, internalAnalysisFlag or resolutionFlag must be true.', resource: 'serviceNote', field: 'detailDescriptionFlag' });
      }
      const memberId = isRecord(body.member) && typeof body.member.id === 'number' ? body.member.id : null;
      if (memberId !== null && !context.store.members.get(memberId)) errors.push({ code: 'InvalidObject', message: `Member ${memberId} was not found.`, resource: 'serviceNote', field: 'member' });
      const contactId = isRecord(body.contact) && typeof body.contact.id === 'number' ? body.contact.id : null;
      if (contactId !== null && !context.store.contacts.get(contactId)) errors.push({ code: 'InvalidObject', message: `Contact ${contactId} was not found.`, resource: 'serviceNote', field: 'contact' });
      if (errors.length > 0 || typeof body.text !== 'string') return cwInvalidObject('serviceNote', errors);
      const now = context.store.now();
      const note = context.store.addNote({
        ticketId: ticket.id,
        text: body.text,
        title: '',
        isDescription,
        isInternal,
        isResolution,
        memberId,
        contactId,
        createdAt: now,
        updatedAt: now,
        autotaskNoteType: isResolution ? 3 : 1,
        autotaskPublish: isInternal ? 2 : 1,
      });
      countCreate(context);
      context.store.updateTicket({ ...ticket, updatedAt: now }, 'connectwise', body.skipCallback === true);
      return json(201, presentNote(context.store, note));
    }),
    route('GET', `${base}/{id}/allNotes`, (request, params) => {
      const ticket = findTicket(idParam(params));
      if (!ticket) return cwNotFound('Ticket', idParam(params));
      return listResponse(
        request,
        context.store.notesOfTicket(ticket.id).map((note) => ({ ...presentNote(context.store, note), noteType: 'TicketNote', isMarkdownFlag: false })),
      );
    }),
    route('POST', `${base}/{id}/notes/{id}`, () => cwError(405, 'MethodNotAllowed', 'POST is not supported on a note; use PATCH or PUT.')),
  ];
}
