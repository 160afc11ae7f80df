import type { TCompany, TCompanyTicket, TContact } from '@switchboard/contracts';
import type { TPsaOutboxRow } from '../psa-outbox/psa-outbox';
import { contactPayloadOf, contactResultOf } from './companies.psa-writes';
import type { TCompanyRow, TContactRow, TTicketRow } from './companies.repository';

/** A synchronized company row as the Companies view shows it (01 §3 client company). */
export function presentCompany(row: TCompanyRow): TCompany {
  return {
    id: row.id,
    psaCompanyId: row.externalId,
    psaType: row.psaType,
    name: row.name,
    identifier: row.identifier,
    psaClientType: row.companyTypes,
    phone: row.phone,
    website: row.website,
    city: row.city,
    isActive: row.isActive,
  };
}

/** A synchronized contact (01 §3 PSA contact). */
export function presentContact(row: TContactRow): TContact {
  return {
    id: row.id,
    psaContactId: row.externalId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    psaClientName: row.companyName,
    psaType: row.psaType,
    psaCompanyId: row.externalCompanyId,
    isActive: row.isActive,
    status: 'synced',
    failureReason: null,
  };
}

/** An add the PSA has not confirmed yet, shown beside the synchronized contacts (the UI says it is pending or failed). */
export function presentContactWrite(row: TPsaOutboxRow, companyName: string | null): TContact {
  const payload = contactPayloadOf(row);
  const result = contactResultOf(row);
  return {
    id: row.id,
    psaContactId: result?.externalContactId ?? null,
    firstName: result?.firstName ?? payload.firstName,
    lastName: result?.lastName ?? payload.lastName,
    email: result?.email ?? payload.email,
    phone: result?.phone ?? payload.phone,
    psaClientName: companyName,
    psaType: payload.psaType,
    psaCompanyId: payload.externalCompanyId,
    isActive: result?.isActive ?? true,
    status: row.status === 'done' ? 'synced' : row.status,
    failureReason: row.status === 'failed' ? row.lastError : null,
  };
}

export function presentTicket(row: TTicketRow): TCompanyTicket {
  return {
    id: row.id,
    psaTicketId: row.externalId,
    ticketNumber: row.ticketNumber,
    summary: row.summary,
    boardName: row.boardName,
    statusName: row.statusName,
    priorityName: row.priorityName,
    companyName: row.companyName,
    contactName: row.contactName,
    ownerName: row.ownerName,
    isClosed: row.isClosed,
    createdAt: row.psaCreatedAt?.toISOString() ?? null,
    updatedAt: row.psaUpdatedAt?.toISOString() ?? null,
  };
}
