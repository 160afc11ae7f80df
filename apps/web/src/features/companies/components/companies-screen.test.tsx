import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TCompany, TCompanyPage, TCompanyTicketPage, TContactPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { CompaniesScreen } from './companies-screen';

afterEach(() => vi.unstubAllGlobals());

const COMPANY: TCompany = {
  id: '5d0c2a0e-8f6b-4d84-9d7e-1f3a2b4c5d6e',
  psaCompanyId: '19',
  psaType: 'CONNECTWISE',
  name: 'Brightwater Family Dental',
  identifier: 'Brightwater',
  psaClientType: ['Managed Services'],
  phone: '3035550182',
  website: null,
  city: 'Lakewood',
  isActive: true,
};
const COMPANIES: TCompanyPage = { items: [COMPANY], total: 1, page: 1, pageSize: 30, clientTypes: ['Managed Services'] };
const CONTACTS: TContactPage = {
  items: [
    { id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', status: 'synced', psaContactId: '301', firstName: 'Helen', lastName: 'Marchetti', email: 'helen@brightwater.example', phone: null, psaClientName: COMPANY.name, psaType: 'CONNECTWISE', psaCompanyId: '19', isActive: true, failureReason: null },
  ],
  total: 1,
  isTotalCapped: false,
  page: 1,
  pageSize: 30,
  pending: [],
};
const TICKETS: TCompanyTicketPage = {
  items: [{ id: '0b7f7a52-4a55-4b4e-9a1a-6d2c7e3f8a10', psaTicketId: '100536', ticketNumber: '100536', summary: 'Printer offline', boardName: 'Help Desk', statusName: 'New', priorityName: null, companyName: COMPANY.name, contactName: 'Helen Marchetti', ownerName: null, isClosed: false, createdAt: '2026-11-27T15:49:00.000Z', updatedAt: null }],
  total: 1,
  page: 1,
  pageSize: 30,
};

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

/** Runs `body` with the phone media query (max-width 48em) matching, as at 390 px. */
async function onAPhone(body: () => Promise<void>) {
  const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  const phone = (query: string) => ({ matches: query.includes('max-width: 48em'), media: query, onchange: null, addListener: () => undefined, removeListener: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, dispatchEvent: () => false });
  Object.defineProperty(window, 'matchMedia', { writable: true, configurable: true, value: phone });
  try {
    await body();
  } finally {
    if (original) Object.defineProperty(window, 'matchMedia', original);
  }
}

describe('CompaniesScreen', { timeout: 30_000 }, () => {
  it('starts on Companies with the client type "all", then opens a company on its Active employees; Other asks for the others', async () => {
    const calls = stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: CONTACTS }),
    });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: COMPANY.name }));
    expect(queryOf(calls[0]?.url ?? '')).toMatchObject({ clientType: 'all', page: '1' });
    expect(await screen.findByRole('cell', { name: 'Helen Marchetti' })).toBeInTheDocument();
    const contactCalls = () => calls.filter((call) => call.url.includes('/psaContactsByClientId'));
    expect(queryOf(contactCalls()[0]?.url ?? '')).toMatchObject({ psaCompanyId: '19', active: 'true' });
    await userEvent.click(screen.getByText('Other'));
    await vi.waitFor(() => expect(contactCalls().some((call) => queryOf(call.url).active === 'false')).toBe(true));
  });

  it('asks the server once the typing pauses, not for every letter (R-154), and searches from page 1', async () => {
    const calls = stubFetch({ [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }) });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await screen.findByRole('button', { name: COMPANY.name });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search companies' }), 'bri');
    const searches = () => calls.map((call) => queryOf(call.url).search).filter((search) => search !== undefined && search !== '');
    await vi.waitFor(() => expect(searches()).toEqual(['bri']));
    expect(queryOf(calls.at(-1)?.url ?? '')).toMatchObject({ search: 'bri', page: '1' });
  });

  it('falls back to the CompanyEmployees view and says so when the tickets cannot be loaded (R-152)', async () => {
    stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: CONTACTS }),
      [`GET /db/${MSP}/psaTickets`]: () => ({ status: 503, body: { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'The database is busy.', code: 'unavailable', requestId: 'r' } }),
    });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: COMPANY.name }));
    await userEvent.click(await screen.findByRole('button', { name: 'All tickets' }));
    expect(await screen.findByText('Tickets could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Showing the employees instead.')).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Helen Marchetti' })).toBeInTheDocument();
  });

  it('adds a contact while the PSA is down: says it waits for the PSA and lists it as pending; a PSA refusal shows the PSA\'s field message', async () => {
    const pendingContact = { ...CONTACTS.items[0], id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b', psaContactId: null, firstName: 'Journey', lastName: 'Tester', email: 'journey@brightwater.example', status: 'pending' as const };
    let added = false;
    let refuse = true;
    const calls = stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: { ...CONTACTS, pending: added ? [pendingContact] : [] } }),
      [`POST /psa/psa/${MSP}/addPSAContact`]: () => {
        if (refuse) {
          refuse = false;
          return { status: 422, body: { type: 'about:blank', title: 'Unprocessable', status: 422, detail: 'The PSA refused the contact.', code: 'psa_validation', requestId: 'r', invalidParams: [{ name: 'lastName', reason: 'lastName must be at most 30 characters.' }] } };
        }
        added = true;
        return { status: 202, body: { contact: pendingContact } };
      },
    });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: COMPANY.name }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Journey');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Tester');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'journey@brightwater.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('The contact was not addedThe PSA refused the contact.');
    expect(within(dialog).getByRole('textbox', { name: /Last name/ })).toHaveAccessibleDescription('lastName must be at most 30 characters.');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('Contact saved, waiting for the PSA')).toBeInTheDocument();
    expect(screen.getByText('Journey Tester will be added to Brightwater Family Dental as soon as the PSA answers again.')).toBeInTheDocument();
    const row = (await screen.findByText('Pending at the PSA')).closest('tr');
    expect(row).toHaveTextContent('Journey Tester');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      expect.objectContaining({ psaType: 'CONNECTWISE', psaCompanyId: '19', firstName: 'Journey', lastName: 'Tester', email: 'journey@brightwater.example' }),
      expect.objectContaining({ firstName: 'Journey', lastName: 'Tester' }),
    ]);
  });

  // Review s29, finding 5: after a lost answer the form kept its key, so a resubmit with a corrected e-mail was answered
  // "Contact added" with the first e-mail. The same values keep the key (the same add); a changed field starts a new one.
  it('keeps the add\'s key for a resubmit of the same values after a lost answer, and starts a new one when a field changed', async () => {
    let answers = 0;
    const calls = stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: CONTACTS }),
      [`POST /psa/psa/${MSP}/addPSAContact`]: () => {
        answers += 1;
        if (answers <= 2) throw new TypeError('Failed to fetch');
        return { status: 201, body: { contact: { ...CONTACTS.items[0], firstName: 'Journey', lastName: 'Tester', email: 'journey@brightwater.example' } } };
      },
    });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: COMPANY.name }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Journey');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Tester');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'journy@brightwater.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    await within(dialog).findByRole('alert');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    await vi.waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2));
    const email = within(dialog).getByRole('textbox', { name: 'Email' });
    await userEvent.clear(email);
    await userEvent.type(email, 'journey@brightwater.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('Contact added')).toBeInTheDocument();
    const keys = calls.filter((call) => call.method === 'POST').map((call) => (call.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  // Bug: a refused form said its first message twice, above the list of all of them, and no field was marked.
  it('puts each of the server\'s field messages at its field, once', async () => {
    const calls = stubFetch({
      [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
      [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: CONTACTS }),
      [`POST /psa/psa/${MSP}/addPSAContact`]: () => ({
        status: 400,
        body: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'First name is required.', code: 'validation', requestId: 'r', invalidParams: [{ name: 'firstName', reason: 'First name is required.' }, { name: 'lastName', reason: 'Last name is required.' }] },
      }),
    });
    renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: COMPANY.name }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The contact was not addedCorrect the fields below.');
    expect(within(dialog).getAllByText('First name is required.')).toHaveLength(1);
    expect(within(dialog).getByRole('textbox', { name: /First name/ })).toHaveAccessibleDescription('First name is required.');
    expect(within(dialog).getByRole('textbox', { name: /Last name/ })).toHaveAccessibleDescription('Last name is required.');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  // Bug: at 390 px the companies table (four columns) and the tickets table (six) scrolled sideways; the
  // phone number, city, status and date were off-screen behind a scroll bar.
  it('shows companies and tickets as cards on a phone, every field on screen, no table to scroll sideways', async () => {
    await onAPhone(async () => {
      stubFetch({
        [`GET /db/${MSP}/psaClients`]: () => ({ status: 200, body: COMPANIES }),
        [`GET /db/${MSP}/psaContactsByClientId`]: () => ({ status: 200, body: CONTACTS }),
        [`GET /db/${MSP}/psaTickets`]: () => ({ status: 200, body: TICKETS }),
      });
      renderWithProviders(<CompaniesScreen mspCustomDomain={MSP} />);
      const list = await screen.findByRole('list', { name: 'Companies' });
      const card = within(list).getByRole('listitem');
      expect(card).toHaveTextContent('Brightwater Family Dental');
      expect(card).toHaveTextContent('Managed Services');
      expect(card).toHaveTextContent('3035550182 · Lakewood');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();

      await userEvent.click(within(card).getByRole('button', { name: COMPANY.name }));
      await userEvent.click(await screen.findByRole('button', { name: 'All tickets' }));
      const ticket = within(await screen.findByRole('list', { name: 'Tickets' })).getByRole('listitem');
      expect(ticket).toHaveTextContent('Printer offline');
      expect(ticket).toHaveTextContent('#100536');
      expect(ticket).toHaveTextContent('New');
      expect(ticket).toHaveTextContent('Helen Marchetti · Help Desk');
      expect(ticket).toHaveTextContent('Opened');
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    });
  });
});
