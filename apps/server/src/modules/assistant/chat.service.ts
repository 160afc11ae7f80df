import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { LOCAL_ANSWER_INTRO, LOCAL_ANSWER_NOTHING_FOUND, troubleshootingSteps, type TRetrievedSource } from '@switchboard/assistant';
import { MESSAGES, PROMPT_SUGGESTION_COUNT, RAG_LIMIT, TROUBLESHOOTING_STEP_COUNT, type TDocumentChatResponse, type TGptMessageResponse, type TJarvisAnswer, type TJarvisChatResponse, type TJarvisTroubleshootResponse, type TSource } from '@switchboard/contracts';
import { psaTickets } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import type { TActor } from '../../plugins/access';
import { createKnowledgeService, sourceOf, type TKnowledgeScope, type TRetrieved } from '../knowledge/knowledge.service';
import { createAgentsService, type TPersona } from './agents';
import { conversationNotFound, findOwnConversation, insertMessage } from './conversations';

const toEngineSource = (result: TRetrieved): TRetrievedSource => ({ kind: result.kind, id: result.id, title: result.title, text: result.text, score: result.score });

/**
 * A grounded answer without an LLM (issue #9): the best steps of the retrieved texts, each with
 * its numbered citation, after a line saying plainly where the answer comes from.
 */
export function composeLocalAnswer(query: string, retrieved: TRetrieved[], limit: number): { markdown: string; sources: TSource[]; chunks: string[] } {
  const steps = troubleshootingSteps(retrieved.map(toEngineSource), { query, limit });
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
  chunks.push(`\nSources:\n${cited.map((source, index) => `[${index + 1}] ${source.kind === 'article' ? 'Knowledge article' : source.kind === 'resolution' ? `Past resolution${source.reference ? ` (ticket ${source.reference})` : ''}` : 'Document'}: ${source.title}`).join('\n')}\n`);
  return { markdown: chunks.join(''), sources: cited, chunks };
}

function personaLine(persona: TPersona): string {
  return `**${persona.agentName}** (${persona.role})`;
}

/** Chat with an agent (A-096 both uses), the prompt generator (A-097) and document chat (A-099). */
export function createChatService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now' | 'files'>) {
  const db = deps.database.db;
  const knowledge = createKnowledgeService(deps);
  const agents = createAgentsService(deps);

  return {
    /** A-096 chat use: the answer is stored with the question; `chunks` feed the SSE stream. */
    async chat(actor: TActor, scope: TKnowledgeScope, body: { text: string; conversationId: string; useRAG: boolean; selectedAnswers: string[] }): Promise<{ response: TJarvisChatResponse; chunks: string[] }> {
      const conversation = await findOwnConversation(db, actor, body.conversationId);
      if (!conversation) throw conversationNotFound();
      const persona = await agents.personaFor(actor, conversation.agentId);
      const question = [body.text, ...body.selectedAnswers].filter((part) => part !== '').join('\n');
      const query = [question, conversation.customPrompt ?? ''].join(' ');
      const retrieved = body.useRAG ? await knowledge.retrieve(scope, query, { limit: TROUBLESHOOTING_STEP_COUNT, mode: 'near' }) : [];
      const local = composeLocalAnswer(query, retrieved, 5);
      const markdown = `${personaLine(persona)}\n\n${local.markdown}`;
      const answer: TJarvisAnswer = { explanation: markdown, interactiveElements: [], type: 'markdown', engine: 'local', sources: local.sources, notice: MESSAGES.assistant.localEngineNotice };
      const { userMessage, assistantMessage } = await db.transaction(async (tx) => ({
        userMessage: await insertMessage(tx, actor.mspId, conversation.id, { role: 'user', content: question }),
        assistantMessage: await insertMessage(tx, actor.mspId, conversation.id, { role: 'assistant', content: markdown, sources: local.sources, engine: 'local' }),
      }));
      return {
        response: { content: JSON.stringify(answer), aiContent: markdown, messages: { id: assistantMessage.id }, answer, userMessage, assistantMessage },
        chunks: [`${personaLine(persona)}\n\n`, ...local.chunks],
      };
    },

    /** A-096 queue troubleshoot use: the 10 best steps for a question (and the queue ticket, when named). */
    async troubleshoot(actor: TActor, scope: TKnowledgeScope, body: { text: string; ticketId?: string }): Promise<{ response: TJarvisTroubleshootResponse; chunks: string[] }> {
      let query = body.text;
      if (body.ticketId !== undefined && actor.userKind === 'technician') {
        const [ticket] = await db.select({ summary: psaTickets.summary, description: psaTickets.description }).from(psaTickets).where(and(eq(psaTickets.mspId, actor.mspId), eq(psaTickets.externalId, body.ticketId))).limit(1);
        if (ticket) query = `${body.text} ${ticket.summary} ${ticket.description ?? ''}`;
      }
      const retrieved = await knowledge.retrieve(scope, query, { limit: TROUBLESHOOTING_STEP_COUNT, mode: 'near' });
      const local = composeLocalAnswer(query, retrieved, TROUBLESHOOTING_STEP_COUNT);
      return {
        response: { id: randomUUID(), choices: [{ index: 0, message: { role: 'assistant', content: local.markdown } }], engine: 'local', sources: local.sources, notice: MESSAGES.assistant.localEngineNotice },
        chunks: local.chunks,
      };
    },

    /** A-097: without an LLM, the prompt generator's top 5 prompts come from the closest knowledge and resolutions. */
    async message(scope: TKnowledgeScope, message: string): Promise<TGptMessageResponse> {
      const retrieved = await knowledge.retrieve(scope, message, { limit: PROMPT_SUGGESTION_COUNT * 2, mode: 'near' });
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
      return { id: randomUUID(), choices: [{ index: 0, message: { role: 'assistant', content } }], engine: 'local', prompts, notice: MESSAGES.assistant.localEngineNotice };
    },

    /** A-099: questions about one document (id) or about all the knowledge the user may read (no id). */
    async documentChat(actor: TActor, scope: TKnowledgeScope, body: { id?: string; documentMessage: string }): Promise<TDocumentChatResponse> {
      if (body.id) await knowledge.getDocument(actor, scope, body.id);
      const retrieved = await knowledge.retrieve(scope, body.documentMessage, { limit: RAG_LIMIT, mode: 'near', ...(body.id ? { documentId: body.id } : {}) });
      const local = composeLocalAnswer(body.documentMessage, retrieved, 5);
      const documentMessage =
        local.sources.length > 0 || retrieved.length === 0
          ? local.markdown
          : `${LOCAL_ANSWER_INTRO}\n\n${retrieved.map((result, index) => `> ${result.snippet} [${index + 1}]`).join('\n\n')}\n\nSources:\n${retrieved.map((result, index) => `[${index + 1}] ${result.title}`).join('\n')}`;
      return { documentMessage, engine: 'local', sources: retrieved.map((result) => ({ ...sourceOf(result), snippet: result.snippet, score: result.score })), notice: MESSAGES.assistant.localEngineNotice };
    },
  };
}

