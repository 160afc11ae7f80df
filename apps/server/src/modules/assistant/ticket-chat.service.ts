import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { questionBankFor } from './diagnostic-questions.service';
import { createLocalEngine, trainCategoriser, type TAnswer, type TCategoriser, type TProposal, type TQuestion } from '@switchboard/assistant';
import { DID_NOT_HELP_LIMIT, MESSAGES, TICKET_DRAFT_ENDED_FLAG, answeredQuestionsText, TROUBLESHOOTING_STEP_COUNT, defaultConversationName, isOnboardingCategory, type TChatMessage, type TDiagnosticQuestion, type TProposedCategorisation, type TTicketDraft, type TTroubleshootingStep } from '@switchboard/contracts';
import { chatMessages, conversations, ticketDrafts, users, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { createKnowledgeService, knowledgeScopeOf, sourceOf } from '../knowledge/knowledge.service';
import { createLlmEngines } from '../llm-provider/llm-engines';
import { findOwnConversation, insertMessage, presentMessage } from './conversations';
import { CategoriserTrainingError } from './categoriser-training';
import { boardNotConfigured, loadMspBoard, type TCategoriserStore, type TMspBoard } from './mspboard';
import { answerButtons, flowButtons, presentCategorisation, presentQuestions, presentSteps, proposalLabel, scoreOf, stepButtons } from './ticket-draft';
import { userAuditFields } from '../../lib/audit';
import { cutText } from '../../lib/text';

type TDraftRow = typeof ticketDrafts.$inferSelect;

/** What a draft row keeps besides the contracts' shapes: the engine's own proposal for the next round. */
interface TStoredProposal {
  engineProposal: TProposal;
  categorisation: TProposedCategorisation;
}

/** A draft that is not the caller's (or gone): flagged like a closed one, so the chat ends its flow. */
export const draftNotFound = () => new AppError('not_found', MESSAGES.assistant.ticketDraftNotFound, { flags: { [TICKET_DRAFT_ENDED_FLAG]: true } });

/** Knowledge candidates looked at per troubleshooting step the second round offers. */
const STEP_CANDIDATES_PER_STEP = 3;

/** A draft created or cancelled already (elsewhere, or by a request whose answer was lost): the flag tells it from other conflicts. */
export const draftClosed = () => new AppError('conflict', MESSAGES.assistant.ticketDraftClosed, { flags: { [TICKET_DRAFT_ENDED_FLAG]: true } });

/** The stages in which a draft can still be answered, confirmed, handed over or cancelled. */
export const OPEN_DRAFT_STAGES = ['questions', 'troubleshooting'] as const;

/**
 * The condition of every update that closes or counts on a draft: the user's own, still open, so two
 * requests that both read it open (a double-click, Confirm beside Cancel) cannot both act on it.
 */
export function whereOwnOpenDraft(actor: Pick<TActor, 'mspId' | 'userId'>, draftId: string) {
  return and(eq(ticketDrafts.mspId, actor.mspId), eq(ticketDrafts.id, draftId), eq(ticketDrafts.userId, actor.userId), inArray(ticketDrafts.stage, [...OPEN_DRAFT_STAGES]));
}

/** The user's own draft in any stage, or a 404. */
export async function findOwnDraft(db: TDatabase, actor: Pick<TActor, 'mspId' | 'userId'>, draftId: string): Promise<TDraftRow> {
  const [row] = await db.select().from(ticketDrafts).where(and(eq(ticketDrafts.mspId, actor.mspId), eq(ticketDrafts.id, draftId), eq(ticketDrafts.userId, actor.userId))).limit(1);
  if (!row) throw draftNotFound();
  return row;
}

/** How long an open draft untouched waits to be carried on after a reload; older ones are left behind. */
const OPEN_DRAFT_RESUME_MS = 24 * 60 * 60 * 1000;

/**
 * The assistant message of the draft's latest A-108 round: every round offers Confirm, step feedback
 * never does, so a "did not help" said since then does not hide the questions or steps.
 */
async function latestRoundMessage(db: TDatabase, row: TDraftRow): Promise<TChatMessage | null> {
  const [message] = await db
    .select()
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.mspId, row.mspId),
        eq(chatMessages.conversationId, row.conversationId),
        eq(chatMessages.role, 'assistant'),
        gte(chatMessages.createdAt, row.createdAt),
        sql`${chatMessages.interactiveElements} @> '[{"kind":"confirm"}]'::jsonb`,
      ),
    )
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(1);
  return message ? presentMessage(message) : null;
}

export const isOpenDraft = (row: TDraftRow): boolean => (OPEN_DRAFT_STAGES as readonly string[]).includes(row.stage);

/** The user's own open draft (questions or troubleshooting stage), or a 404/409. */
export async function findOpenDraft(db: TDatabase, actor: Pick<TActor, 'mspId' | 'userId'>, draftId: string): Promise<TDraftRow> {
  const row = await findOwnDraft(db, actor, draftId);
  if (!isOpenDraft(row)) throw draftClosed();
  return row;
}

export function storedProposalOf(row: TDraftRow): TStoredProposal {
  return row.proposal as unknown as TStoredProposal;
}

/** The answer buttons send yes, no or unsure; typed answers are read the same way. */
function engineAnswer(answer: string): TAnswer['answer'] {
  const word = answer.trim().toLowerCase();
  if (['yes', 'y', 'true', 'yes.'].includes(word)) return 'yes';
  if (['no', 'n', 'false', 'no.'].includes(word)) return 'no';
  return 'unsure';
}

async function contactOf(db: TDatabase, actor: TActor) {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email, phone: users.phone, psaCompanyId: users.psaCompanyId, psaContactId: users.psaContactId })
    .from(users)
    .where(and(eq(users.mspId, actor.mspId), eq(users.id, actor.userId)))
    .limit(1);
  if (!user) throw notFound();
  return user;
}

/**
 * The categoriser a chat goes on with when the MSP's could not be trained (decision 045: its worker crashed or ran out
 * of memory): the board's names alone, and it always abstains. It ranks the candidates the diagnostic questions
 * separate, as for a low-confidence first message, and proposes nothing no ticket history backs. It is cheap (one
 * short document per subtype), and neither stored nor cached: the next request trains again.
 */
function untrainedCategoriser(board: TMspBoard): TCategoriser {
  return trainCategoriser(board.catalogue, [], { abstainBelow: Number.POSITIVE_INFINITY });
}

/** Tickets by chat (02 §4, R-257–R-265): the diagnostic rounds, step feedback and cancel. `log` reports a failed training. */
export function createTicketChatService(deps: Pick<TAppDeps, 'config' | 'database' | 'audit' | 'now' | 'files'>, categorisers: TCategoriserStore, log: (message: string, error: unknown) => void = () => undefined) {
  const db = deps.database.db;
  const knowledge = createKnowledgeService(deps);
  const engines = createLlmEngines(deps);

  /** The MSP's categoriser; the untrained stand-in when its training failed (no input gives a 500; the learning job retries). */
  async function categoriserFor(mspId: string, board: TMspBoard): Promise<TCategoriser> {
    try {
      return await categorisers.forMsp(mspId, board);
    } catch (error) {
      if (!(error instanceof CategoriserTrainingError)) throw error;
      log(`assistant: the categoriser of MSP ${mspId} could not be trained; this chat goes on without a categorisation`, error);
      return untrainedCategoriser(board);
    }
  }

  async function engineFor(mspId: string) {
    const board = await loadMspBoard(db, mspId);
    if (!board) throw boardNotConfigured();
    // The local engine is the default (issue #9: offline, no key); with an AI model it is the fallback (decision 023),
    // and the model still categorises when the local categoriser's training failed.
    const local = createLocalEngine({ categoriser: await categoriserFor(mspId, board), questionBank: await questionBankFor(db, mspId, board) });
    return { board, engine: await engines.engineFor(mspId, local, board.catalogue) };
  }

  async function present(actor: TActor, row: TDraftRow, message: TChatMessage): Promise<TTicketDraft> {
    const { categorisation } = storedProposalOf(row);
    const contact = await contactOf(db, actor);
    const isClient = actor.userKind === 'client';
    const label = proposalLabel(categorisation);
    const cw = categorisation.connectWiseDetails;
    const at = categorisation.autotaskDetails;
    const isOnboarding = isOnboardingCategory(cw?.typeName ?? at?.issueTypeLabel, cw?.subTypeName ?? at?.subIssueTypeLabel);
    return {
      id: row.id,
      conversationId: row.conversationId,
      stage: row.stage,
      mode: row.stage === 'cancelled' || row.stage === 'created' || row.stage === 'pending' ? 'All Tickets' : 'My Ticket',
      psaType: categorisation.psaType,
      title: cutText(row.userMessage.split('\n')[0] ?? '', 100),
      description: label ? `${row.userMessage}\n\nProposed category: ${label}` : row.userMessage,
      name: isClient ? `${contact.firstName} ${contact.lastName}`.trim() : '',
      emailId: isClient ? contact.email : '',
      phone: isClient ? contact.phone : '',
      psaCompanyId: isClient ? contact.psaCompanyId : null,
      psaContactId: isClient ? contact.psaContactId : null,
      // The middle of Low / Medium / High until the person says otherwise, as the form and "Talk to a
      // technician" assume: Low understated a whole office without internet.
      impact: 'Medium',
      impactScore: scoreOf('Medium'),
      severity: 'Medium',
      severityScore: scoreOf('Medium'),
      categorisation,
      isOnboarding,
      onboarding: isOnboarding ? { newFirstName: '', newLastName: '', newEmail: '', ownerEmail: isClient ? contact.email : '', newPhone: '', licence: 'E3' } : null,
      questions: row.questions as TDiagnosticQuestion[],
      steps: row.steps as TTroubleshootingStep[],
      didNotHelpCount: row.didNotHelpCount,
      offerTechnician: row.didNotHelpCount >= DID_NOT_HELP_LIMIT,
      message,
    };
  }

  function questionsText(categorisation: TProposedCategorisation, questions: TQuestion[]): string {
    const label = proposalLabel(categorisation);
    const intro = label
      ? `This looks like **${label}** (${Math.round(categorisation.confidence * 100)}% sure). A few questions to be certain:`
      : MESSAGES.assistant.abstained;
    return [intro, '', ...questions.map((question, index) => `${index + 1}. ${question.text}`)].join('\n');
  }

  function auditProposal(tx: TDatabase, actor: TActor, draftId: string, categorisation: TProposedCategorisation, round: number, fallbackReason: string | null) {
    return deps.audit.record(tx, {
      mspId: actor.mspId,
      actorKind: 'user',
      actorId: actor.userId,
      action: 'ticket.ai_proposal',
      target: draftId,
      outcome: 'success',
      ip: actor.ip,
      requestId: actor.requestId,
      details: { round, engine: categorisation.engine, fallbackReason, confidence: categorisation.confidence, abstained: categorisation.abstained, proposal: proposalLabel(categorisation), sources: categorisation.sources },
    });
  }

  return {
    /** A-108 first message: questions and a proposed categorisation; the screen goes to "My Ticket". */
    async start(actor: TActor, body: { userMessage: string; conversationId?: string }): Promise<TTicketDraft> {
      const text = body.userMessage.trim();
      if (text === '') throw new AppError('validation', MESSAGES.assistant.chatTextRequired, { invalidParams: [{ name: 'userMessage', reason: MESSAGES.assistant.chatTextRequired }] });
      if (body.conversationId && !(await findOwnConversation(db, actor, body.conversationId))) throw notFound(MESSAGES.assistant.conversationNotFound);
      const { board, engine } = await engineFor(actor.mspId);
      const categorised = await engine.categorise({ text });
      const asked = await engine.questions({ proposal: categorised.value });
      const categorisation = presentCategorisation(board, categorised, []);
      const questions = presentQuestions(asked.value);
      const content = questionsText(categorisation, asked.value);

      const { row, message } = await db.transaction(async (tx) => {
        let conversationId = body.conversationId;
        if (!conversationId) {
          const [conversation] = await tx.insert(conversations).values({ mspId: actor.mspId, userId: actor.userId, agentId: null, conversationName: defaultConversationName(deps.now()), createdAt: deps.now() }).returning({ id: conversations.id });
          if (!conversation) throw new Error('conversation insert returned no row');
          conversationId = conversation.id;
        }
        await insertMessage(tx, actor.mspId, conversationId, { role: 'user', content: text });
        const assistantMessage = await insertMessage(tx, actor.mspId, conversationId, {
          role: 'assistant',
          content,
          type: 'troubleshootButtons',
          interactiveElements: [...answerButtons(asked.value), ...flowButtons(MESSAGES.assistant.talkToTechnician)],
          engine: categorised.engine,
        });
        const [draft] = await tx
          .insert(ticketDrafts)
          .values({ mspId: actor.mspId, userId: actor.userId, conversationId, stage: 'questions', userMessage: text, questions, proposal: { engineProposal: categorised.value, categorisation } })
          .returning();
        if (!draft) throw new Error('draft insert returned no row');
        await auditProposal(tx, actor, draft.id, categorisation, 1, categorised.fallbackReason);
        return { row: draft, message: assistantMessage };
      });
      return present(actor, row, message);
    },

    /** A-108 second round: the answers re-rank the proposal and troubleshooting steps follow. */
    async answer(actor: TActor, draftId: string, body: { userMessage: string; answers: { questionId: string; answer: string }[] }): Promise<TTicketDraft> {
      const draft = await findOpenDraft(db, actor, draftId);
      if (body.answers.length === 0 && body.userMessage.trim() === '') throw new AppError('validation', MESSAGES.assistant.chatTextRequired, { invalidParams: [{ name: 'answers', reason: MESSAGES.assistant.chatTextRequired }] });
      const { board, engine } = await engineFor(actor.mspId);
      const previous = (draft.answers as TAnswer[]) ?? [];
      const answers: TAnswer[] = [...previous.filter((old) => !body.answers.some((next) => next.questionId === old.questionId)), ...body.answers.map((given) => ({ questionId: given.questionId, answer: engineAnswer(given.answer) }))];
      const text = body.userMessage.trim() === '' ? draft.userMessage : `${draft.userMessage}\n${body.userMessage.trim()}`;
      const categorised = await engine.categorise({ text, answers });
      const categorisation0 = presentCategorisation(board, categorised, []);
      const query = `${text} ${proposalLabel(categorisation0) ?? ''}`;
      // The proposed type and subtype lead retrieval to the articles filed under them, as for a queue ticket.
      const choice = categorised.value.kind === 'answer' ? categorised.value.choice : null;
      // More candidates than steps: only those about the problem give steps (the engine's on-topic rule), and a
      // client user's ten best word matches can all be articles that mention "printer" in passing.
      const retrieved = await knowledge.retrieve(knowledgeScopeOf({ mspId: actor.mspId, userKind: actor.userKind, psaCompanyId: (await contactOf(db, actor)).psaCompanyId }), query, {
        limit: TROUBLESHOOTING_STEP_COUNT * STEP_CANDIDATES_PER_STEP,
        mode: 'near',
        ...(choice ? { category: { typeName: choice.typeName, subTypeName: choice.subtypeName } } : {}),
      });
      const troubleshooting = await engine.troubleshoot({ text, proposal: categorised.value, sources: retrieved.map((result) => ({ kind: result.kind, id: result.id, title: result.title, text: result.text, score: result.score, isOfCategory: result.isOfCategory })), limit: TROUBLESHOOTING_STEP_COUNT });
      const steps = presentSteps(troubleshooting.value);
      // Still not sure after the first answers: one more round of questions (about the candidates left, none
      // asked before) beside the steps, before the person has to pick the category in the form. Asked once:
      // answers recorded before this message mean the follow-up round has been.
      const followUps = categorised.value.kind === 'abstain' && previous.length === 0 && answers.length > 0 ? (await engine.questions({ proposal: categorised.value, answers })).value : [];
      // The sources shown are those the steps came from, not every candidate looked at.
      const cited = retrieved.filter((result) => steps.some((step) => step.sources.some((source) => source.kind === result.kind && source.id === result.id && source.title === result.title)));
      const categorisation = { ...categorisation0, sources: cited.map(sourceOf) };
      const label = proposalLabel(categorisation);
      const stepLines = (intro: string) => [intro, ...steps.map((step, index) => `${index + 1}. ${step.text} _(${step.sources[0]?.title ?? ''})_`)];
      const content = (
        followUps.length > 0
          ? [
              MESSAGES.assistant.stillUnsureAskMore,
              '',
              ...followUps.map((question, index) => `${index + 1}. ${question.text}`),
              ...(steps.length > 0 ? ['', ...stepLines('Meanwhile, you can try these steps, in order:')] : []),
            ]
          : [
              // No questions follow now, so the abstention points at the form, not at questions.
              label ? `Thanks. This is **${label}** (${Math.round(categorisation.confidence * 100)}% sure).` : MESSAGES.assistant.abstainedAfterAnswers,
              '',
              ...(steps.length > 0 ? [...stepLines('Try these steps, in order:'), '', 'If none of this helps, confirm the ticket or talk to a technician.'] : [MESSAGES.assistant.noStepsForTicket]),
            ]
      ).join('\n');

      const { row, message } = await db.transaction(async (tx) => {
        const userText = [body.userMessage.trim(), answeredQuestionsText(draft.questions as TDiagnosticQuestion[], body.answers)].filter((part) => part !== '').join('\n');
        await insertMessage(tx, actor.mspId, draft.conversationId, { role: 'user', content: userText });
        const assistantMessage = await insertMessage(tx, actor.mspId, draft.conversationId, {
          role: 'assistant',
          content,
          type: 'troubleshootButtons',
          interactiveElements: [...answerButtons(followUps), ...stepButtons(steps), ...flowButtons(MESSAGES.assistant.talkToTechnician)],
          sources: categorisation.sources,
          engine: troubleshooting.engine,
        });
        const [updated] = await tx
          .update(ticketDrafts)
          .set({
            // The follow-up round keeps the draft asking: its answers come back here once more.
            stage: followUps.length > 0 ? 'questions' : 'troubleshooting',
            ...(followUps.length > 0 ? { questions: presentQuestions(followUps) } : {}),
            answers,
            steps,
            proposal: { engineProposal: categorised.value, categorisation },
            updatedAt: deps.now(),
          })
          // Still open: a draft confirmed or cancelled while the engine was answering is not opened again.
          .where(whereOwnOpenDraft(actor, draft.id))
          .returning();
        if (!updated) throw draftClosed();
        await auditProposal(tx, actor, draft.id, categorisation, previous.length === 0 ? 2 : 3, categorised.fallbackReason ?? troubleshooting.fallbackReason);
        return { row: updated, message: assistantMessage };
      });
      return present(actor, row, message);
    },

    /** A step did not help (or did): after two "did not help", a technician is offered at once. */
    async stepFeedback(actor: TActor, draftId: string, body: { stepId: string; helped: boolean }) {
      const draft = await findOpenDraft(db, actor, draftId);
      const steps = draft.steps as TTroubleshootingStep[];
      if (!steps.some((step) => step.id === body.stepId)) throw notFound();
      const { count, message } = await db.transaction(async (tx) => {
        // Counted in the row, not from the read above: two quick "did not help" clicks are two, and the second offers a technician.
        const [counted] = await tx
          .update(ticketDrafts)
          .set({ didNotHelpCount: sql`${ticketDrafts.didNotHelpCount} + ${body.helped ? 0 : 1}`, updatedAt: deps.now() })
          .where(whereOwnOpenDraft(actor, draft.id))
          .returning({ didNotHelpCount: ticketDrafts.didNotHelpCount });
        if (!counted) throw draftClosed();
        const offer = counted.didNotHelpCount >= DID_NOT_HELP_LIMIT;
        const content = body.helped ? 'Glad that helped. Confirm the ticket if you still want a technician to check, or cancel it.' : offer ? MESSAGES.assistant.didNotHelpTwice : 'Sorry that did not help. Try the next step.';
        const inserted = await insertMessage(tx, actor.mspId, draft.conversationId, {
          role: 'assistant',
          content,
          type: offer ? 'troubleshootButtons' : 'markdown',
          interactiveElements: offer ? flowButtons(MESSAGES.assistant.talkToTechnician).filter((button) => button.kind === 'talkToTechnician') : [],
        });
        return { count: counted.didNotHelpCount, message: inserted };
      });
      return { didNotHelpCount: count, offerTechnician: count >= DID_NOT_HELP_LIMIT, message };
    },

    /** The caller's own newest open draft touched within a day, as A-108 answered it, or null: a reload carries on with it. */
    async findOpen(actor: TActor): Promise<TTicketDraft | null> {
      const since = new Date(deps.now().getTime() - OPEN_DRAFT_RESUME_MS);
      const [row] = await db
        .select()
        .from(ticketDrafts)
        .where(and(eq(ticketDrafts.mspId, actor.mspId), eq(ticketDrafts.userId, actor.userId), inArray(ticketDrafts.stage, [...OPEN_DRAFT_STAGES]), gte(ticketDrafts.updatedAt, since)))
        .orderBy(desc(ticketDrafts.updatedAt), desc(ticketDrafts.id))
        .limit(1);
      if (!row) return null;
      const message = await latestRoundMessage(db, row);
      return message ? present(actor, row, message) : null;
    },

    /** "Ticket Creation Cancelled."; nothing reaches the PSA. */
    async cancel(actor: TActor, draftId: string) {
      const draft = await findOpenDraft(db, actor, draftId);
      await db.transaction(async (tx) => {
        // Only a draft still open: one confirmed meanwhile (Confirm and Cancel pressed together) has its ticket, so it is not "cancelled".
        const [cancelled] = await tx.update(ticketDrafts).set({ stage: 'cancelled', updatedAt: deps.now() }).where(whereOwnOpenDraft(actor, draft.id)).returning({ id: ticketDrafts.id });
        if (!cancelled) throw draftClosed();
        await insertMessage(tx, actor.mspId, draft.conversationId, { role: 'assistant', content: MESSAGES.ticketCreationCancelled });
        await deps.audit.record(tx, { ...userAuditFields(actor), action: 'ticket.draft_cancelled', target: draft.id, outcome: 'success' });
      });
      return { message: MESSAGES.ticketCreationCancelled, mode: 'All Tickets' as const };
    },
  };
}

export type TTicketChatService = ReturnType<typeof createTicketChatService>;
