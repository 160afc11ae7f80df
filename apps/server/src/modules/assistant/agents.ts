import { and, desc, eq } from 'drizzle-orm';
import { DEFAULT_AGENT_ID, DEFAULT_AGENT_NAME, MESSAGES, type TAgent } from '@switchboard/contracts';
import { agents, conversations, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import type { TActor } from '../../plugins/access';
import { userAuditFields } from '../../lib/audit';

type TAgentRow = typeof agents.$inferSelect;
export type TAgentFormParsed = { agentName: string; role: string; description: string; objectives: string[]; defaultPrompt?: string | null; examplePrompts?: string[] };

/** the built-in troubleshooting agent, the same for every MSP (not a row; never edited or deleted). */
export const DEFAULT_AGENT: TAgent = {
  id: DEFAULT_AGENT_ID,
  agentName: DEFAULT_AGENT_NAME,
  role: 'IT troubleshooting assistant',
  description: 'Diagnoses IT problems step by step from your MSP’s knowledge base and past ticket resolutions, and hands over to a technician when that is faster.',
  objectives: ['Find the cause of the problem with a few sharp questions', 'Give the best troubleshooting steps, each with its source', 'Hand over to a technician when the steps do not help'],
  custom: false,
  deleted: false,
  defaultPrompt: 'Describe the problem, what you were doing when it started, and any error message you saw.',
  examplePrompts: ['My Outlook keeps asking for my password', 'The VPN disconnects every few minutes', 'The office printer shows offline'],
  techId: null,
  userId: null,
  mspCustomDomain: null,
  previousAgentId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

/** The persona an answer is given as. */
export interface TPersona {
  agentName: string;
  role: string;
  description: string;
  objectives: string[];
}

export function presentAgent(row: TAgentRow, ownerKind: 'technician' | 'client', mspCustomDomain: string): TAgent {
  return {
    id: row.id,
    agentName: row.agentName,
    role: row.role,
    description: row.description,
    objectives: row.objectives,
    custom: true,
    deleted: row.isDeleted,
    defaultPrompt: row.defaultPrompt,
    examplePrompts: row.examplePrompts,
    techId: ownerKind === 'technician' ? row.ownerUserId : null,
    userId: ownerKind === 'client' ? row.ownerUserId : null,
    mspCustomDomain,
    previousAgentId: row.previousAgentId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One live agent the user owns, or undefined (another user's or MSP's agent does not exist for them). */
export async function findOwnAgent(db: TDatabase, actor: Pick<TActor, 'mspId' | 'userId'>, agentId: string): Promise<TAgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.mspId, actor.mspId), eq(agents.id, agentId), eq(agents.ownerUserId, actor.userId), eq(agents.isDeleted, false)))
    .limit(1);
  return row;
}

const agentNotFound = () => new AppError('not_found', MESSAGES.assistant.agentNotFound);
const defaultReadOnly = () => new AppError('validation', MESSAGES.assistant.defaultAgentReadOnly);

/** Agents (02 §4 Agents; ): list, create, edit as a new agent, soft delete; every change audited. */
export function createAgentsService(deps: Pick<TAppDeps, 'database' | 'audit'>) {
  const db = deps.database.db;
  const audit = (tx: TDatabase, actor: TActor, action: string, target: string, details: Record<string, unknown>) =>
    deps.audit.record(tx, { ...userAuditFields(actor), action, target, outcome: 'success', details });

  return {
    /** the built-in agent, then the caller's own live agents, newest first. */
    async list(actor: TActor): Promise<TAgent[]> {
      const rows = await db
        .select()
        .from(agents)
        .where(and(eq(agents.mspId, actor.mspId), eq(agents.ownerUserId, actor.userId), eq(agents.isDeleted, false)))
        .orderBy(desc(agents.createdAt))
        .limit(200);
      return [DEFAULT_AGENT, ...rows.map((row) => presentAgent(row, actor.userKind, actor.mspCustomDomain))];
    },

    /** */
    async create(actor: TActor, form: TAgentFormParsed): Promise<TAgent> {
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(agents)
          .values({ mspId: actor.mspId, ownerUserId: actor.userId, agentName: form.agentName, role: form.role, description: form.description, objectives: form.objectives, defaultPrompt: form.defaultPrompt ?? null, examplePrompts: form.examplePrompts ?? [] })
          .returning();
        if (!created) throw new Error('agent insert returned no row');
        await audit(tx, actor, 'agent.create', created.id, { agentName: created.agentName });
        return created;
      });
      return presentAgent(row, actor.userKind, actor.mspCustomDomain);
    },

    /** a new agent from the old one; the old one is retired (soft-deleted) and its conversations move to the new one, in the same transaction. */
    async editAsNew(actor: TActor, agentId: string, form: TAgentFormParsed): Promise<TAgent> {
      if (agentId === DEFAULT_AGENT_ID) throw defaultReadOnly();
      const row = await db.transaction(async (tx) => {
        const old = await findOwnAgent(tx, actor, agentId);
        if (!old) throw agentNotFound();
        // Only a live agent is retired: of two saves of one edit (a double-click), the second finds it retired and makes no second agent.
        const [retired] = await tx.update(agents).set({ isDeleted: true, deletedAt: new Date() }).where(and(eq(agents.mspId, actor.mspId), eq(agents.id, old.id), eq(agents.isDeleted, false))).returning({ id: agents.id });
        if (!retired) throw agentNotFound();
        const [created] = await tx
          .insert(agents)
          .values({
            mspId: actor.mspId,
            ownerUserId: actor.userId,
            agentName: form.agentName,
            role: form.role,
            description: form.description,
            objectives: form.objectives,
            defaultPrompt: form.defaultPrompt === undefined ? old.defaultPrompt : form.defaultPrompt,
            examplePrompts: form.examplePrompts ?? old.examplePrompts,
            previousAgentId: old.id,
          })
          .returning();
        if (!created) throw new Error('agent insert returned no row');
        // The conversations with the old agent go on under the new one: History lists by agent, and the retired id is listed nowhere.
        const moved = await tx
          .update(conversations)
          .set({ agentId: created.id })
          .where(and(eq(conversations.mspId, actor.mspId), eq(conversations.userId, actor.userId), eq(conversations.agentId, old.id)))
          .returning({ id: conversations.id });
        await audit(tx, actor, 'agent.edit', created.id, { previousAgentId: old.id, agentName: created.agentName, conversationsMoved: moved.length });
        return created;
      });
      return presentAgent(row, actor.userKind, actor.mspCustomDomain);
    },

    /**
     * sets deleted. R-246 asks for a soft delete and no more: the agent and its conversations stay
     * stored (and audited) but leave every list, as the delete dialog says; nothing moves them to another agent.
     */
    async softDelete(actor: TActor, agentId: string): Promise<void> {
      if (agentId === DEFAULT_AGENT_ID) throw defaultReadOnly();
      await db.transaction(async (tx) => {
        const old = await findOwnAgent(tx, actor, agentId);
        if (!old) throw agentNotFound();
        const [deleted] = await tx.update(agents).set({ isDeleted: true, deletedAt: new Date() }).where(and(eq(agents.mspId, actor.mspId), eq(agents.id, old.id), eq(agents.isDeleted, false))).returning({ id: agents.id });
        if (!deleted) throw agentNotFound();
        await audit(tx, actor, 'agent.delete', old.id, { agentName: old.agentName });
      });
    },

    /**
     * The persona of an agent the user may chat with: the built-in one, or their own live one (an edited agent's
     * conversations moved to the new agent). A deleted agent answers nothing (it answered as its old persona: review s29).
     */
    async personaFor(actor: TActor, agentId: string | null): Promise<TPersona> {
      if (agentId === null) return DEFAULT_AGENT;
      const row = await findOwnAgent(db, actor, agentId);
      if (!row) throw agentNotFound();
      return row;
    },
  };
}
