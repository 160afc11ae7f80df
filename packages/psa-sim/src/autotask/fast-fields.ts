import type { SimStore, TSimCompany, TSimContact, TSimNote, TSimTicket } from '../store';
import { AT_SLOW_FIELD, atDate } from './common';
import type { TAtSource } from './common';
import { SERVICE_DESK_ROLE_ID, presentAtCompany, presentAtContact, presentAtNote, presentAtTicket } from './entities';

// Filter fields answered straight from rows; each must equal what the presenter renders (fast-fields.test.ts checks this).

type TAccessor<TRow> = (store: SimStore, row: TRow) => unknown;

export const AT_TICKET_FAST_FIELDS: Record<string, TAccessor<TSimTicket>> = {
  id: (_store, ticket) => ticket.id,
  title: (_store, ticket) => ticket.summary,
  companyid: (_store, ticket) => ticket.companyId,
  contactid: (_store, ticket) => ticket.contactId,
  queueid: (_store, ticket) => ticket.boardId,
  status: (store, ticket) => store.statuses.get(ticket.statusId)?.autotaskValue ?? null,
  priority: (_store, ticket) => ticket.priorityId,
  issuetype: (_store, ticket) => ticket.typeId,
  subissuetype: (_store, ticket) => ticket.subTypeId,
  assignedresourceid: (_store, ticket) => ticket.ownerId,
  assignedresourceroleid: (_store, ticket) => (ticket.ownerId === null ? null : SERVICE_DESK_ROLE_ID),
  externalid: (_store, ticket) => (ticket.externalReference === '' ? null : ticket.externalReference),
  createdate: (_store, ticket) => atDate(ticket.createdAt),
  lastactivitydate: (_store, ticket) => atDate(ticket.updatedAt),
  completeddate: (_store, ticket) => atDate(ticket.closedAt),
};

export const AT_NOTE_FAST_FIELDS: Record<string, TAccessor<TSimNote>> = {
  id: (_store, note) => note.id,
  ticketid: (_store, note) => note.ticketId,
  notetype: (_store, note) => note.autotaskNoteType,
  publish: (_store, note) => note.autotaskPublish,
  createdatetime: (_store, note) => atDate(note.createdAt),
  lastactivitydate: (_store, note) => atDate(note.updatedAt),
};

export const AT_CONTACT_FAST_FIELDS: Record<string, TAccessor<TSimContact>> = {
  id: (_store, contact) => contact.id,
  companyid: (_store, contact) => contact.companyId,
  firstname: (_store, contact) => contact.firstName,
  lastname: (_store, contact) => contact.lastName,
  emailaddress: (_store, contact) => contact.email,
  isactive: (_store, contact) => (contact.isActive ? 1 : 0),
  lastactivitydate: (_store, contact) => atDate(contact.updatedAt),
  lastmodifieddate: (_store, contact) => atDate(contact.updatedAt),
};

export const AT_COMPANY_FAST_FIELDS: Record<string, TAccessor<TSimCompany>> = {
  id: (_store, company) => company.id,
  companyname: (_store, company) => company.name,
  companytype: (_store, company) => company.companyTypeId,
  isactive: (_store, company) => company.isActive,
  lastactivitydate: (_store, company) => atDate(company.updatedAt),
};

function fastFieldOf<TRow>(store: SimStore, accessors: Record<string, TAccessor<TRow>>): (row: TRow, lowerField: string) => unknown {
  return (row, lowerField) => {
    const accessor = accessors[lowerField];
    return accessor ? accessor(store, row) : AT_SLOW_FIELD;
  };
}

export function atTicketSource(store: SimStore): TAtSource<TSimTicket> {
  return { rows: store.tickets.all(), id: (ticket) => ticket.id, present: (ticket) => presentAtTicket(store, ticket), fastField: fastFieldOf(store, AT_TICKET_FAST_FIELDS) };
}

export function atNoteSource(store: SimStore): TAtSource<TSimNote> {
  return { rows: store.notes.all(), id: (note) => note.id, present: presentAtNote, fastField: fastFieldOf(store, AT_NOTE_FAST_FIELDS) };
}

export function atContactSource(store: SimStore): TAtSource<TSimContact> {
  return { rows: store.contacts.all(), id: (contact) => contact.id, present: presentAtContact, fastField: fastFieldOf(store, AT_CONTACT_FAST_FIELDS) };
}

export function atCompanySource(store: SimStore): TAtSource<TSimCompany> {
  return { rows: store.companies.all(), id: (company) => company.id, present: presentAtCompany, fastField: fastFieldOf(store, AT_COMPANY_FAST_FIELDS) };
}
