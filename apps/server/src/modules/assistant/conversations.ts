import { and, asc, count, desc, eq, getTableColumns, isNull, or, sql } from 'drizzle-orm';
import { CHAT_PAGE_SIZE, DEFAULT_AGENT_ID, MESSAGES, defaultConversationName, type TChatMessage, type TConversation } from '@switchboard/contracts';
import { agents, chatMessages, conversations, type TDatabase, type TStoredInteractiveElement, type TStoredSource } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { userAuditFields } from '../../lib/audit';

type TConversationRow = typeof conversations.$inferSelect;
type TMessageRow = typeof chatMessages.$inferSelect;

export const conversationNotFound = () => new AppError('not_found', MESSAGES.assistant.conversationNotFound);
const agentNotFound = () => new AppError('not_found', MESSAGES.assistant.agentNotFound);

/** The agent id as stored: the built-in agent is null. */
const storedAgentId = (agentId: string) => (agentId === DEFAULT_AGENT_ID ? null : agentId);

export function presentConversation(row: TConversationRow): TConversation {
  return {
    id: row.id,
    userId: row.userId,
    agentID: row.agentId ?? DEFAULT_AGENT_ID,
    conversationName: row.conversationName,
    customPrompt: row.customPrompt,
    timeStamp: row.createdAt.toISOString(),
    deleted: row.isDeleted,
  };
}

export function presentMessage(row: TMessageRow): TChatMessage {
  return {
    id: row.id,
    conversationId: row.conversationId,
    content: row.content,
    role: row.role,
    timeStamp: row.createdAt.toISOString(),
    elements: row.interactiveElements,
    type: row.type,
    interactiveElements: row.interactiveElements,
    feedback: row.feedback,
    engine: row.engine,
    sources: row.sources,
  };
}

/** A conversation's agent row, joined by `isWithLiveAgent` (none for the built-in agent, stored as a null agent id). */
const agentOfConversation = and(eq(agents.mspId, conversations.mspId), eq(agents.id, conversations.agentId));
/** The conversation is with the built-in agent or a live one: a soft-deleted agent's conversations leave every list and read (R-246; review s29). */
const isWithLiveAgent = or(isNull(conversations.agentId), eq(agents.isDeleted, false));

/** The user's own live conversation with a live agent, or undefined (another user's conversation does not exist for them). */
export async function findOwnConversation(db: TDatabase, actor: Pick<TActor, 'mspId' | 'userId'>, conversationId: string): Promise<TConversationRow | undefined> {
  const [row] = await db
    .select(getTableColumns(conversations))
    .from(conversations)
    .leftJoin(agents, agentOfConversation)
    .where(and(eq(conversations.mspId, actor.mspId), eq(conversations.id, conversationId), eq(conversations.userId, actor.userId), eq(conversations.isDeleted, false), isWithLiveAgent))
    .limit(1);
  return row;
}

export interface TNewMessage {
  role: 'user' | 'assistant';
  content: string;
  type?: 'markdown' | 'troubleshootButtons';
  interactiveElements?: TStoredInteractiveElement[];
  sources?: TStoredSource[];
  engine?: 'local' | 'llm' | null;
  createdAt?: Date;
}

/** Appends a message to a conversation (the caller checked ownership). */
export async function insertMessage(db: TDatabase, mspId: string, conversationId: string, message: TNewMessage): Promise<TChatMessage> {
  const [row] = await db
    .insert(chatMessages)
    .values({
      mspId,
      conversationId,
      role: message.role,
      content: message.content,
      type: message.type ?? 'markdown',
      interactiveElements: message.interactiveElements ?? [],
      sources: message.sources ?? [],
      engine: message.engine ?? null,
      // clock_timestamp, not now(): a question and its answer stored in one transaction keep their order.
      createdAt: message.createdAt ?? sql`clock_timestamp()`,
    })
    .returning();
  if (!row) throw new Error('message insert returned no row');
  return presentMessage(row);
}

/** The last messages of a conversation, oldest first (the chat history an answer sees). */
export async function recentMessages(db: TDatabase, mspId: string, conversationId: string, limit: number): Promise<TChatMessage[]> {
  const rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.mspId, mspId), eq(chatMessages.conversationId, conversationId)))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(limit);
  return rows.reverse().map(presentMessage);
}

/** Conversations and messages: always the caller's own. */
export function createConversationsService(deps: Pick<TAppDeps, 'database' | 'audit' | 'now'>) {
  const db = deps.database.db;

  return {
    /** a new conversation with an agent the user may use, named "Chat - {timestamp}" unless named. */
    async add(actor: TActor, body: { id?: string; userId?: string; agentID: string; conversationName?: string; customPrompt?: string | null }): Promise<TConversation> {
      if (body.userId !== undefined && body.userId !== actor.userId) throw conversationNotFound();
      const agentId = storedAgentId(body.agentID);
      if (agentId !== null) {
        const [agent] = await db
          .select({ id: agents.id })
          .from(agents)
          .where(and(eq(agents.mspId, actor.mspId), eq(agents.id, agentId), eq(agents.ownerUserId, actor.userId), eq(agents.isDeleted, false)))
          .limit(1);
        if (!agent) throw agentNotFound();
      }
      const now = deps.now();
      const name = body.conversationName && body.conversationName !== '' ? body.conversationName : defaultConversationName(now);
      const [row] = await db
        .insert(conversations)
        .values({ mspId: actor.mspId, ...(body.id ? { id: body.id } : {}), userId: actor.userId, agentId, conversationName: name, customPrompt: body.customPrompt ?? null, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) {
        // The client proposed an id that exists: the same request again is answered with the same conversation.
        const existing = body.id ? await findOwnConversation(db, actor, body.id) : undefined;
        if (!existing) throw new AppError('conflict', MESSAGES.assistant.conversationNotFound);
        return presentConversation(existing);
      }
      return presentConversation(row);
    },

    /**
     * the caller's conversations with one live agent, 30 per page, newest first unless `order` is asc
     * (R-248 names Newest only; the list's "Oldest" needs the whole list sorted, not one page reversed: review s29).
     */
    async listByAgent(actor: TActor, query: { agentId: string; userId?: string; page: number; order?: 'asc' | 'desc' }) {
      if (query.userId !== undefined && query.userId !== actor.userId) throw conversationNotFound();
      const agentId = storedAgentId(query.agentId);
      const where = and(eq(conversations.mspId, actor.mspId), eq(conversations.userId, actor.userId), eq(conversations.isDeleted, false), agentId === null ? isNull(conversations.agentId) : eq(conversations.agentId, agentId), isWithLiveAgent);
      const [total] = await db.select({ value: count() }).from(conversations).leftJoin(agents, agentOfConversation).where(where);
      const direction = query.order === 'asc' ? asc : desc;
      const rows = await db
        .select(getTableColumns(conversations))
        .from(conversations)
        .leftJoin(agents, agentOfConversation)
        .where(where)
        .orderBy(direction(conversations.createdAt), direction(conversations.id))
        .limit(CHAT_PAGE_SIZE)
        .offset((query.page - 1) * CHAT_PAGE_SIZE);
      return { conversations: rows.map(presentConversation), page: query.page, pageSize: CHAT_PAGE_SIZE, total: total?.value ?? 0 };
    },

    /** page 1 holds the newest 30 messages, each page oldest first. */
    async messages(actor: TActor, query: { conversationId: string; page: number }) {
      const conversation = await findOwnConversation(db, actor, query.conversationId);
      if (!conversation) throw conversationNotFound();
      const where = and(eq(chatMessages.mspId, actor.mspId), eq(chatMessages.conversationId, conversation.id));
      const [total] = await db.select({ value: count() }).from(chatMessages).where(where);
      const rows = await db
        .select()
        .from(chatMessages)
        .where(where)
        .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
        .limit(CHAT_PAGE_SIZE)
        .offset((query.page - 1) * CHAT_PAGE_SIZE);
      return { messages: rows.reverse().map(presentMessage), page: query.page, pageSize: CHAT_PAGE_SIZE, total: total?.value ?? 0 };
    },

    /** a soft delete; the conversation disappears from lists and reads. */
    async remove(actor: TActor, conversationId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const conversation = await findOwnConversation(tx, actor, conversationId);
        if (!conversation) throw conversationNotFound();
        await tx.update(conversations).set({ isDeleted: true }).where(and(eq(conversations.mspId, actor.mspId), eq(conversations.id, conversation.id)));
        await deps.audit.record(tx, { ...userAuditFields(actor), action: 'conversation.delete', target: conversation.id, outcome: 'success' });
      });
    },

    /** feedback on one of the assistant's answers in the caller's own conversation. */
    async feedback(actor: TActor, messageId: string, feedback: 'positive' | 'negative'): Promise<void> {
      const [row] = await db
        .select({ id: chatMessages.id, role: chatMessages.role })
        .from(chatMessages)
        .innerJoin(conversations, and(eq(conversations.mspId, chatMessages.mspId), eq(conversations.id, chatMessages.conversationId)))
        .leftJoin(agents, agentOfConversation)
        .where(and(eq(chatMessages.mspId, actor.mspId), eq(chatMessages.id, messageId), eq(conversations.userId, actor.userId), eq(conversations.isDeleted, false), isWithLiveAgent))
        .limit(1);
      // The same words whether the message, its conversation or its agent is gone (or another user's).
      if (!row) throw conversationNotFound();
      if (row.role !== 'assistant') throw new AppError('validation', MESSAGES.assistant.feedbackOnlyAnswers);
      await db.update(chatMessages).set({ feedback }).where(and(eq(chatMessages.mspId, actor.mspId), eq(chatMessages.id, row.id)));
    },
  };
}

