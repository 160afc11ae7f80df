import { isDeepStrictEqual } from 'node:util';
import { and, eq } from 'drizzle-orm';
import type { TProposal } from '@switchboard/assistant';
import { MESSAGES, SEVERITY_SCORES, isValidPhone, ticketDraftProblems, type TCreateTicketParsed, type TCreateTicketResponse, type TOnboardingFields, type TPsaType } from '@switchboard/contracts';
import { psaCompanies, psaContacts, ticketDrafts, ticketRequests, users } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import { cutText } from '../../lib/text';
import type { TActor } from '../../plugins/access';
import type { TStoredBoard } from '../boards/boards.repository';
import { withPsaErrors } from '../integrations/psa-errors';
import { attemptPsaWrite, enqueuePsaWrite, findPsaWriteByKey } from '../psa-outbox/psa-outbox';
import { recentMessages } from './conversations';
import { boardNotConfigured, loadMspBoard, type TMspBoard } from './mspboard';
import { draftClosed, findOwnDraft, isOpenDraft, whereOwnOpenDraft, storedProposalOf } from './ticket-chat.service';
import { TICKET_CREATE_WRITE, TICKET_REQUEST_TARGET, type TTicketCreatePayload } from './ticket-create.psa-write';
import { autotaskDetailsOf, connectWiseDetailsOf, resolveCandidate, resolveCategory, type TResolvedCategory } from './ticket-draft';
import { triageLineOf } from './triage-line';

const invalid = (name: string, reason: string) => new AppError('validation', reason, { invalidParams: [{ name, reason }] });

/** The chosen board, category and subcategory on the MSP's configuration, with the spec's field names in errors. */
function resolveChosenCategory(board: TMspBoard, boardId: number, typeId: number, subTypeId: number): TResolvedCategory {
  const stored = board.stored.find((candidate) => candidate.board.boardId === boardId);
  if (!stored) throw invalid('boardId', MESSAGES.assistant.boardUnknown);
  if (!stored.types.some((type) => type.typeId === typeId)) throw invalid('typeId', MESSAGES.assistant.typeUnknown);
  const resolved = resolveCategory(board, boardId, typeId, subTypeId);
  if (!resolved) throw invalid('subTypeId', MESSAGES.assistant.subTypeUnknown);
  return resolved;
}

function formatSummary(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * The new employee of an onboarding ticket as a line of its description, naming only the fields that have
 * values; null when none about the person has one (the default licence alone describes no one).
 */
export function newEmployeeLine(onboarding: TOnboardingFields | null | undefined): string | null {
  if (!onboarding) return null;
  const name = [onboarding.newFirstName.trim(), onboarding.newLastName.trim()].filter((part) => part !== '').join(' ');
  const labelled = (label: string, value: string) => (value.trim() === '' ? '' : `${label} ${value.trim()}`);
  const details = [labelled('email', onboarding.newEmail), labelled('phone', onboarding.newPhone), labelled('owner', onboarding.ownerEmail)].filter((part) => part !== '');
  if (name === '' && details.length === 0) return null;
  return `New employee: ${[name, ...details, labelled('licence', onboarding.licence)].filter((part) => part !== '').join(', ')}`;
}

/**
 * The "ticket created" line: PSA priorities are often named "Priority 3 - Medium" and the message says
 * "priority" already; without a priority the clause is left out (it read "priority .").
 */
export function ticketCreatedSummary(names: { ticketNumber: string; boardName: string; typeName: string | null; subTypeName: string | null; priority: string | null }): string {
  const { ticketNumber, boardName, typeName, subTypeName } = names;
  // A handover whose proposal no longer fits the board lands on the board alone: the line stops at the board.
  if (typeName === null || subTypeName === null) return formatSummary(MESSAGES.assistant.ticketCreatedWithoutPriority.replace(': {typeName} / {subTypeName}', ''), { ticketNumber, boardName });
  const priority = (names.priority ?? '').replace(/^priority\s+/i, '').trim();
  return priority === ''
    ? formatSummary(MESSAGES.assistant.ticketCreatedWithoutPriority, { ticketNumber, boardName, typeName, subTypeName, priority })
    : formatSummary(MESSAGES.assistant.ticketCreated, { ticketNumber, boardName, typeName, subTypeName, priority });
}


/** ConnectWise's summary limit (Autotask's title takes 255). */
const SUMMARY_MAX = 100;

type TDraftRow = Awaited<ReturnType<typeof findOwnDraft>>;

/** Where a ticket goes: a category of a configured board, or (a handover whose proposal no longer fits) the board alone. */
interface TPlacement {
  board: TStoredBoard;
  category: TResolvedCategory | null;
  priorityId: number | null;
  priorityName: string | null;
}

/** The reporter as the PSA gets it; null fields are left out of the ticket. */
interface TReporter {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** A ticket ready to be kept and sent: checked by the form's rules, or made by the handover from what the user cannot edit. */
interface TTicketToCreate {
  /** As confirmed: kept on the request, where the same confirmation sent again is recognised. */
  body: TCreateTicketParsed;
  draft: TDraftRow | null;
  placement: TPlacement;
  companyId: string;
  contactId: string | null;
  reporter: TReporter;
  /** Hours until the ticket is due: the subcategory's SLA, or a technician's chosen duration. */
  slaHours: number | null;
  /** ConnectWise item and Autotask ticket type, checked against the board. */
  itemId: number | null;
  ticketTypeId: number | null;
}

type TCreateAnswer = { status: 201 | 202; response: TCreateTicketResponse };

/** What the request keeps of its board, category and priority (`draft.resolved`), for the answers and the lists. */
interface TResolvedNames {
  boardName?: string;
  typeName?: string | null;
  subTypeName?: string | null;
  priority?: string | null;
}

/** One draft is one ticket: its PSA write is keyed by the draft, whichever request confirms it. */
const draftWriteKey = (draftId: string) => `ticket-draft:${draftId}`;

/** A PSA id named in the request (not left out) that is not the profile's own. */
const isOther = (named: string | null | undefined, own: string | null) => named !== null && named !== undefined && named !== own;

/** The PSA needs no more than an address of some shape; the form's stricter rule (01 §5) is for what people type. */
const isReporterEmail = (email: string) => /^[^\s@]+@[^\s@]+$/.test(email);

function detailsFor(psaType: TPsaType, body: TCreateTicketParsed) {
  return { cw: psaType === 'CONNECTWISE' ? body.connectWiseDetails : null, at: psaType === 'AUTOTASK' ? body.autotaskDetails : null };
}

function placementOf(category: TResolvedCategory, priorityId: number | null): TPlacement {
  const priorityName = category.board.priorities.find((priority) => priority.priorityId === priorityId)?.priorityName ?? category.priority;
  return { board: category.board, category, priorityId, priorityName };
}

/**
 * The handover's category: the engine's choice, else its first candidate still on the board; when the board was saved
 * again and none fits, the first configured board with no type, as a mail without a category is filed (decision 036).
 */
function handoverPlacement(board: TMspBoard, proposal: TProposal): TPlacement {
  for (const candidate of proposal.kind === 'answer' ? [proposal.choice, ...proposal.candidates] : proposal.candidates) {
    const category = resolveCandidate(board, candidate);
    if (category) return placementOf(category, category.priorityId);
  }
  const first = board.stored[0];
  if (!first) throw boardNotConfigured();
  return { board: first, category: null, priorityId: null, priorityName: null };
}

/** Whether a kept request was made by this very confirmation (kept as JSON, without the conversation). */
function isSameConfirmation(kept: Record<string, unknown>, body: TCreateTicketParsed): boolean {
  const { resolved: _resolved, ...confirmed } = kept;
  return isDeepStrictEqual(confirmed, JSON.parse(JSON.stringify({ ...body, conversation: [] })));
}

/** The ticket create of A-109 and the handover: validated by role, kept, sent through the outbox. */
export function createTicketCreateService(deps: TAppDeps) {
  const db = deps.database.db;

  async function profileOf(actor: TActor) {
    const [user] = await db
      .select({ psaCompanyId: users.psaCompanyId, psaContactId: users.psaContactId, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(eq(users.mspId, actor.mspId), eq(users.id, actor.userId)))
      .limit(1);
    if (!user) throw notFound();
    return user;
  }

  /**
   * Clients create as themselves (their profile's company and contact); technicians for a chosen company and contact.
   * A client naming another company or contact is answered as for another user's id: not found.
   */
  async function partiesOf(actor: TActor, chosen: { psaCompanyId?: string | null; psaContactId?: string | null }) {
    if (actor.userKind !== 'client') return { companyId: chosen.psaCompanyId ?? null, contactId: chosen.psaContactId ?? null, profile: null };
    const profile = await profileOf(actor);
    if (profile.psaCompanyId === null) throw new AppError('conflict', MESSAGES.assistant.clientNotLinked);
    if (isOther(chosen.psaCompanyId, profile.psaCompanyId) || isOther(chosen.psaContactId, profile.psaContactId)) throw notFound();
    return { companyId: profile.psaCompanyId, contactId: profile.psaContactId, profile };
  }

  /** A technician's ConnectWise item must be one of the board's items in the PSA (asked only when one is named, before any transaction). */
  async function assertBoardItem(actor: TActor, boardId: number, itemId: number): Promise<void> {
    const client = await deps.psaClients.forMsp(actor.mspId);
    const items = await withPsaErrors(() => client.listItems(boardId));
    if (!items.some((item) => item.id === itemId && item.isActive)) throw invalid('itemId', MESSAGES.assistant.itemUnknown);
  }

  /** The handover's reporter: the person, or a technician's chosen contact; what the form would refuse is left out (the PSA has the contact's own). */
  async function reporterOf(actor: TActor, psaType: TPsaType, contactId: string | null): Promise<TReporter> {
    const [user] = await db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone }).from(users).where(and(eq(users.mspId, actor.mspId), eq(users.id, actor.userId))).limit(1);
    if (!user) throw notFound();
    let person = { name: `${user.firstName} ${user.lastName}`, email: user.email, phone: user.phone };
    if (actor.userKind === 'technician' && contactId) {
      const [contact] = await db
        .select({ firstName: psaContacts.firstName, lastName: psaContacts.lastName, email: psaContacts.email, phone: psaContacts.phone })
        .from(psaContacts)
        .where(and(eq(psaContacts.mspId, actor.mspId), eq(psaContacts.psaType, psaType), eq(psaContacts.externalId, contactId)))
        .limit(1);
      if (contact) person = { name: `${contact.firstName} ${contact.lastName}`, email: contact.email ?? '', phone: contact.phone ?? '' };
    }
    const email = person.email.trim();
    return { name: person.name.trim() || null, email: isReporterEmail(email) ? email : null, phone: isValidPhone(person.phone) ? person.phone.trim() : null };
  }

  /** The answer about a kept request: its PSA write tried now (after the commit), then the request as it stands. */
  async function answerFor(mspId: string, requestId: string, outboxId: string | null): Promise<TCreateAnswer> {
    // A PSA that is down leaves the ticket pending for the retry loop.
    const outcome = outboxId === null ? null : await attemptPsaWrite(deps, mspId, outboxId);
    if (outcome?.status === 'failed') {
      await db.update(ticketRequests).set({ state: 'failed', updatedAt: deps.now() }).where(and(eq(ticketRequests.mspId, mspId), eq(ticketRequests.id, requestId)));
    }
    const [stored] = await db.select().from(ticketRequests).where(and(eq(ticketRequests.mspId, mspId), eq(ticketRequests.id, requestId))).limit(1);
    if (!stored) throw new Error('a kept ticket request vanished');
    const ticketId = stored.psaTicketExternalId ? Number.parseInt(stored.psaTicketExternalId, 10) : null;
    const state = outcome?.status ?? (ticketId !== null ? 'done' : stored.state === 'failed' ? 'failed' : 'pending');
    const names = (stored.draft.resolved ?? {}) as TResolvedNames;
    const summary =
      state === 'done'
        ? ticketCreatedSummary({ ticketNumber: stored.psaTicketNumber ?? String(ticketId), boardName: names.boardName ?? '', typeName: names.typeName ?? null, subTypeName: names.subTypeName ?? null, priority: names.priority ?? null })
        : state === 'pending'
          ? MESSAGES.assistant.ticketPendingInPsa
          : MESSAGES.assistant.failedInPsa;
    return { status: state === 'done' ? 201 : 202, response: { ticketId, ticketNumber: stored.psaTicketNumber ?? null, requestId, psaWriteState: state, summary, mode: 'All Tickets' } };
  }

  /**
   * A draft no longer open: the same confirmation sent again (a double-click, a retry after a lost answer) is answered
   * with the ticket it made; another one (Confirm beside "Talk to a technician"), or a cancelled draft, is refused.
   */
  async function answerClosedDraft(actor: TActor, draft: TDraftRow, body: TCreateTicketParsed): Promise<TCreateAnswer> {
    const requestId = draft.ticketRequestId;
    if (requestId === null) throw draftClosed();
    const [request] = await db.select().from(ticketRequests).where(and(eq(ticketRequests.mspId, actor.mspId), eq(ticketRequests.id, requestId))).limit(1);
    if (!request || !isSameConfirmation(request.draft, body)) throw draftClosed();
    // A draft confirmed before its write was keyed by the draft had it keyed by the request.
    const write = (await findPsaWriteByKey(db, actor.mspId, draftWriteKey(draft.id))) ?? (await findPsaWriteByKey(db, actor.mspId, requestId));
    return answerFor(actor.mspId, requestId, write?.id ?? null);
  }

  /** Keeps the request and its PSA write in one transaction that first claims the draft, then tries the write. */
  async function send(actor: TActor, psaType: TPsaType, ticket: TTicketToCreate): Promise<TCreateAnswer> {
    const { body, draft, placement, companyId, contactId, reporter, slaHours, itemId, ticketTypeId } = ticket;
    const { category, priorityId, priorityName } = placement;
    const [company] = await db
      .select({ name: psaCompanies.name })
      .from(psaCompanies)
      .where(and(eq(psaCompanies.mspId, actor.mspId), eq(psaCompanies.psaType, psaType), eq(psaCompanies.externalId, companyId)))
      .limit(1);
    if (!company && actor.userKind === 'technician') throw invalid('psaCompanyId', MESSAGES.assistant.companyUnknown);
    let contactName: string | null = null;
    if (contactId !== null) {
      const [contact] = await db
        .select({ firstName: psaContacts.firstName, lastName: psaContacts.lastName })
        .from(psaContacts)
        .where(and(eq(psaContacts.mspId, actor.mspId), eq(psaContacts.psaType, psaType), eq(psaContacts.externalId, contactId), eq(psaContacts.externalCompanyId, companyId)))
        .limit(1);
      if (!contact && actor.userKind === 'technician') throw invalid('psaContactId', MESSAGES.assistant.contactUnknown);
      contactName = contact ? `${contact.firstName} ${contact.lastName}`.trim() : null;
    }

    const conversation = draft
      ? (await recentMessages(db, actor.mspId, draft.conversationId, 200)).map((message) => ({ role: message.role, content: message.content, at: message.timeStamp }))
      : body.conversation.map((message) => ({ role: message.role, content: message.content, at: message.timeStamp ?? null }));
    const impactScore = body.impactScore ?? SEVERITY_SCORES[body.impact];
    const severityScore = body.severityScore ?? SEVERITY_SCORES[body.severity];
    const employee = newEmployeeLine(body.onboarding);
    const onboarding = employee === null ? '' : `\n\n${employee}`;
    const triage = triageLineOf({ impact: body.impact, impactScore, severity: body.severity, severityScore, tier: category?.tier ?? null, slaHours });
    const description = `${body.description}${onboarding}\n\n${triage}`;
    const now = deps.now();
    const boardRow = placement.board.board;
    const payloadInput: TTicketCreatePayload['input'] = {
      summary: cutText(body.title, SUMMARY_MAX),
      description,
      boardId: boardRow.boardId,
      companyId: Number.parseInt(companyId, 10),
      contactId: contactId === null ? null : Number.parseInt(contactId, 10),
      typeId: category?.typeId ?? null,
      subtypeId: category?.subTypeId ?? null,
      itemId,
      priorityId,
      statusId: boardRow.newStatusId,
      sourceId: boardRow.sourceValue,
      ticketTypeId,
      ticketCategoryId: boardRow.ticketCategoryValue,
      impact: body.impact,
      severity: body.severity,
      dueAt: slaHours === null ? null : new Date(now.getTime() + slaHours * 3_600_000).toISOString(),
      reporterName: reporter.name,
      reporterEmail: reporter.email,
      reporterPhone: reporter.phone,
      conversation,
    };
    const names = { board: boardRow.boardName, type: category?.typeName ?? null, subtype: category?.subTypeName ?? null, priority: priorityName, company: company?.name ?? null, contact: contactName };

    const proposal = draft ? storedProposalOf(draft).categorisation : null;
    const created = await db.transaction(async (tx) => {
      // Claimed before anything is kept: of two requests confirming one draft (a double-click, Confirm beside "Talk to a
      // technician" or Cancel), the one that finds it no longer open keeps nothing and sends nothing.
      if (draft) {
        const [claimed] = await tx.update(ticketDrafts).set({ stage: 'pending', updatedAt: now }).where(whereOwnOpenDraft(actor, draft.id)).returning({ id: ticketDrafts.id });
        if (!claimed) return null;
      }
      const [request] = await tx
        .insert(ticketRequests)
        .values({
          mspId: actor.mspId,
          createdByUserId: actor.userId,
          createdByKind: actor.userKind,
          psaType,
          title: payloadInput.summary,
          companyExternalId: companyId,
          contactExternalId: contactId,
          boardExternalId: String(boardRow.boardId),
          draft: { ...body, conversation: [], resolved: { tier: category?.tier ?? null, slaHours, priorityId, priority: priorityName, typeName: names.type, subTypeName: names.subtype, boardName: names.board } },
        })
        .returning({ id: ticketRequests.id });
      if (!request) throw new Error('ticket request insert returned no row');
      if (draft) await tx.update(ticketDrafts).set({ ticketRequestId: request.id }).where(and(eq(ticketDrafts.mspId, actor.mspId), eq(ticketDrafts.id, draft.id)));
      const payload: TTicketCreatePayload = { psaType, requestId: request.id, draftId: draft?.id ?? null, input: payloadInput, names };
      const idempotencyKey = draft ? draftWriteKey(draft.id) : request.id;
      const row = await enqueuePsaWrite(tx, { mspId: actor.mspId, kind: TICKET_CREATE_WRITE, idempotencyKey, target: { type: TICKET_REQUEST_TARGET, id: request.id }, payload, createdBy: actor.userId }, now);
      // The AI's proposal that shaped this ticket, with engine, confidence and sources (issue #9).
      await deps.audit.record(tx, {
        mspId: actor.mspId,
        actorKind: 'user',
        actorId: actor.userId,
        action: 'ticket.create',
        target: request.id,
        outcome: 'success',
        ip: actor.ip,
        requestId: actor.requestId,
        details: {
          board: names.board,
          type: names.type,
          subtype: names.subtype,
          priority: priorityName,
          company: companyId,
          ...(proposal ? { aiProposal: { engine: proposal.engine, confidence: proposal.confidence, abstained: proposal.abstained, sources: proposal.sources, alternatives: proposal.alternatives.slice(0, 3) } } : {}),
        },
      });
      return { requestId: request.id, outboxId: row.id };
    });
    if (created) return answerFor(actor.mspId, created.requestId, created.outboxId);
    if (!draft) throw new Error('only a draft is claimed');
    return answerClosedDraft(actor, await findOwnDraft(db, actor, draft.id), body);
  }

  return {
    /** the confirmed form, checked by role with the spec's messages. */
    async create(actor: TActor, body: TCreateTicketParsed): Promise<TCreateAnswer> {
      if (body.userId && body.userId !== actor.userId) throw notFound();
      if (body.techId && (actor.userKind !== 'technician' || body.techId !== actor.userId)) throw notFound();
      const board = await loadMspBoard(db, actor.mspId);
      if (!board) throw boardNotConfigured();
      const draft = body.ticketDraftId ? await findOwnDraft(db, actor, body.ticketDraftId) : null;
      if (draft && !isOpenDraft(draft)) return answerClosedDraft(actor, draft, body);

      const { cw, at } = detailsFor(board.psaType, body);
      const boardId = cw?.boardId ?? at?.queueId ?? null;
      const typeId = cw?.typeId ?? at?.issueTypeValue ?? null;
      const subTypeId = cw?.subTypeId ?? at?.subIssueTypeValue ?? null;
      const { companyId, contactId, profile } = await partiesOf(actor, body);

      const problems = ticketDraftProblems({ title: body.title, description: body.description, name: body.name, emailId: body.emailId, phone: body.phone, psaCompanyId: companyId, boardId, typeId, subTypeId }, actor.userKind);
      const first = problems[0];
      if (first) throw new AppError('validation', first.reason, { invalidParams: problems });
      if (boardId === null || typeId === null || subTypeId === null || companyId === null) throw new Error('checked above');
      const category = resolveChosenCategory(board, boardId, typeId, subTypeId);

      const boardRow = category.board.board;
      const phone = body.phone.trim() === '' ? null : body.phone.trim();
      if (profile) {
        // A client's form has no priority, duration, item or ticket type: the subcategory's priority and SLA
        // apply, and the reporter is the client; only the phone to call back on is theirs to give.
        if (body.emailId.trim().toLowerCase() !== profile.email.trim().toLowerCase()) throw invalid('emailId', MESSAGES.assistant.reporterEmailNotOwn);
        const reporter = { name: `${profile.firstName} ${profile.lastName}`.trim() || null, email: profile.email, phone };
        return send(actor, board.psaType, { body, draft, placement: placementOf(category, category.priorityId), companyId, contactId, reporter, slaHours: category.slaHours, itemId: null, ticketTypeId: boardRow.ticketTypeId });
      }
      const requestedPriorityId = cw?.priorityId ?? at?.priorityValue ?? null;
      if (requestedPriorityId !== null && requestedPriorityId !== category.priorityId && !category.board.priorities.some((priority) => priority.priorityId === requestedPriorityId)) {
        throw invalid('priorityId', MESSAGES.assistant.priorityUnknown);
      }
      const ticketTypeValue = at?.ticketTypeValue ?? null;
      if (ticketTypeValue !== null && ticketTypeValue !== boardRow.ticketTypeId) throw invalid('ticketTypeValue', MESSAGES.assistant.ticketTypeUnknown);
      const itemId = cw?.itemId ?? null;
      if (itemId !== null) await assertBoardItem(actor, boardRow.boardId, itemId);
      const reporter = { name: body.name, email: body.emailId, phone };
      return send(actor, board.psaType, { body, draft, placement: placementOf(category, requestedPriorityId ?? category.priorityId), companyId, contactId, reporter, slaHours: body.durationHours ?? category.slaHours, itemId, ticketTypeId: boardRow.ticketTypeId });
    },

    /**
     * "Talk to a technician": the ticket is created at once with what was said so far, in the proposed category (or the
     * best candidate when the engine abstained), for the caller's own company as a client or for the chosen company and
     * contact as a technician. Nothing the person cannot edit stops it (see `reporterOf`, `handoverPlacement`).
     */
    async handover(actor: TActor, draftId: string, choice: { psaCompanyId?: string | null; psaContactId?: string | null }): Promise<TCreateAnswer> {
      const draft = await findOwnDraft(db, actor, draftId);
      const board = await loadMspBoard(db, actor.mspId);
      if (!board) throw boardNotConfigured();
      const placement = handoverPlacement(board, storedProposalOf(draft).engineProposal);
      const reporter = await reporterOf(actor, board.psaType, choice.psaContactId ?? null);
      const category = placement.category;
      const body: TCreateTicketParsed = {
        ticketDraftId: draft.id,
        title: cutText(`Talk to a technician: ${draft.userMessage.split('\n')[0] ?? ''}`, SUMMARY_MAX),
        description: `${draft.userMessage}\n\nThe user asked to talk to a technician.`,
        name: reporter.name ?? '',
        emailId: reporter.email ?? '',
        phone: reporter.phone ?? '',
        impact: 'Medium',
        severity: 'Medium',
        conversation: [],
        psaCompanyId: choice.psaCompanyId ?? null,
        psaContactId: choice.psaContactId ?? null,
        connectWiseDetails: category && board.psaType === 'CONNECTWISE' ? connectWiseDetailsOf(category) : null,
        autotaskDetails: category && board.psaType === 'AUTOTASK' ? autotaskDetailsOf(category) : null,
      };
      if (!isOpenDraft(draft)) return answerClosedDraft(actor, draft, body);
      const { companyId, contactId } = await partiesOf(actor, body);
      // A technician chooses the company in the form; the handover cannot guess it.
      if (companyId === null) throw invalid('psaCompanyId', MESSAGES.ticketForm.companyRequired);
      return send(actor, board.psaType, { body, draft, placement, companyId, contactId, reporter, slaHours: category?.slaHours ?? null, itemId: null, ticketTypeId: placement.board.board.ticketTypeId });
    },
  };
}

export type TTicketCreateService = ReturnType<typeof createTicketCreateService>;
