import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EMAIL_CONNECTOR_MESSAGES, EMAIL_MAIL_MESSAGES, type TEmailConnectorMail, type TEmailConnectorSettings } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { EmailConnectorCard } from './email-connector-card';

const MSP = 'northwind';
const PATH = `/db/${MSP}/integrations/email-connector`;
const NONE: TEmailConnectorSettings = { isConfigured: false, address: null, imapHost: null, imapPort: null, passwordHint: null, lastCheckedAt: null, lastError: null, ticketCount: 0, updatedAt: null };

/** A stand-in for the server's email-connector routes: refuses one password as the mailbox would, keeps what was saved. */
function stubApi(options: { unreachable?: boolean; connected?: boolean; mail?: TEmailConnectorMail[] } = {}) {
  let saved: TEmailConnectorSettings = options.connected
    ? { ...NONE, isConfigured: true, address: 'help@northwind.test', imapHost: 'imap.northwind.test', imapPort: 993, passwordHint: '••••9xYz', lastCheckedAt: '2026-11-29T09:00:00.000Z', ticketCount: 2, updatedAt: '2026-11-28T09:00:00.000Z' }
    : NONE;
  const calls: { method: string; body: Record<string, unknown> | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      const json = (payload: unknown, status = 200) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': status === 200 ? 'application/json' : 'application/problem+json' } });
      if (url.split('?')[0] === `${PATH}/mail`) return json({ mail: options.mail ?? [] });
      if (url.split('?')[0] !== PATH) return json({}, 404);
      calls.push({ method, body });
      if (method === 'PUT' && body) {
        if (options.unreachable) return json({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: EMAIL_CONNECTOR_MESSAGES.unreachable, code: 'mail_server_unreachable', requestId: 'r' }, 502);
        if (body.appPassword === 'wrong') {
          return json({ type: 'about:blank', title: 'Bad Request', status: 400, detail: EMAIL_CONNECTOR_MESSAGES.signInRefused, code: 'validation', requestId: 'r', invalidParams: [{ name: 'appPassword', reason: EMAIL_CONNECTOR_MESSAGES.signInRefused }] }, 400);
        }
        const password = typeof body.appPassword === 'string' ? body.appPassword : null;
        saved = {
          ...NONE,
          isConfigured: true,
          address: String(body.address),
          imapHost: (body.imapHost as string | null) ?? 'outlook.office365.com',
          imapPort: (body.imapPort as number | null) ?? 993,
          passwordHint: password ? `••••${password.slice(-4)}` : saved.passwordHint,
          lastCheckedAt: '2026-11-27T19:00:00.000Z',
          ticketCount: 3,
          updatedAt: new Date().toISOString(),
        };
      }
      if (method === 'DELETE') saved = NONE;
      return json(saved);
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

const form = () => screen.getByRole('form', { name: 'Email connector settings' });

describe('EmailConnectorCard', { timeout: 30_000 }, () => {
  it('says when the IMAP server is needed, saves a mailbox, then shows the status and only the password’s last four', async () => {
    const calls = stubApi();
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    expect(await screen.findByText(/can become tickets in your PSA/)).toBeInTheDocument();
    expect(screen.getByText('Not connected')).toBeInTheDocument();

    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    expect(within(form()).getByText(EMAIL_CONNECTOR_MESSAGES.addressRequired)).toBeInTheDocument();
    expect(within(form()).getByText(EMAIL_CONNECTOR_MESSAGES.passwordRequired)).toBeInTheDocument();

    const addressField = within(form()).getByRole('textbox', { name: /Help-desk mailbox address/ });
    await userEvent.type(addressField, 'help@msp.test');
    expect(within(form()).getByText(/Needed for this address/)).toBeInTheDocument();
    await userEvent.type(within(form()).getByLabelText(/App password/), 'abcd-efgh-9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    expect(within(form()).getByText(EMAIL_CONNECTOR_MESSAGES.hostRequired)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await userEvent.clear(addressField);
    await userEvent.type(addressField, 'help@contoso.onmicrosoft.com');
    expect(within(form()).getByText('Found for this address: outlook.office365.com. Leave empty to use it.')).toBeInTheDocument();
    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    await waitFor(() => expect(screen.getByText('Connected: tickets are created from mail to help@contoso.onmicrosoft.com')).toBeInTheDocument());
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ address: 'help@contoso.onmicrosoft.com', imapHost: null, imapPort: null, appPassword: 'abcd-efgh-9xYz' });
    expect(screen.getByText(EMAIL_CONNECTOR_MESSAGES.saved)).toBeInTheDocument();
    expect(screen.getByText(/IMAP server outlook.office365.com:993 · app password ••••9xYz · 3 tickets from mail/)).toBeInTheDocument();
    expect(within(form()).getByLabelText(/App password/)).toHaveValue('');
    expect(within(form()).getByLabelText(/App password/)).toHaveAttribute('placeholder', 'Leave empty to keep ••••9xYz');
    expect(document.body.textContent).not.toContain('abcd-efgh');
  });

  it('shows the mailbox’s refusal under the password field, and an unreachable server in plain words', async () => {
    stubApi();
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Help-desk mailbox address/ }), 'help@gmail.com');
    await userEvent.type(within(form()).getByLabelText(/App password/), 'wrong');
    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    expect(await within(form()).findByText(EMAIL_CONNECTOR_MESSAGES.signInRefused)).toBeInTheDocument();
    expect(screen.getByText('Not connected')).toBeInTheDocument();
  });

  it('an unreachable mail server is said in plain words', async () => {
    stubApi({ unreachable: true });
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Help-desk mailbox address/ }), 'help@msp.test');
    await userEvent.type(within(form()).getByLabelText(/App password/), 'secret-pass');
    await userEvent.type(within(form()).getByRole('textbox', { name: /IMAP server/ }), 'imap.msp.test');
    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The mailbox was not saved');
    expect(alert).toHaveTextContent(EMAIL_CONNECTOR_MESSAGES.unreachable);
  });

  it('removes the mailbox only after the confirmation', async () => {
    const calls = stubApi();
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    await userEvent.type(await screen.findByRole('textbox', { name: /Help-desk mailbox address/ }), 'help@gmail.com');
    await userEvent.type(within(form()).getByLabelText(/App password/), 'abcd-efgh-9xYz');
    await userEvent.click(within(form()).getByRole('button', { name: 'Connect mailbox' }));
    await screen.findByText('Connected: tickets are created from mail to help@gmail.com');

    await userEvent.click(within(form()).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the email connector?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(form()).getByRole('button', { name: 'Remove' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Remove the email connector?' })).getByRole('button', { name: 'Remove email connector' }));
    await waitFor(() => expect(screen.getByText(EMAIL_CONNECTOR_MESSAGES.removed)).toBeInTheDocument());
    expect(screen.getByText('Not connected')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it('lists the recent mail with what became of each, says why a mail did not become a ticket and what to change', async () => {
    const mail: TEmailConnectorMail[] = [
      { id: 'm3', from: 'stranger@elsewhere.test', subject: 'Quote for 20 laptops', receivedAt: '2026-11-29T08:40:00.000Z', outcome: 'skipped', reason: 'No synchronized contact has this address and no default company is set.', ticketNumber: null },
      { id: 'm2', from: 'ada@northwind.test', subject: 'Re: Printer offline', receivedAt: '2026-11-29T08:30:00.000Z', outcome: 'note', reason: null, ticketNumber: '100532' },
      { id: 'm1', from: 'ada@northwind.test', subject: 'Printer offline', receivedAt: '2026-11-29T08:00:00.000Z', outcome: 'ticket', reason: null, ticketNumber: '100532' },
      { id: 'm0', from: 'grace@northwind.test', subject: '', receivedAt: '2026-11-29T07:00:00.000Z', outcome: 'waiting', reason: null, ticketNumber: null },
      // Refused by the PSA: its reason says what to do; the unknown sender's hint would be wrong (review s29).
      { id: 'mr', from: 'ada@northwind.test', subject: 'Scanner broken', receivedAt: '2026-11-29T06:00:00.000Z', outcome: 'skipped', reason: EMAIL_MAIL_MESSAGES.ticketRefused('Summary is required.'), ticketNumber: null },
    ];
    stubApi({ connected: true, mail });
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    const list = await screen.findByRole('list', { name: EMAIL_MAIL_MESSAGES.listLabel });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Quote for 20 laptops', 'Re: Printer offline', 'Printer offline', EMAIL_MAIL_MESSAGES.noSubject, 'Scanner broken']);
    const [skipped, note, ticket, waiting, refused] = items;
    if (!skipped || !note || !ticket || !waiting || !refused) throw new Error('five items');
    expect(within(refused).getByText(EMAIL_MAIL_MESSAGES.ticketRefused('Summary is required.'))).toBeInTheDocument();
    expect(within(refused).queryByText(EMAIL_MAIL_MESSAGES.skippedHint)).not.toBeInTheDocument();
    expect(within(skipped).getByText(EMAIL_MAIL_MESSAGES.outcome.skipped)).toBeInTheDocument();
    expect(within(skipped).getByText('No synchronized contact has this address and no default company is set.')).toBeInTheDocument();
    expect(within(skipped).getByText(EMAIL_MAIL_MESSAGES.skippedHint)).toBeInTheDocument();
    expect(within(skipped).getByText(/^From stranger@elsewhere\.test · /)).toBeInTheDocument();
    expect(within(note).getByText(EMAIL_MAIL_MESSAGES.noteAdded('100532'))).toBeInTheDocument();
    expect(within(ticket).getByText(EMAIL_MAIL_MESSAGES.outcome.ticket)).toBeInTheDocument();
    expect(within(ticket).getByText(EMAIL_MAIL_MESSAGES.ticketCreated('100532'))).toBeInTheDocument();
    expect(within(ticket).queryByText(EMAIL_MAIL_MESSAGES.skippedHint)).not.toBeInTheDocument();
    expect(within(waiting).getByText(EMAIL_MAIL_MESSAGES.ticketWaiting)).toBeInTheDocument();
  });

  it('says when no mail has been read yet, and shows no list before a mailbox is connected', async () => {
    stubApi({ connected: true });
    const { unmount } = renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    expect(await screen.findByText(EMAIL_MAIL_MESSAGES.empty)).toBeInTheDocument();
    unmount();
    stubApi();
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: EMAIL_MAIL_MESSAGES.title })).not.toBeInTheDocument();
  });
});
