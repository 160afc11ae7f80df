import type { PsaClient } from '@switchboard/psa';
import { upsertTicketCopies } from '../src/modules/boards/ticket-copies.repository';
import { upsertPsaDirectory } from '../src/modules/psa-directory/psa-directory.repository';
import { loadHistoricalTickets } from './historical-tickets';
import type { TTestApp } from './test-app';

export interface TCopiedContact {
  company: { id: number; name: string };
  contact: { id: number; firstName: string; lastName: string; email: string };
}

/** The simulator's first company and its first contact, copied into the MSP's synchronized directory (what a client user belongs to). */
export async function copyFirstCompanyAndContact(t: TTestApp, mspId: string, direct: PsaClient): Promise<TCopiedContact> {
  let company = { id: 0, name: '' };
  for await (const found of direct.streamCompanies()) {
    company = { id: found.id, name: found.name };
    break;
  }
  let contact = { id: 0, firstName: '', lastName: '', email: '' };
  for await (const found of direct.streamContacts({ companyId: company.id })) {
    contact = { id: found.id, firstName: found.firstName, lastName: found.lastName, email: found.email ?? 'x@example.com' };
    break;
  }
  await upsertPsaDirectory(
    t.deps.database.db,
    mspId,
    'CONNECTWISE',
    {
      companies: [{ externalId: String(company.id), name: company.name, identifier: null, companyTypes: [] }],
      contacts: [{ externalId: String(contact.id), externalCompanyId: String(company.id), firstName: contact.firstName, lastName: contact.lastName, email: contact.email, phone: null, isActive: true }],
      members: [],
    },
    t.deps.now(),
  );
  return { company, contact };
}

/** The demo history (520 closed tickets) as the MSP's closed ticket copies on its Help Desk board: what the local engine trains on. */
export async function copyDemoHistory(t: TTestApp, mspId: string, helpDesk: { id: number; name: string }, options: { withCompany?: boolean } = {}): Promise<void> {
  await upsertTicketCopies(
    t.deps.database.db,
    mspId,
    'CONNECTWISE',
    loadHistoricalTickets().map((ticket) => ({
      externalId: `h${ticket.id}`,
      summary: ticket.summary,
      description: ticket.description,
      board: { id: helpDesk.id, name: helpDesk.name },
      type: { id: null, name: ticket.type },
      subtype: { id: null, name: ticket.subType },
      ...(options.withCompany ? { company: { id: ticket.companyId, name: null } } : {}),
      isClosed: true,
      resolution: ticket.resolution,
      closedAt: new Date(ticket.closedAt),
    })),
  );
}
