import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { emailConnectorMessages, psaCompanies, psaContacts, psaTickets, queueTickets, ticketRequests, type TDatabase } from '@switchboard/db';

export interface THeldPsaIds {
  tickets: number;
  companies: number;
  contacts: number;
}

/** The largest plain number in a column of PSA ids (the simulator numbers everything; any other text is skipped). */
async function highestNumeric(db: TDatabase, column: AnyPgColumn): Promise<number> {
  // The cast sits inside the CASE, so a value that is not a plain number is skipped rather than failing the query.
  const [row] = await db.select({ value: sql<string | null>`max(case when ${column}::text ~ '^[0-9]{1,15}$' then ${column}::text::bigint end)::text` }).from(column.table);
  return Number(row?.value ?? 0);
}

/**
 * The highest ticket, company and contact ids this database holds from a PSA (ticket copies, tickets raised by chat or
 * mail, queue entries, company and contact copies), of every MSP. The embedded start numbers the simulator's new rows
 * above them, so a simulator whose saved data was lost (or a data folder from before it was kept) never hands one of
 * these ids to something else: the app would take a new ticket for the one it already knows by that number (bug:
 * ticket numbers reused after a restart). Every MSP's, because both demo MSPs share the one simulator.
 */
export async function highestPsaIdsHeld(db: TDatabase): Promise<THeldPsaIds> {
  const ticketColumns = [psaTickets.externalId, ticketRequests.psaTicketExternalId, emailConnectorMessages.psaTicketExternalId, queueTickets.psaTicketId];
  const tickets = await Promise.all(ticketColumns.map((column) => highestNumeric(db, column)));
  return {
    tickets: Math.max(0, ...tickets),
    companies: await highestNumeric(db, psaCompanies.externalId),
    contacts: await highestNumeric(db, psaContacts.externalId),
  };
}
