import { and, eq, inArray } from 'drizzle-orm';
import { EMAIL_MAIL_MESSAGES } from '@switchboard/contracts';
import { agents, boardConfigs, conversations, emailConnectorMessages, knowledgeDocuments, msps, psaCompanies, psaOutbox, psaTickets, roles, teams, ticketRequests, users, type TDatabase } from '@switchboard/db';
import { describePsaWrite } from '../psa-outbox/psa-outbox';

/**
 * What an audit event's target is, in the words a person recognises (the user's name, the ticket's
 * number and summary, the role's name…). Audit rows keep the target as the id the action had; the
 * log resolves a page of them with one query per kind of target (never one per row), always within
 * the MSP, and falls back to what the event recorded (a deleted role's name) or to the id itself.
 */
type TTargetKind = 'user' | 'role' | 'team' | 'ticket' | 'ticketRequest' | 'company' | 'board' | 'document' | 'agent' | 'conversation' | 'msp' | 'mail' | 'psaWrite';

/** Which kind of record each action names (checked in this order, first match wins). */
const TARGET_KINDS: ReadonlyArray<readonly [string, TTargetKind]> = [
  ['psa_write.queue.', 'ticket'],
  ['psa_write.ticket.create', 'ticketRequest'],
  ['ticket.create', 'ticketRequest'],
  ['psa_write.contact.create', 'company'],
  // A mail's ticket, note or files: the mail's row, or (a reply to a ticket the PSA already has) that ticket's copy.
  ['psa_write.email.', 'mail'],
  // Sending a failed write again, or discarding it, names the outbox row.
  ['psa_write.retry', 'psaWrite'],
  ['psa_write.discard', 'psaWrite'],
  // The mail that became a ticket or a note, or that a person filed under a company; the settings' events name 'email-connector'.
  ['email_connector.', 'mail'],
  ['role.', 'role'],
  ['team.', 'team'],
  ['board.', 'board'],
  ['document.', 'document'],
  ['agent.', 'agent'],
  ['conversation.', 'conversation'],
  ['msp.', 'msp'],
  ['demo.seed', 'msp'],
  ['queue.settings_save', 'msp'],
  ['auth.', 'user'],
  ['technician.', 'user'],
  ['user.', 'user'],
  ['client_user.', 'user'],
  ['public_user.', 'user'],
  ['team_member.', 'user'],
];

/** Targets that are a part of the product rather than a record: said in words. */
const FIXED_TARGETS: Readonly<Record<string, string>> = {
  integrations: 'PSA connection',
  'llm-provider': 'AI model',
  wizard: 'Setup wizard',
  CONNECTWISE: 'ConnectWise boards',
  AUTOTASK: 'Autotask boards',
  'email-connector': 'Email connector',
  psa_outbox: 'PSA outbox',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^\d{1,9}$/;

export interface TTargetRow {
  id: string;
  action: string;
  target: string | null;
  details: Record<string, unknown> | null;
}

function kindOfTarget(action: string): TTargetKind | null {
  for (const [prefix, kind] of TARGET_KINDS) if (action.startsWith(prefix)) return kind;
  return null;
}

const personName = (row: { firstName: string; lastName: string; email: string }) => `${row.firstName} ${row.lastName}`.trim() || row.email;
const ticketName = (number: string | null, summary: string) => (number ? `#${number} ${summary}` : summary);

const KEYED_BY_UUID: ReadonlySet<TTargetKind> = new Set(['user', 'role', 'team', 'ticket', 'ticketRequest', 'document', 'agent', 'conversation', 'mail', 'psaWrite']);

/** A mail by its subject, as the integrations screen lists it. */
const mailName = (subject: string) => (subject.trim() === '' ? EMAIL_MAIL_MESSAGES.noSubject : subject);

/** The names of one kind's targets, by the target as the audit row holds it; one query, within the MSP. */
async function namesOf(db: TDatabase, mspId: string, kind: TTargetKind, targets: string[]): Promise<Map<string, string>> {
  const uuids = targets.filter((target) => UUID.test(target));
  const entries = (rows: Array<[string, string]>) => new Map(rows);
  // These kinds are recorded by their row's uuid: with none among the targets there is nothing to look up.
  if (KEYED_BY_UUID.has(kind) && uuids.length === 0) return new Map();
  switch (kind) {
    case 'user':
      return entries((await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(and(eq(users.mspId, mspId), inArray(users.id, uuids)))).map((row) => [row.id, personName(row)]));
    case 'role':
      return entries((await db.select({ id: roles.id, name: roles.name }).from(roles).where(and(eq(roles.mspId, mspId), inArray(roles.id, uuids)))).map((row) => [row.id, row.name]));
    case 'team':
      return entries((await db.select({ id: teams.id, name: teams.name }).from(teams).where(and(eq(teams.mspId, mspId), inArray(teams.id, uuids)))).map((row) => [row.id, row.name]));
    case 'ticket':
      return entries(
        (await db.select({ id: psaTickets.id, number: psaTickets.ticketNumber, externalId: psaTickets.externalId, summary: psaTickets.summary }).from(psaTickets).where(and(eq(psaTickets.mspId, mspId), inArray(psaTickets.id, uuids)))).map((row) => [
          row.id,
          ticketName(row.number ?? row.externalId, row.summary),
        ]),
      );
    case 'ticketRequest':
      return entries(
        (await db.select({ id: ticketRequests.id, number: ticketRequests.psaTicketNumber, title: ticketRequests.title }).from(ticketRequests).where(and(eq(ticketRequests.mspId, mspId), inArray(ticketRequests.id, uuids)))).map((row) => [
          row.id,
          ticketName(row.number, row.title),
        ]),
      );
    case 'company':
      return entries((await db.select({ externalId: psaCompanies.externalId, name: psaCompanies.name }).from(psaCompanies).where(and(eq(psaCompanies.mspId, mspId), inArray(psaCompanies.externalId, targets)))).map((row) => [row.externalId, row.name]));
    case 'board': {
      const boardIds = targets.filter((target) => INTEGER.test(target)).map(Number);
      if (boardIds.length === 0) return new Map();
      return entries((await db.select({ boardId: boardConfigs.boardId, name: boardConfigs.boardName }).from(boardConfigs).where(and(eq(boardConfigs.mspId, mspId), inArray(boardConfigs.boardId, boardIds)))).map((row) => [String(row.boardId), row.name]));
    }
    case 'document':
      return entries((await db.select({ id: knowledgeDocuments.id, title: knowledgeDocuments.title }).from(knowledgeDocuments).where(and(eq(knowledgeDocuments.mspId, mspId), inArray(knowledgeDocuments.id, uuids)))).map((row) => [row.id, row.title]));
    case 'agent':
      return entries((await db.select({ id: agents.id, name: agents.agentName }).from(agents).where(and(eq(agents.mspId, mspId), inArray(agents.id, uuids)))).map((row) => [row.id, row.name]));
    case 'conversation':
      return entries((await db.select({ id: conversations.id, name: conversations.conversationName }).from(conversations).where(and(eq(conversations.mspId, mspId), inArray(conversations.id, uuids)))).map((row) => [row.id, row.name]));
    case 'mail': {
      const mails = await db.select({ id: emailConnectorMessages.id, subject: emailConnectorMessages.subject }).from(emailConnectorMessages).where(and(eq(emailConnectorMessages.mspId, mspId), inArray(emailConnectorMessages.id, uuids)));
      const found = new Map(mails.map((row) => [row.id, mailName(row.subject)]));
      const rest = uuids.filter((uuid) => !found.has(uuid));
      if (rest.length === 0) return found;
      const tickets = await db.select({ id: psaTickets.id, number: psaTickets.ticketNumber, externalId: psaTickets.externalId, summary: psaTickets.summary }).from(psaTickets).where(and(eq(psaTickets.mspId, mspId), inArray(psaTickets.id, rest)));
      for (const row of tickets) found.set(row.id, ticketName(row.number ?? row.externalId, row.summary));
      return found;
    }
    case 'psaWrite':
      // What the write does, as the outbox's list says it ("Internal note on the ticket").
      return entries((await db.select({ id: psaOutbox.id, kind: psaOutbox.kind, payload: psaOutbox.payload }).from(psaOutbox).where(and(eq(psaOutbox.mspId, mspId), inArray(psaOutbox.id, uuids)))).map((row) => [row.id, describePsaWrite(row.kind, row.payload)]));
    case 'msp': {
      // The MSP's own events name it by its domain or id: only this MSP's name is ever shown.
      const [msp] = await db.select({ id: msps.id, customDomain: msps.customDomain, name: msps.name }).from(msps).where(eq(msps.id, mspId)).limit(1);
      return msp ? new Map([[msp.id, msp.name], [msp.customDomain, msp.name]]) : new Map();
    }
  }
}

// These name the status or type they created, not the board that is their target.
const DETAILS_NAME_ANOTHER_THING = /^(psa_write\.)?board\.(status|type|subtype)\.create$/;

/** What the event itself recorded about a target that is gone (a deleted role, agent or employee). */
function recordedName(action: string, details: Record<string, unknown> | null): string | null {
  if (DETAILS_NAME_ANOTHER_THING.test(action)) return null;
  for (const key of ['name', 'agentName', 'clientTypeName', 'email']) {
    const value = details?.[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  // A mail's events record its subject (the mail's row may be gone).
  const subject = details?.subject;
  return kindOfTarget(action) === 'mail' && typeof subject === 'string' ? mailName(subject) : null;
}

/** The target of each row in words, by row id; a row whose target has no better name is absent. */
export async function resolveTargetLabels(db: TDatabase, mspId: string, rows: readonly TTargetRow[]): Promise<Map<string, string>> {
  const targetsByKind = new Map<TTargetKind, Set<string>>();
  for (const row of rows) {
    const kind = kindOfTarget(row.action);
    if (kind === null || row.target === null) continue;
    const targets = targetsByKind.get(kind) ?? new Set<string>();
    targets.add(row.target);
    targetsByKind.set(kind, targets);
  }
  const names = new Map(await Promise.all([...targetsByKind].map(async ([kind, targets]) => [kind, await namesOf(db, mspId, kind, [...targets])] as const)));
  const labels = new Map<string, string>();
  for (const row of rows) {
    const kind = kindOfTarget(row.action);
    const name = (row.target !== null ? (FIXED_TARGETS[row.target] ?? (kind ? names.get(kind)?.get(row.target) : undefined)) : undefined) ?? recordedName(row.action, row.details);
    if (name !== undefined && name !== null && name !== row.target) labels.set(row.id, name);
  }
  return labels;
}
