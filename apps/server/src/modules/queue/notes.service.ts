import {
  MESSAGES,
  type TAddNoteBody,
  type TAddNotesQuery,
  type TCloseTicketResponse,
  type TNoteKind,
  type TPsaWriteState,
  type TQueueNote,
  type TUpdateTicketBody,
  type TUpdateTicketResponse,
} from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { conflict, notFound, validation } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { resolveTechnician } from './queue.policy';
import { deliverQueueWrite, deliverTimeEntries, enqueueQueueWrite, pendingWriteStates, QUEUE_WRITES, type TUpdatePayload } from './queue.psa-writes';
import { insertQueueEvent } from './queue-events.repository';
import { applyEditToTicketCopy, findTicketByPsaId, updateQueueTicket, type TQueueTicketRow } from './queue-tickets.repository';
import { tierRank } from './queue.scoring';
import { memberNumberOf } from './timers.service';
import { closeTicketInTx, type TQueueService } from './queue.service';
import { insertQueueNote, listQueueNotes, type TQueueNoteRow } from './notes.repository';

const DONE: TPsaWriteState = { status: 'done', message: null, nextAttemptAt: null };

/** Who may change a ticket: the technician it is with, while it is not closed (409 otherwise, in plain words). */
function assertMayChange(ticket: TQueueTicketRow, actorId: string): void {
  if (ticket.state === 'closed') throw conflict(MESSAGES.queue.ticketClosed);
  if (ticket.assignedTechId !== actorId || ticket.state === 'queued') throw conflict(ticket.assignedTechId === null || ticket.state === 'queued' ? MESSAGES.queue.notYourTicket : MESSAGES.queue.heldByOther);
}

/** R-314: the note's category from A-111's flags (resolution, then internal, then description). */
export function noteKindOf(query: Pick<TAddNotesQuery, 'detailDescriptionFlag' | 'internalAnalysisFlag' | 'resolutionFlag'>): TNoteKind {
  if (query.resolutionFlag === 'true') return 'resolution';
  if (query.internalAnalysisFlag === 'true') return 'internal';
  return 'description';
}

function presentNote(note: TQueueNoteRow, psa: TPsaWriteState): TQueueNote {
  return {
    id: note.id,
    ticketId: note.psaTicketId,
    kind: note.kind,
    noteType: note.noteType,
    info: note.info,
    text: note.text,
    createdAt: note.createdAt.toISOString(),
    createdBy: note.createdBy,
    psaNoteId: note.psaNoteId,
    psa,
  };
}

/** Notes, ticket edits and the PSA close: written here, sent through the outbox. */
export function createTicketWritesService(deps: TAppDeps, queue: TQueueService) {
  const db = deps.database.db;

  async function ticketOf(actor: TActor, ticketId: number): Promise<TQueueTicketRow> {
    const ticket = await findTicketByPsaId(db, actor.mspId, ticketId);
    if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
    return ticket;
  }

  /**
   * the note is kept here and sent to the PSA under its category's flag (or Autotask
   * note type) with the info label in front ('Technician: (id): ', R-315). Blank notes are refused.
   * Only the technician the ticket is with writes on it, until it closes, as with edits: the spec's one
   * note box is My Ticket's, on the technician's own working ticket (02 §1, §4 "Getting next tickets").
   */
  async function addNote(actor: TActor, ticketId: number, kind: TNoteKind, noteType: number | null, body: TAddNoteBody): Promise<{ items: TQueueNote[] }> {
    if (body.text.trim() === '') throw validation(MESSAGES.queue.emptyNote, [{ name: 'text', reason: MESSAGES.queue.emptyNote }]);
    const technician = await resolveTechnician(db, actor, actor.userId, 'work');
    // R-315's label names the writer's PSA member and is always the server's: the screen sends this label or none, so
    // the info sent is not used (kept as sent, it let a note be labelled as a colleague's; review s28).
    const info = `Technician: (${technician.psaMemberId ?? technician.id}): `;
    const { note, writeId, ticket } = await db.transaction(async (tx) => {
      // Locked and checked as an edit is: a note on a closed ticket or on another technician's used to reach the PSA.
      const locked = await findTicketByPsaId(tx, actor.mspId, ticketId, true);
      if (!locked) throw notFound(MESSAGES.queue.ticketNotFound);
      assertMayChange(locked, actor.userId);
      const created = await insertQueueNote(tx, { mspId: actor.mspId, queueTicketId: locked.id, psaTicketId: locked.psaTicketId, kind, noteType, info, text: body.text, createdBy: actor.userId, createdAt: deps.now() });
      const id = await enqueueQueueWrite(tx, {
        mspId: actor.mspId,
        kind: QUEUE_WRITES.note,
        ticketRowId: locked.ticketRowId,
        idempotencyKey: `note:${created.id}`,
        payload: { noteId: created.id, ticketId: locked.psaTicketId, text: `${info}${body.text}`, kind, noteType, memberId: memberNumberOf(technician) },
        createdBy: actor.userId,
      }, deps.now());
      return { note: created, writeId: id, ticket: locked };
    });
    const psa = await deliverQueueWrite(deps, actor.mspId, writeId);
    const [stored] = (await listQueueNotes(db, actor.mspId, ticket.id)).filter((each) => each.id === note.id);
    return { items: [presentNote(stored ?? note, psa)] };
  }

  /** The notes written through Switchboard on a ticket, each with its delivery to the PSA. */
  async function listNotes(actor: TActor, ticketId: number): Promise<{ items: TQueueNote[] }> {
    const ticket = await ticketOf(actor, ticketId);
    const notes = await listQueueNotes(db, actor.mspId, ticket.id);
    const states = await pendingWriteStates(db, actor.mspId, ticket.ticketRowId, QUEUE_WRITES.note);
    return {
      items: notes.map((note) => presentNote(note, note.psaNoteId !== null ? DONE : (states.get(note.id) ?? DONE))),
    };
  }

  /**
   * edit mode's save. Needs a board; title, category, subcategory, priority and
   * status go to the PSA; impact, severity and tier are the queue's; a changed description is added
   * to the PSA as a Description note (the PSAs keep descriptions as notes). Only the technician the
   * ticket is with edits it, until it closes (My Ticket's edit is the only one; the spec names no other).
   */
  async function updateTicket(actor: TActor, ticketId: number, body: TUpdateTicketBody): Promise<TUpdateTicketResponse> {
    const technician = await resolveTechnician(db, actor, actor.userId, 'work');
    const ticket = await ticketOf(actor, ticketId);
    assertMayChange(ticket, actor.userId);
    if (ticket.boardId === null) throw validation(MESSAGES.queue.editNeedsBoard, [{ name: 'boardId', reason: MESSAGES.queue.editNeedsBoard }]);
    const psaChanges: Omit<TUpdatePayload, 'ticketId'> = {
      ...(body.title !== undefined && body.title !== ticket.summary ? { summary: body.title } : {}),
      ...(body.categoryId !== undefined ? { typeId: body.categoryId } : {}),
      ...(body.subCategoryId !== undefined ? { subtypeId: body.subCategoryId } : {}),
      ...(body.priorityId !== undefined && body.priorityId !== null ? { priorityId: body.priorityId } : {}),
      ...(body.statusId !== undefined && body.statusId !== null ? { statusId: body.statusId } : {}),
    };
    const descriptionChanged = body.description !== undefined && body.description !== (ticket.description ?? '') && body.description !== '';
    const localChanges = {
      ...(body.impact !== undefined ? { impact: body.impact } : {}),
      ...(body.severity !== undefined ? { severity: body.severity } : {}),
      ...(body.tier !== undefined && body.tier !== null ? { tier: body.tier, tierRank: tierRank(body.tier), isTierPinned: true } : {}),
    };
    if (Object.keys(psaChanges).length === 0 && !descriptionChanged && Object.keys(localChanges).length === 0) throw validation(MESSAGES.queue.nothingToUpdate);
    const writeIds = await db.transaction(async (tx) => {
      const now = deps.now();
      // Locked and checked as a close is: an edit of a closed ticket or of another technician's used to reach the PSA.
      const locked = await findTicketByPsaId(tx, actor.mspId, ticketId, true);
      if (!locked) throw notFound(MESSAGES.queue.ticketNotFound);
      assertMayChange(locked, actor.userId);
      const ids: string[] = [];
      if (Object.keys(localChanges).length > 0) await updateQueueTicket(tx, actor.mspId, ticket.id, localChanges, now);
      await applyEditToTicketCopy(tx, actor.mspId, ticket.id, {
        ...(psaChanges.summary !== undefined ? { summary: psaChanges.summary } : {}),
        ...(descriptionChanged && body.description !== undefined ? { description: body.description } : {}),
        ...(body.categoryId !== undefined ? { typeId: body.categoryId ?? null, typeName: body.categoryName ?? null } : {}),
        ...(body.subCategoryId !== undefined ? { subtypeId: body.subCategoryId ?? null, subtypeName: body.subCategoryName ?? null } : {}),
        ...(psaChanges.priorityId !== undefined ? { priorityId: psaChanges.priorityId, priorityName: body.priority ?? null } : {}),
        ...(psaChanges.statusId !== undefined ? { statusId: psaChanges.statusId, statusName: body.status ?? null } : {}),
      });
      if (Object.keys(psaChanges).length > 0) {
        ids.push(
          await enqueueQueueWrite(tx, {
            mspId: actor.mspId,
            kind: QUEUE_WRITES.update,
            ticketRowId: ticket.ticketRowId,
            idempotencyKey: `update:${ticket.id}:${now.getTime()}`,
            payload: { ticketId: ticket.psaTicketId, ...psaChanges },
            createdBy: actor.userId,
          }, deps.now()),
        );
      }
      if (descriptionChanged && body.description !== undefined) {
        const note = await insertQueueNote(tx, { mspId: actor.mspId, queueTicketId: ticket.id, psaTicketId: ticket.psaTicketId, kind: 'description', noteType: null, info: '', text: body.description, createdBy: actor.userId, createdAt: now });
        ids.push(
          await enqueueQueueWrite(tx, {
            mspId: actor.mspId,
            kind: QUEUE_WRITES.note,
            ticketRowId: ticket.ticketRowId,
            idempotencyKey: `note:${note.id}`,
            payload: { noteId: note.id, ticketId: ticket.psaTicketId, text: body.description, kind: 'description', noteType: null, memberId: memberNumberOf(technician) },
            createdBy: actor.userId,
          }, deps.now()),
        );
      }
      await insertQueueEvent(tx, actor.mspId, ticket.id, actor.userId, 'edited', now, { fields: Object.keys(body) });
      return ids;
    });
    let psa: TPsaWriteState = DONE;
    for (const id of writeIds) {
      const state = await deliverQueueWrite(deps, actor.mspId, id);
      if (state.status !== 'done' && psa.status === 'done') psa = state;
    }
    return { ticket: await queue.presentOne(actor.mspId, ticket.id), psa };
  }

  /**
   * closes the ticket with its board's closing status. Closed here at once; the PSA close is
   * tolerated when it fails and retried by the outbox until it lands. Timers still open on it
   * are completed and their time entries sent first: a closed ticket can no longer be completed.
   */
  async function closeTicket(actor: TActor, ticketId: number, boardId: number | undefined): Promise<TCloseTicketResponse> {
    await resolveTechnician(db, actor, actor.userId, 'work');
    const result = await db.transaction(async (tx) => {
      const now = deps.now();
      const ticket = await findTicketByPsaId(tx, actor.mspId, ticketId, true);
      if (!ticket) throw notFound(MESSAGES.queue.ticketNotFound);
      assertMayChange(ticket, actor.userId);
      if (boardId !== undefined && ticket.boardId !== null && boardId !== ticket.boardId) throw validation(MESSAGES.queue.boardMismatch, [{ name: 'boardId', reason: MESSAGES.queue.boardMismatch }]);
      const closed = await closeTicketInTx(tx, ticket, actor.userId, now);
      return { ticket, ...closed };
    });
    const timeEntry = await deliverTimeEntries(deps, actor.mspId, result.timeEntryWriteIds);
    const psa = await deliverQueueWrite(deps, actor.mspId, result.writeId);
    return { ticketId: result.ticket.psaTicketId, closed: true, closingStatus: result.statusName, psa, timeEntry };
  }

  return { addNote, listNotes, updateTicket, closeTicket };
}
