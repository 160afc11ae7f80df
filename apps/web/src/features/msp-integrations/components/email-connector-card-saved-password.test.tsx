import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EMAIL_CONNECTOR_MESSAGES, type TEmailConnectorSettings } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { EmailConnectorCard } from './email-connector-card';

const MSP = 'northwind';
const PATH = `/db/${MSP}/integrations/email-connector`;
const CONNECTED: TEmailConnectorSettings = {
  isConfigured: true,
  address: 'help@northwind.test',
  imapHost: 'imap.northwind.test',
  imapPort: 993,
  passwordHint: '••••9xYz',
  lastCheckedAt: '2026-11-29T09:00:00.000Z',
  lastError: null,
  ticketCount: 2,
  updatedAt: '2026-11-28T09:00:00.000Z',
};

/** A connected mailbox; a save answers what was sent, the password never. */
function stubApi() {
  const puts: Array<Record<string, unknown>> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url.split('?')[0] === `${PATH}/mail`) return json({ mail: [] });
      if (init.method === 'PUT' && typeof init.body === 'string') {
        const body = JSON.parse(init.body) as Record<string, unknown>;
        puts.push(body);
        return json({ ...CONNECTED, imapHost: body.imapHost ?? CONNECTED.imapHost, imapPort: body.imapPort ?? 993, updatedAt: new Date().toISOString() });
      }
      return json(CONNECTED);
    }),
  );
  return puts;
}

afterEach(() => vi.unstubAllGlobals());

const form = () => screen.getByRole('form', { name: 'Email connector settings' });

// Security review: the server now asks for the app password again when the IMAP server or port changes (the stored
// one only goes to the server it was saved for); the card said "Leave empty to keep" and got a 400 for it.
describe('EmailConnectorCard: the saved app password', { timeout: 30_000 }, () => {
  it('is asked for again when the IMAP server or port changes, and kept for the same server', async () => {
    const puts = stubApi();
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    const password = await screen.findByLabelText(/App password/);
    expect(password).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz');

    const host = within(form()).getByRole('textbox', { name: /IMAP server/ });
    await userEvent.clear(host);
    await userEvent.type(host, 'imap.elsewhere.test');
    expect(within(form()).getByLabelText(/App password/)).toHaveAttribute('placeholder', 'Paste the app password');
    expect(within(form()).getByLabelText(/App password/)).toBeRequired();
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(within(form()).getByText(EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer)).toBeInTheDocument();

    await userEvent.clear(host);
    await userEvent.type(host, 'IMAP.northwind.test');
    await userEvent.type(within(form()).getByRole('textbox', { name: /Port/ }), '143');
    expect(within(form()).getByLabelText(/App password/)).toHaveAttribute('placeholder', 'Paste the app password');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(within(form()).getByText(EMAIL_CONNECTOR_MESSAGES.passwordRequiredForNewServer)).toBeInTheDocument();
    expect(puts).toEqual([]);

    await userEvent.clear(within(form()).getByRole('textbox', { name: /Port/ }));
    expect(within(form()).getByLabelText(/App password/)).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({ address: 'help@northwind.test', imapHost: 'IMAP.northwind.test', imapPort: null });
  });
});
