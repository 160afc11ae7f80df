import { and, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { EMAIL_MAIL_MESSAGES } from '@switchboard/contracts';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  categoriserModels,
  diagnosticQuestionLists,
  emailConnectorMessages,
  knowledgeChunks,
  knowledgeDocuments,
  psaCompanies,
  psaContacts,
  psaMembers,
  psaTicketingConfigs,
  psaTickets,
  teams,
  ticketDrafts,
  ticketRequests,
  users,
  type TDatabase,
} from '@switchboard/db';

/** What starting over removed or cleared, for the audit event. */
export interface TPsaDataReset {
  tickets: number;
  companies: number;
  contacts: number;
  members: number;
  boardSetups: number;
  categoriserModels: number;
  questionLists: number;
  unfinishedDrafts: number;
  ticketRequestsRemoved: number;
  ticketRequestsNotSent: number;
  mailThreadsUnlinked: number;
  mailsNotSent: number;
  usersUnlinked: number;
  teamsUnmirrored: number;
  companyDocumentsRetired: number;
}

/** Runs a data-modifying statement and counts its rows without carrying them back (an MSP may hold many copies). */
async function countedRows(tx: TDatabase, statement: SQL): Promise<number> {
  const result: unknown = await tx.execute(sql`with changed as (${statement} returning 1) select count(*)::int as n from changed`);
  // node-postgres and PGlite both answer { rows }.
  const [row] = (result as { rows: { n: number | string }[] }).rows;
  return Number(row?.n ?? 0);
}

const deleteOfMsp = (table: PgTable & { mspId: unknown }, mspId: string) => sql`delete from ${table} where msp_id = ${mspId}`;

/**
 * Decision 042, in the caller's transaction: removes everything the MSP holds of the PSA its data came from, whose ids
 * name other records in the PSA connected now. The ticket copies go with their queue rows, events, timers, timer
 * sessions, notes, SLA alerts and embeddings (ON DELETE CASCADE); the ticketing configuration with its boards, types,
 * subtypes and priorities. Users keep their accounts, roles and passwords, without their PSA links; teams stay, no
 * longer mirrored to a board team of that PSA. A client's ticket requests and the mail threads stop naming that PSA's
 * tickets (startTicketRequestsOver, startMailOver). A client company's documents are kept for the technicians only
 * (retireCompanyKnowledge). Kept: audit log, the MSP's own knowledge, agents, conversations and the failed PSA writes.
 */
export async function startPsaDataOver(tx: TDatabase, mspId: string): Promise<TPsaDataReset> {
  const unlinked = await tx
    .update(users)
    .set({ psaMemberId: null, psaMemberRowId: null, psaContactId: null, psaContactRowId: null, psaCompanyId: null, companyRowId: null })
    .where(
      and(
        eq(users.mspId, mspId),
        or(isNotNull(users.psaMemberId), isNotNull(users.psaMemberRowId), isNotNull(users.psaContactId), isNotNull(users.psaContactRowId), isNotNull(users.psaCompanyId), isNotNull(users.companyRowId)),
      ),
    )
    .returning({ id: users.id });
  // A ConnectWise team mirrors a board team of that PSA by its id: an edit would change another team in the new one.
  const unmirrored = await tx
    .update(teams)
    .set({ psaTeamId: null })
    .where(and(eq(teams.mspId, mspId), isNotNull(teams.psaTeamId)))
    .returning({ id: teams.id });
  // A draft still being asked about proposes that PSA's company, contact, board and types; finished ones are history.
  const drafts = await tx
    .delete(ticketDrafts)
    .where(and(eq(ticketDrafts.mspId, mspId), inArray(ticketDrafts.stage, ['questions', 'troubleshooting'])))
    .returning({ id: ticketDrafts.id });
  const mail = await startMailOver(tx, mspId);
  const companyDocumentsRetired = await retireCompanyKnowledge(tx, mspId);
  return {
    ...(await startTicketRequestsOver(tx, mspId)),
    ...mail,
    tickets: await countedRows(tx, deleteOfMsp(psaTickets, mspId)),
    // Contacts before companies: a company's removal would otherwise rewrite its contacts' company row id first.
    contacts: await countedRows(tx, deleteOfMsp(psaContacts, mspId)),
    companies: await countedRows(tx, deleteOfMsp(psaCompanies, mspId)),
    members: await countedRows(tx, deleteOfMsp(psaMembers, mspId)),
    boardSetups: await countedRows(tx, deleteOfMsp(psaTicketingConfigs, mspId)),
    categoriserModels: await countedRows(tx, deleteOfMsp(categoriserModels, mspId)),
    questionLists: await countedRows(tx, deleteOfMsp(diagnosticQuestionLists, mspId)),
    unfinishedDrafts: drafts.length,
    usersUnlinked: unlinked.length,
    teamsUnmirrored: unmirrored.length,
    companyDocumentsRetired,
  };
}

/**
 * A client company's documents and their passages are tagged with that PSA's company id, which names another company
 * in the new PSA: a client of it would read and delete them (review s29). They stay for the record, untagged and for
 * technicians only (decision 034's audience), so no client scope matches them; sharing one again is a technician's choice.
 */
async function retireCompanyKnowledge(tx: TDatabase, mspId: string): Promise<number> {
  const retired = await tx
    .update(knowledgeDocuments)
    .set({ companyExternalId: null, audience: 'technicians' })
    .where(and(eq(knowledgeDocuments.mspId, mspId), isNotNull(knowledgeDocuments.companyExternalId)))
    .returning({ id: knowledgeDocuments.id });
  await tx
    .update(knowledgeChunks)
    .set({ companyExternalId: null })
    .where(and(eq(knowledgeChunks.mspId, mspId), isNotNull(knowledgeChunks.companyExternalId)));
  return retired.length;
}

/**
 * A client's ticket requests: one that landed names a ticket of the old PSA by its id, which the client's list
 * would match to the new PSA's ticket of that id, so it goes with the copies; one still pending was stopped with its
 * create write (decision 013) and would say "pending in the PSA" for good, so it is settled as not made (failed).
 */
async function startTicketRequestsOver(tx: TDatabase, mspId: string) {
  const removed = await tx.delete(ticketRequests).where(and(eq(ticketRequests.mspId, mspId), isNotNull(ticketRequests.psaTicketExternalId))).returning({ id: ticketRequests.id });
  const notSent = await tx
    .update(ticketRequests)
    .set({ state: 'failed', updatedAt: sql`now()` })
    .where(and(eq(ticketRequests.mspId, mspId), eq(ticketRequests.state, 'pending')))
    .returning({ id: ticketRequests.id });
  return { ticketRequestsRemoved: removed.length, ticketRequestsNotSent: notSent.length };
}

/**
 * The mail connector's rows: a mail that made a ticket (or a note) forgets the old PSA's ticket id (its number stays for the
 * "Recent mail" list: that ticket was made, in the old PSA), so a reply in its
 * thread makes a new ticket (findThreadTicket) instead of a note on the new PSA's ticket of that id; a mail whose ticket
 * was still waiting (its write stopped) is skipped with the reason, so "Make a ticket…" can file it in the new PSA; a
 * company chosen for a skipped mail named the old PSA's company, so the choice is dropped.
 */
async function startMailOver(tx: TDatabase, mspId: string) {
  const unlinked = await tx
    .update(emailConnectorMessages)
    .set({ psaTicketExternalId: null, updatedAt: sql`now()` })
    .where(and(eq(emailConnectorMessages.mspId, mspId), isNotNull(emailConnectorMessages.psaTicketExternalId)))
    .returning({ id: emailConnectorMessages.id });
  const notSent = await tx
    .update(emailConnectorMessages)
    .set({ state: 'skipped', reason: EMAIL_MAIL_MESSAGES.psaChanged, updatedAt: sql`now()` })
    .where(and(eq(emailConnectorMessages.mspId, mspId), eq(emailConnectorMessages.state, 'pending')))
    .returning({ id: emailConnectorMessages.id });
  await tx
    .update(emailConnectorMessages)
    .set({ filePsaType: null, fileCompanyId: null, fileContactId: null })
    .where(and(eq(emailConnectorMessages.mspId, mspId), isNotNull(emailConnectorMessages.fileCompanyId)));
  return { mailThreadsUnlinked: unlinked.length, mailsNotSent: notSent.length };
}
