import { and, eq } from 'drizzle-orm';
import { MESSAGES, SEVERITY_SCORES, ticketDraftProblems, type TCreateTicketParsed, type TCreateTicketResponse } from '@switchboard/contracts';
import { psaCompanies, psaContacts, ticketDrafts, ticketRequests, users } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { attemptPsaWrite, enqueuePsaWrite } from '../psa-outbox/psa-outbox';
import { recentMessages } from './conversations';
import { boardNotConfigured, loadMspBoard, type TMspBoard } from './mspboard';
import { findOpenDraft, storedProposalOf } from './ticket-chat.service';
import { TICKET_CREATE_WRITE, TICKET_REQUEST_TARGET, type TTicketCreatePayload } from './ticket-create.psa-write';
import { autotaskDetailsOf, connectWiseDetailsOf, resolveCandidate, resolveCategory, type TResolvedCategory } from './ticket-draft';

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
 * The "ticket created" line: PSA priorities are often named "Priority 3 - Medium" and the message says
 * "priority" already; without a priority the clause is left out (it read "priority .").
 */
export function ticketCreatedSummary(names: { ticketNumber: string; boardName: string; typeName: string; subTypeName: string; priority: string | null }): string {
  const priority = (names.priority ?? '').replace(/^priority\s+/i, '').trim();
  return priority === ''
    ? formatSummary(MESSAGES.assistant.ticketCreatedWithoutPriority, { ...names, priority })
    : formatSummary(MESSAGES.assistant.ticketCreated, { ...names, priority });
}

/** The ticket create of A-109: validated by role, kept, sent through the outbox. */
export function createTicketCreateService(deps: TAppDeps) {
  const db = deps.database.db;

  async function profileOf(actor: TActor) {
    const [user] = await db
      .select({ psaCompanyId: users.psaCompanyId, psaContactId: users.psaContactId })
      .from(users)
      .where(and(eq(users.mspId, actor.mspId), eq(users.id, actor.userId)))
      .limit(1);
    if (!user) throw notFound();
    return user;
  }

  return {
    async create(actor: TActor, body: TCreateTicketParsed): Promise<{ status: 201 | 202; response: TCreateTicketResponse }> {
      if (body.userId && body.userId !== actor.userId) throw notFound();
      if (body.techId && (actor.userKind !== 'technician' || body.techId !== actor.userId)) throw notFound();
      const board = await loadMspBoard(db, actor.mspId);
      if (!board) throw boardNotConfigured();
      const draft = body.ticketDraftId ? await findOpenDraft(db, actor, body.ticketDraftId) : null;

      const cw = board.psaType === 'CONNECTWISE' ? body.connectWiseDetails : null;
      const at = board.psaType === 'AUTOTASK' ? body.autotaskDetails : null;
      const boardId = cw?.boardId ?? at?.queueId ?? null;
      const typeId = cw?.typeId ?? at?.issueTypeValue ?? null;
      const subTypeId = cw?.subTypeId ?? at?.subIssueTypeValue ?? null;

      // Clients create as themselves (their profile's company and contact); technicians for a chosen company and contact.
      const profile = actor.userKind === 'client' ? await profileOf(actor) : null;
      if (profile && profile.psaCompanyId === null) throw new AppError('conflict', MESSAGES.assistant.clientNotLinked);
      const companyId = profile ? profile.psaCompanyId : (body.psaCompanyId ?? null);
      const contactId = profile ? profile.psaContactId : (body.psaContactId ?? null);

      const problems = ticketDraftProblems({ title: body.title, description: body.description, name: body.name, emailId: body.emailId, phone: body.phone, psaCompanyId: companyId, boardId, typeId, subTypeId }, actor.userKind);
      const first = problems[0];
      if (first) throw new AppError('validation', first.reason, { invalidParams: problems });
      if (boardId === null || typeId === null || subTypeId === null || companyId === null) throw new Error('checked above');
      const category = resolveChosenCategory(board, boardId, typeId, subTypeId);

      const requestedPriorityId = cw?.priorityId ?? at?.priorityValue ?? null;
      if (requestedPriorityId !== null && requestedPriorityId !== category.priorityId && !category.board.priorities.some((priority) => priority.priorityId === requestedPriorityId)) {
        throw invalid('priorityId', MESSAGES.assistant.priorityUnknown);
      }
      const priorityId = requestedPriorityId ?? category.priorityId;
      const priorityName = category.board.priorities.find((priority) => priority.priorityId === priorityId)?.priorityName ?? category.priority;

      const [company] = await db
        .select({ name: psaCompanies.name })
        .from(psaCompanies)
        .where(and(eq(psaCompanies.mspId, actor.mspId), eq(psaCompanies.psaType, board.psaType), eq(psaCompanies.externalId, companyId)))
        .limit(1);
      if (!company && actor.userKind === 'technician') throw invalid('psaCompanyId', MESSAGES.assistant.companyUnknown);
      let contactName: string | null = null;
      if (contactId !== null) {
        const [contact] = await db
          .select({ firstName: psaContacts.firstName, lastName: psaContacts.lastName })
          .from(psaContacts)
          .where(and(eq(psaContacts.mspId, actor.mspId), eq(psaContacts.psaType, board.psaType), eq(psaContacts.externalId, contactId), eq(psaContacts.externalCompanyId, companyId)))
          .limit(1);
        if (!contact && actor.userKind === 'technician') throw invalid('psaContactId', MESSAGES.assistant.contactUnknown);
        contactName = contact ? `${contact.firstName} ${contact.lastName}`.trim() : null;
      }

      const conversation = draft
        ? (await recentMessages(db, actor.mspId, draft.conversationId, 200)).map((message) => ({ role: message.role, content: message.content, at: message.timeStamp }))
        : body.conversation.map((message) => ({ role: message.role, content: message.content, at: message.timeStamp ?? null }));
      const slaHours = body.durationHours ?? category.slaHours;
      const impactScore = body.impactScore ?? SEVERITY_SCORES[body.impact];
      const severityScore = body.severityScore ?? SEVERITY_SCORES[body.severity];
      const onboarding = body.onboarding
        ? `\n\nNew employee: ${body.onboarding.newFirstName} ${body.onboarding.newLastName}, email ${body.onboarding.newEmail}, phone ${body.onboarding.newPhone}, owner ${body.onboarding.ownerEmail}, licence ${body.onboarding.licence}`
        : '';
      const description = `${body.description}${onboarding}\n\nImpact: ${body.impact} (${impactScore}). Severity: ${body.severity} (${severityScore}). Tier: ${category.tier}. SLA: ${slaHours} hours.`;
      const now = deps.now();
      const payloadInput: TTicketCreatePayload['input'] = {
        summary: body.title.slice(0, 100),
        description,
        boardId: category.board.board.boardId,
        companyId: Number.parseInt(companyId, 10),
        contactId: contactId === null ? null : Number.parseInt(contactId, 10),
        typeId: category.typeId,
        subtypeId: category.subTypeId,
        itemId: cw?.itemId ?? null,
        priorityId,
        statusId: category.board.board.newStatusId,
        sourceId: category.board.board.sourceValue,
        ticketTypeId: at?.ticketTypeValue ?? category.board.board.ticketTypeId,
        ticketCategoryId: category.board.board.ticketCategoryValue,
        impact: body.impact,
        severity: body.severity,
        dueAt: new Date(now.getTime() + slaHours * 3_600_000).toISOString(),
        reporterName: body.name,
        reporterEmail: body.emailId,
        reporterPhone: body.phone === '' ? null : body.phone,
        conversation,
      };

      const proposal = draft ? storedProposalOf(draft).categorisation : null;
      const { requestId, outboxId } = await db.transaction(async (tx) => {
        const [request] = await tx
          .insert(ticketRequests)
          .values({
            mspId: actor.mspId,
            createdByUserId: actor.userId,
            createdByKind: actor.userKind,
            psaType: board.psaType,
            title: payloadInput.summary,
            companyExternalId: companyId,
            contactExternalId: contactId,
            boardExternalId: String(category.board.board.boardId),
            draft: { ...body, conversation: [], resolved: { tier: category.tier, slaHours, priorityId, priority: priorityName, typeName: category.typeName, subTypeName: category.subTypeName, boardName: category.board.board.boardName } },
          })
          .returning({ id: ticketRequests.id });
        if (!request) throw new Error('ticket request insert returned no row');
        if (draft) await tx.update(ticketDrafts).set({ stage: 'pending', ticketRequestId: request.id, updatedAt: now }).where(and(eq(ticketDrafts.mspId, actor.mspId), eq(ticketDrafts.id, draft.id)));
        const payload: TTicketCreatePayload = {
          psaType: board.psaType,
          requestId: request.id,
          draftId: draft?.id ?? null,
          input: payloadInput,
          names: { board: category.board.board.boardName, type: category.typeName, subtype: category.subTypeName, priority: priorityName, company: company?.name ?? null, contact: contactName },
        };
        const row = await enqueuePsaWrite(tx, { mspId: actor.mspId, kind: TICKET_CREATE_WRITE, idempotencyKey: request.id, target: { type: TICKET_REQUEST_TARGET, id: request.id }, payload, createdBy: actor.userId }, now);
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
            board: category.board.board.boardName,
            type: category.typeName,
            subtype: category.subTypeName,
            priority: priorityName,
            company: companyId,
            ...(proposal ? { aiProposal: { engine: proposal.engine, confidence: proposal.confidence, abstained: proposal.abstained, sources: proposal.sources, alternatives: proposal.alternatives.slice(0, 3) } } : {}),
          },
        });
        return { requestId: request.id, outboxId: row.id };
      });

      // After the commit: try at once; a PSA that is down leaves the ticket pending for the retry loop.
      const outcome = await attemptPsaWrite(deps, actor.mspId, outboxId);
      if (outcome.status === 'failed') {
        await db.update(ticketRequests).set({ state: 'failed', updatedAt: deps.now() }).where(and(eq(ticketRequests.mspId, actor.mspId), eq(ticketRequests.id, requestId)));
      }
      const [stored] = await db.select().from(ticketRequests).where(and(eq(ticketRequests.mspId, actor.mspId), eq(ticketRequests.id, requestId))).limit(1);
      const ticketId = stored?.psaTicketExternalId ? Number.parseInt(stored.psaTicketExternalId, 10) : null;
      const state = outcome.status === 'done' ? 'done' : outcome.status;
      const summary =
        state === 'done'
          ? ticketCreatedSummary({ ticketNumber: stored?.psaTicketNumber ?? String(ticketId), boardName: category.board.board.boardName, typeName: category.typeName, subTypeName: category.subTypeName, priority: priorityName ?? null })
          : state === 'pending'
            ? MESSAGES.assistant.ticketPendingInPsa
            : MESSAGES.assistant.failedInPsa;
      return { status: state === 'done' ? 201 : 202, response: { ticketId, ticketNumber: stored?.psaTicketNumber ?? null, requestId, psaWriteState: state, summary, mode: 'All Tickets' } };
    },
  };
}

/**
 * "Talk to a technician": the ticket is created at once with what was said so far, in the proposed
 * category (or the best candidate when the engine abstained), for the caller's own company as a
 * client or for the chosen company and contact as a technician.
 */
export async function talkToTechnician(deps: TAppDeps, service: TTicketCreateService, actor: TActor, draftId: string, choice: { psaCompanyId?: string | null; psaContactId?: string | null }) {
  const db = deps.database.db;
  const draft = await findOpenDraft(db, actor, draftId);
  const board = await loadMspBoard(db, actor.mspId);
  if (!board) throw boardNotConfigured();
  const stored = storedProposalOf(draft);
  const best = stored.engineProposal.kind === 'answer' ? stored.engineProposal.choice : stored.engineProposal.candidates[0];
  const category = best ? resolveCandidate(board, best) : null;
  const [user] = await db.select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone }).from(users).where(and(eq(users.mspId, actor.mspId), eq(users.id, actor.userId))).limit(1);
  if (!user) throw notFound();
  let reporter = { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email, phone: user.phone };
  if (actor.userKind === 'technician' && choice.psaContactId) {
    const [contact] = await db
      .select({ firstName: psaContacts.firstName, lastName: psaContacts.lastName, email: psaContacts.email, phone: psaContacts.phone })
      .from(psaContacts)
      .where(and(eq(psaContacts.mspId, actor.mspId), eq(psaContacts.psaType, board.psaType), eq(psaContacts.externalId, choice.psaContactId)))
      .limit(1);
    if (contact) reporter = { name: `${contact.firstName} ${contact.lastName}`.trim(), email: contact.email ?? '', phone: contact.phone ?? '' };
  }
  const cw = category && board.psaType === 'CONNECTWISE' ? connectWiseDetailsOf(category) : null;
  const at = category && board.psaType === 'AUTOTASK' ? autotaskDetailsOf(category) : null;
  return service.create(actor, {
    ticketDraftId: draft.id,
    title: `Talk to a technician: ${draft.userMessage.split('\n')[0] ?? ''}`.slice(0, 100),
    description: `${draft.userMessage}\n\nThe user asked to talk to a technician.`,
    name: reporter.name,
    emailId: reporter.email,
    phone: reporter.phone,
    impact: 'Medium',
    severity: 'Medium',
    conversation: [],
    psaCompanyId: choice.psaCompanyId ?? null,
    psaContactId: choice.psaContactId ?? null,
    connectWiseDetails: cw,
    autotaskDetails: at,
  });
}

export type TTicketCreateService = ReturnType<typeof createTicketCreateService>;
