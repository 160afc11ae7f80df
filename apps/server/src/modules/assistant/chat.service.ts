import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  createLlmEngine,
  createLocalEngine,
  fallbackAnswerIntro,
  LOCAL_ANSWER_INTRO,
  LOCAL_ANSWER_NOTHING_FOUND,
  LOCAL_ANSWER_NOTHING_FOUND_AFTER_FALLBACK,
  troubleshootingSteps,
  type TAnswerChunk,
  type TAssistantEngine,
  type TChatTurn,
  type TRetrievedSource,
  type TSourceRef,
  type TStep,
} from '@switchboard/assistant';
import { MESSAGES, numberCitationsBySource, PROMPT_SUGGESTION_COUNT, RAG_LIMIT, sourcesListText, TROUBLESHOOTING_STEP_COUNT, type TDocumentChatResponse, type TGptMessageResponse, type TJarvisAnswer, type TJarvisChatResponse, type TJarvisTroubleshootResponse, type TSource } from '@switchboard/contracts';
import { psaTickets, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import type { TActor } from '../../plugins/access';
import { createKnowledgeService, sourceOf, type TKnowledgeScope, type TRetrieved } from '../knowledge/knowledge.service';
import type { TPassageCategory } from '../knowledge/knowledge.repository';
import { createLlmEngines } from '../llm-provider/llm-engines';
import { createAgentsService, type TPersona } from './agents';
import { conversationNotFound, findOwnConversation, insertMessage, recentMessages } from './conversations';

// isOfCategory carries the ticket's own type and subtype (decision 040's boost and floor) into the steps; without it the
// queue's steps treated the ticket's category articles like any other source.
const toEngineSource = (result: TRetrieved): TRetrievedSource => ({ kind: result.kind, id: result.id, title: result.title, text: result.text, score: result.score, isOfCategory: result.isOfCategory });

/**
 * A grounded answer without an LLM (issue #9): the best steps of the retrieved texts, each with
 * its numbered citation, after a line saying plainly where the answer comes from.
 */
export function composeLocalAnswer(query: string, retrieved: TRetrieved[], limit: number, options: { onTopicOf?: string } = {}): { markdown: string; sources: TSource[]; chunks: string[] } {
  const steps = troubleshootingSteps(retrieved.map(toEngineSource), { query, limit, ...options });
  if (steps.length === 0) return { markdown: LOCAL_ANSWER_NOTHING_FOUND, sources: [], chunks: [LOCAL_ANSWER_NOTHING_FOUND] };
  const cited: TSource[] = [];
  const chunks = [`${LOCAL_ANSWER_INTRO}\n\n`];
  for (const step of steps) {
    let index = cited.findIndex((source) => source.kind === step.source.kind && source.id === step.source.id);
    if (index < 0) {
      const found = retrieved.find((result) => result.kind === step.source.kind && result.id === step.source.id);
      cited.push(found ? sourceOf(found) : { kind: step.source.kind, id: step.source.id, title: step.source.title, reference: null });
      index = cited.length - 1;
    }
    chunks.push(`${step.n}. ${step.text} [${index + 1}]\n`);
  }
  chunks.push(sourcesListText(cited));
  return { markdown: chunks.join(''), sources: cited, chunks };
}

/**
 * A model's answer as the screen shows it: its [S3]-style citations (the engine's source ids, S1 being the first retrieved
 * passage) numbered [1], [2]… by the source behind them in the order first cited (`numberCitationsBySource`, which the
 * screen uses on the streamed words too), with the "Sources:" list the local answers have; an answer citing nothing says
 * so plainly instead. `footer` is what is added after the model's text.
 */
export function numberModelCitations(text: string, retrieved: TRetrieved[]): { markdown: string; sources: TSource[]; footer: string } {
  const { text: numbered, cited } = numberCitationsBySource(text, retrieved.map(sourceOf));
  const footer = cited.length > 0 ? `\n${sourcesListText(cited)}` : `\n\n${MESSAGES.assistant.answerCitesNoSource}\n`;
  return { markdown: `${numbered}${footer}`, sources: cited, footer };
}

/** An earlier answer as the model wrote it: without the list of sources or the notice added under it. */
function asWritten(content: string): string {
  const notice = `\n\n${MESSAGES.assistant.answerCitesNoSource}\n`;
  if (content.endsWith(notice)) return content.slice(0, -notice.length);
  const footerAt = content.lastIndexOf('\n\nSources:\n[1] ');
  return footerAt >= 0 ? content.slice(0, footerAt) : content;
}

function personaLine(persona: TPersona): string {
  return `**${persona.agentName}** (${persona.role})`;
}

/**
 * What an answer route streams: text as it is produced, then the whole response (or the response alone, without Accept:
 * text/event-stream). A model's answer starts with the source behind each of its [Sn] citations (`passages[n - 1]`), so
 * the screen numbers them as they stream as the stored answer will (review s28: the numbers changed at the end).
 */
export type TAnswerEvent<T> = { type: 'sources'; passages: TSource[] } | { type: 'delta'; text: string } | { type: 'done'; response: T };

async function* replay<T>(chunks: string[], response: T): AsyncGenerator<TAnswerEvent<T>> {
  for (const text of chunks) yield { type: 'delta', text };
  yield { type: 'done', response };
}

/** How many earlier messages of a conversation the model sees. */
const HISTORY_TURNS = 10;

/** An engine's citation as the contracts show it (with the PSA ticket number or file name when retrieved). */
function citedSource(retrieved: TRetrieved[], ref: TSourceRef): TSource {
  const found = retrieved.find((result) => result.kind === ref.kind && result.id === ref.id);
  return found ? sourceOf(found) : { kind: ref.kind, id: ref.id, title: ref.title, reference: null };
}

/** Numbered steps with their citations, as the local answer writes them (for the model's structured steps). */
function stepsMarkdown(intro: string, steps: TStep[], retrieved: TRetrieved[]): { markdown: string; sources: TSource[]; chunks: string[] } {
  const cited: TSource[] = [];
  const chunks = [`${intro}\n\n`];
  for (const step of steps) {
    let index = cited.findIndex((source) => source.kind === step.source.kind && source.id === step.source.id);
    if (index < 0) {
      cited.push(citedSource(retrieved, step.source));
      index = cited.length - 1;
    }
    chunks.push(`${step.n}. ${step.text} [${index + 1}]\n`);
  }
  chunks.push(sourcesListText(cited));
  return { markdown: chunks.join(''), sources: cited, chunks };
}

/** The notice under an answer: none when the model wrote it, the reason when it fell back. */
const llmNotice = (fallbackReason: string | null): string | null => (fallbackReason ? fallbackAnswerIntro(fallbackReason) : null);

/** Chat with an agent (A-096 both uses), the prompt generator (A-097) and document chat (A-099). */
export function createChatService(deps: Pick<TAppDeps, 'config' | 'database' | 'audit' | 'now' | 'files'>) {
  const db = deps.database.db;
  const knowledge = createKnowledgeService(deps);
  const agents = createAgentsService(deps);
  const engines = createLlmEngines(deps);
  // Chat, troubleshooting and prompts categorise nothing, so the fallback needs no categoriser.
  const sourcesOnly = createLocalEngine({});

  /** The MSP's model with the local engine behind it, or null when the MSP has none (decision 023). */
  async function llmEngineFor(mspId: string): Promise<TAssistantEngine | null> {
    const connection = await engines.connectionFor(mspId);
    return connection ? createLlmEngine({ ...connection, board: { boards: [] }, fallback: sourcesOnly }) : null;
  }

  /** One audit event per answer: which engine wrote it, why the model did not (if so), and what it cited (issue #9). */
  function auditAnswer(handle: TDatabase, actor: TActor, use: 'chat' | 'troubleshoot' | 'prompts' | 'document', answer: { engine: 'local' | 'llm'; fallbackReason: string | null; sources: { kind: string; id: string }[]; target?: string | null }) {
    return deps.audit.record(handle, {
      mspId: actor.mspId,
      actorKind: 'user',
      actorId: actor.userId,
      action: 'assistant.answer',
      target: answer.target ?? null,
      outcome: 'success',
      ip: actor.ip,
      requestId: actor.requestId,
      details: { use, engine: answer.engine, fallbackReason: answer.fallbackReason, sources: answer.sources.map((source) => ({ kind: source.kind, id: source.id })) },
    });
  }

  async function collect(chunks: AsyncIterable<TAnswerChunk>): Promise<{ text: string; end: Extract<TAnswerChunk, { type: 'end' }> }> {
    let text = '';
    let end: Extract<TAnswerChunk, { type: 'end' }> = { type: 'end', engine: 'local', fallbackReason: null, sources: [] };
    for await (const chunk of chunks) {
      if (chunk.type === 'delta') text += chunk.text;
      else end = chunk;
    }
    return { text, end };
  }

  return {
    /**
     * A-096 chat use: the answer is stored with the question once it is complete. Everything that can
     * refuse (the conversation, retrieval) happens before the first event, so a refusal is a plain error.
     * With an AI model the text streams as the model writes it; `signal` stops it when the caller leaves.
     */
    async chat(actor: TActor, scope: TKnowledgeScope, body: { text: string; conversationId: string; useRAG: boolean; selectedAnswers: string[] }, signal?: AbortSignal): Promise<AsyncGenerator<TAnswerEvent<TJarvisChatResponse>>> {
      const conversation = await findOwnConversation(db, actor, body.conversationId);
      if (!conversation) throw conversationNotFound();
      const persona = await agents.personaFor(actor, conversation.agentId);
      const question = [body.text, ...body.selectedAnswers].filter((part) => part !== '').join('\n');
      const query = [question, conversation.customPrompt ?? ''].join(' ');
      const retrieved = body.useRAG ? await knowledge.retrieve(scope, query, { limit: TROUBLESHOOTING_STEP_COUNT, mode: 'near' }) : [];
      const store = async (markdown: string, sources: TSource[], engine: 'local' | 'llm', fallbackReason: string | null, notice: string | null): Promise<TJarvisChatResponse> => {
        const answer: TJarvisAnswer = { explanation: markdown, interactiveElements: [], type: 'markdown', engine, sources, notice };
        const { userMessage, assistantMessage } = await db.transaction(async (tx) => {
          const stored = {
            userMessage: await insertMessage(tx, actor.mspId, conversation.id, { role: 'user', content: question }),
            assistantMessage: await insertMessage(tx, actor.mspId, conversation.id, { role: 'assistant', content: markdown, sources, engine }),
          };
          await auditAnswer(tx, actor, 'chat', { engine, fallbackReason, sources, target: conversation.id });
          return stored;
        });
        return { content: JSON.stringify(answer), aiContent: markdown, messages: { id: assistantMessage.id }, answer, userMessage, assistantMessage };
      };

      const llm = await llmEngineFor(actor.mspId);
      if (!llm) {
        const local = composeLocalAnswer(query, retrieved, 5);
        const markdown = `${personaLine(persona)}\n\n${local.markdown}`;
        return replay([`${personaLine(persona)}\n\n`, ...local.chunks], await store(markdown, local.sources, 'local', null, MESSAGES.assistant.localEngineNotice));
      }
      const history: TChatTurn[] = (await recentMessages(db, actor.mspId, conversation.id, HISTORY_TURNS)).map((message) => ({ role: message.role, content: message.role === 'assistant' ? asWritten(message.content) : message.content }));
      const chunks = llm.answer({ text: question, history, sources: retrieved.map(toEngineSource), agent: persona, ...(signal ? { signal } : {}) });
      return (async function* streamed(): AsyncGenerator<TAnswerEvent<TJarvisChatResponse>> {
        yield { type: 'sources', passages: retrieved.map(sourceOf) };
        let markdown = '';
        let end: Extract<TAnswerChunk, { type: 'end' }> | undefined;
        for await (const chunk of chunks) {
          if (chunk.type === 'end') end = chunk;
          else {
            markdown += chunk.text;
            yield { type: 'delta', text: chunk.text };
          }
        }
        // No end: the caller left mid-answer, so nothing is stored.
        if (!end) return;
        if (end.engine === 'local') {
          yield { type: 'done', response: await store(markdown, end.sources.map((ref) => citedSource(retrieved, ref)), end.engine, end.fallbackReason, llmNotice(end.fallbackReason)) };
          return;
        }
        const numbered = numberModelCitations(markdown, retrieved);
        yield { type: 'delta', text: numbered.footer };
        yield { type: 'done', response: await store(numbered.markdown, numbered.sources, end.engine, end.fallbackReason, llmNotice(end.fallbackReason)) };
      })();
    },

    /** A-096 queue troubleshoot use: the 10 best steps for a question (and the queue ticket, when named). */
    async troubleshoot(actor: TActor, scope: TKnowledgeScope, body: { text: string; ticketId?: string }): Promise<AsyncGenerator<TAnswerEvent<TJarvisTroubleshootResponse>>> {
      let query = body.text;
      let category: TPassageCategory | undefined;
      if (body.ticketId !== undefined && actor.userKind === 'technician') {
        const [ticket] = await db
          .select({ summary: psaTickets.summary, description: psaTickets.description, typeName: psaTickets.typeName, subtypeName: psaTickets.subtypeName })
          .from(psaTickets)
          .where(and(eq(psaTickets.mspId, actor.mspId), eq(psaTickets.externalId, body.ticketId)))
          .limit(1);
        if (ticket) query = `${body.text} ${ticket.summary} ${ticket.description ?? ''}`;
        if (ticket?.typeName && ticket.subtypeName) category = { typeName: ticket.typeName, subTypeName: ticket.subtypeName };
      }
      const retrieved = await knowledge.retrieve(scope, query, { limit: TROUBLESHOOTING_STEP_COUNT, mode: 'near', ...(category ? { category } : {}) });
      const llm = await llmEngineFor(actor.mspId);
      const result = llm ? await llm.troubleshoot({ text: query, sources: retrieved.map(toEngineSource), limit: TROUBLESHOOTING_STEP_COUNT }) : null;
      // The model's steps (each citing a retrieved source), or the local steps under the reason the model did not answer.
      let written: { markdown: string; sources: TSource[]; chunks: string[] };
      // The local engine's troubleshoot (what a model that did not answer falls back to) keeps to sources about the
      // question or filed under the ticket's category; the answer without a model does the same.
      if (!result) written = composeLocalAnswer(query, retrieved, TROUBLESHOOTING_STEP_COUNT, { onTopicOf: query });
      else if (result.value.length > 0) written = stepsMarkdown(result.fallbackReason ? fallbackAnswerIntro(result.fallbackReason) : 'Try these steps, in order:', result.value, retrieved);
      else {
        const text = result.fallbackReason ? `${fallbackAnswerIntro(result.fallbackReason)} ${LOCAL_ANSWER_NOTHING_FOUND_AFTER_FALLBACK}` : MESSAGES.assistant.nothingFound;
        written = { markdown: text, sources: [], chunks: [text] };
      }
      const engine = result?.engine ?? 'local';
      const fallbackReason = result?.fallbackReason ?? null;
      await auditAnswer(db, actor, 'troubleshoot', { engine, fallbackReason, sources: written.sources, target: body.ticketId ?? null });
      const notice = llm ? llmNotice(fallbackReason) : MESSAGES.assistant.localEngineNotice;
      return replay(written.chunks, { id: randomUUID(), choices: [{ index: 0, message: { role: 'assistant', content: written.markdown } }], engine, sources: written.sources, notice });
    },

    /** A-097: without an LLM, the prompt generator's top 5 prompts come from the closest knowledge and resolutions. */
    async message(actor: TActor, scope: TKnowledgeScope, message: string): Promise<TGptMessageResponse> {
      const retrieved = await knowledge.retrieve(scope, message, { limit: PROMPT_SUGGESTION_COUNT * 2, mode: 'near' });
      const llm = await llmEngineFor(actor.mspId);
      if (llm) {
        const suggested = await llm.suggestPrompts({ text: message, sources: retrieved.map(toEngineSource), limit: PROMPT_SUGGESTION_COUNT });
        const content = suggested.value.length > 0 ? suggested.value.map((prompt, index) => `${index + 1}. ${prompt}`).join('\n') : MESSAGES.assistant.nothingFound;
        await auditAnswer(db, actor, 'prompts', { engine: suggested.engine, fallbackReason: suggested.fallbackReason, sources: [] });
        return { id: randomUUID(), choices: [{ index: 0, message: { role: 'assistant', content } }], engine: suggested.engine, prompts: suggested.value, notice: llmNotice(suggested.fallbackReason) };
      }
      const seen = new Set<string>();
      const prompts: string[] = [];
      for (const result of retrieved) {
        const topic = result.title.split(' — ')[0]?.replace(/\s*\([^)]*\)\s*$/, '').trim() ?? '';
        const prompt = result.kind === 'resolution' ? `How was "${topic}" solved before?` : `Walk me through: ${topic}`;
        if (topic === '' || seen.has(prompt.toLowerCase())) continue;
        seen.add(prompt.toLowerCase());
        prompts.push(prompt);
        if (prompts.length === PROMPT_SUGGESTION_COUNT) break;
      }
      const content = prompts.length > 0 ? prompts.map((prompt, index) => `${index + 1}. ${prompt}`).join('\n') : MESSAGES.assistant.nothingFound;
      await auditAnswer(db, actor, 'prompts', { engine: 'local', fallbackReason: null, sources: [] });
      return { id: randomUUID(), choices: [{ index: 0, message: { role: 'assistant', content } }], engine: 'local', prompts, notice: MESSAGES.assistant.localEngineNotice };
    },

    /** A-099: questions about one document (id) or about all the knowledge the user may read (no id). */
    async documentChat(actor: TActor, scope: TKnowledgeScope, body: { id?: string | null; documentMessage: string }): Promise<TDocumentChatResponse> {
      if (body.id) await knowledge.getDocument(actor, scope, body.id);
      const retrieved = await knowledge.retrieve(scope, body.documentMessage, { limit: RAG_LIMIT, mode: 'near', ...(body.id ? { documentId: body.id } : {}) });
      const ragResults = retrieved.map((result) => ({ ...sourceOf(result), snippet: result.snippet, score: result.score }));
      const llm = await llmEngineFor(actor.mspId);
      if (llm) {
        const { text, end } = await collect(llm.answer({ text: body.documentMessage, sources: retrieved.map(toEngineSource) }));
        // The model's [Sn] citations numbered with their Sources list, as in the chat (the local fallback's are already).
        const written = end.engine === 'llm' ? numberModelCitations(text, retrieved) : { markdown: text, sources: end.sources };
        await auditAnswer(db, actor, 'document', { engine: end.engine, fallbackReason: end.fallbackReason, sources: written.sources, target: body.id ?? null });
        return { documentMessage: written.markdown, engine: end.engine, sources: ragResults, notice: llmNotice(end.fallbackReason) };
      }
      const local = composeLocalAnswer(body.documentMessage, retrieved, 5);
      const documentMessage =
        local.sources.length > 0 || retrieved.length === 0
          ? local.markdown
          : `${LOCAL_ANSWER_INTRO}\n\n${retrieved.map((result, index) => `> ${result.snippet} [${index + 1}]`).join('\n\n')}\n\nSources:\n${retrieved.map((result, index) => `[${index + 1}] ${result.title}`).join('\n')}`;
      await auditAnswer(db, actor, 'document', { engine: 'local', fallbackReason: null, sources: local.sources, target: body.id ?? null });
      return { documentMessage, engine: 'local', sources: ragResults, notice: MESSAGES.assistant.localEngineNotice };
    },
  };
}

