import { describe, expect, it } from 'vitest';
import { readFieldCaseInsensitive } from './autotask-filter';
import { presentAtCompany, presentAtContact, presentAtNote, presentAtTicket } from './autotask/entities';
import { AT_COMPANY_FAST_FIELDS, AT_CONTACT_FAST_FIELDS, AT_NOTE_FAST_FIELDS, AT_TICKET_FAST_FIELDS } from './autotask/fast-fields';
import { resolveObjectPath } from './conditions-parser';
import { COMPANY_FAST_FIELDS, CONTACT_FAST_FIELDS, TICKET_FAST_FIELDS } from './connectwise/fast-fields';
import { presentCompany, presentContact, presentTicket } from './connectwise/presenters';
import { seedDemoData, seedReferenceData } from './seed';
import { SimStore } from './store';

function demoStore(): SimStore {
  const store = new SimStore(() => Date.UTC(2026, 0, 1));
  seedReferenceData(store);
  seedDemoData(store);
  const historical = store.tickets.get(100001);
  if (!historical) throw new Error('The demo seed has no ticket 100001');
  // An open, unassigned ticket with an external reference covers the null branches of the accessors.
  const { id: _id, ...fields } = historical;
  store.tickets.insert({ ...fields, contactId: null, ownerId: null, closedAt: null, externalReference: 'x-1' });
  return store;
}

describe('fast field accessors agree with the presenters', () => {
  const store = demoStore();
  const tickets = [...store.tickets.all()];
  const notes = [...store.notes.all()].slice(0, 50);
  const contacts = [...store.contacts.all()];
  const companies = [...store.companies.all()];

  it('ConnectWise tickets, contacts and companies', () => {
    for (const ticket of tickets) {
      const presented = presentTicket(store, ticket);
      for (const [path, accessor] of Object.entries(TICKET_FAST_FIELDS)) expect(accessor(store, ticket), path).toEqual(resolveObjectPath(presented, path));
    }
    for (const contact of contacts) {
      const presented = presentContact(store, contact);
      for (const [path, accessor] of Object.entries(CONTACT_FAST_FIELDS)) expect(accessor(store, contact), path).toEqual(resolveObjectPath(presented, path));
    }
    for (const company of companies) {
      const presented = presentCompany(store, company);
      for (const [path, accessor] of Object.entries(COMPANY_FAST_FIELDS)) expect(accessor(store, company), path).toEqual(resolveObjectPath(presented, path));
    }
  });

  it('Autotask tickets, notes, contacts and companies', () => {
    for (const ticket of tickets) {
      const presented = presentAtTicket(store, ticket);
      for (const [field, accessor] of Object.entries(AT_TICKET_FAST_FIELDS)) expect(accessor(store, ticket), field).toEqual(readFieldCaseInsensitive(presented, field));
    }
    for (const note of notes) {
      const presented = presentAtNote(note);
      for (const [field, accessor] of Object.entries(AT_NOTE_FAST_FIELDS)) expect(accessor(store, note), field).toEqual(readFieldCaseInsensitive(presented, field));
    }
    for (const contact of contacts) {
      const presented = presentAtContact(contact);
      for (const [field, accessor] of Object.entries(AT_CONTACT_FAST_FIELDS)) expect(accessor(store, contact), field).toEqual(readFieldCaseInsensitive(presented, field));
    }
    for (const company of companies) {
      const presented = presentAtCompany(company);
      for (const [field, accessor] of Object.entries(AT_COMPANY_FAST_FIELDS)) expect(accessor(store, company), field).toEqual(readFieldCaseInsensitive(presented, field));
    }
  });
});
