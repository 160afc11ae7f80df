import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PSA_WRITE_MESSAGES, type TPsaWrite } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { formatWhen } from '../../../lib/format-when';
import { PsaWritesCard } from './psa-writes-card';

const MSP = 'northwind';
const LIST = '/db/api/psa-writes';
const NEXT_TRY = '2026-11-27T19:05:00.000Z';

/** Two writes as the server answers them (ZPsaWrite exactly: web tests are not type-checked against it). */
const NOTE: TPsaWrite = {
  id: '6f1c2f0e-0000-4000-8000-000000000001',
  kind: 'queue.note',
  targetType: 'ticket',
  targetId: '6f1c2f0e-0000-4000-8000-0000000000aa',
  status: 'pending',
  attempts: 2,
  nextAttemptAt: NEXT_TRY,
  lastError: 'The PSA is not answering right now. The change is kept and sent again.',
  createdAt: '2026-11-27T19:00:00.000Z',
  summary: 'Internal note on the ticket',
  ticket: { psaTicketId: 1234, ticketNumber: '1234', summary: 'Label printer on floor 2 offline' },
  canSendAgain: true,
  canDiscard: false,
};
const CONTACT: TPsaWrite = {
  id: '6f1c2f0e-0000-4000-8000-000000000002',
  kind: 'contact.create',
  targetType: 'psa_company',
  targetId: '250',
  status: 'failed',
  attempts: 12,
  nextAttemptAt: null,
  lastError: 'The PSA refused the change. companyId: The company was not found.',
  createdAt: '2026-11-27T18:00:00.000Z',
  summary: 'New contact Ada Lovelace',
  ticket: null,
  canSendAgain: true,
  canDiscard: true,
};

/** A stand-in for the outbox routes: the open writes, and a retry that answers `retryAnswer(write)` (done leaves the list). */
function stubApi(writes: TPsaWrite[], retryAnswer: (write: TPsaWrite) => TPsaWrite = (write) => ({ ...write, status: 'done', nextAttemptAt: null, lastError: null })) {
  let open = [...writes];
  const calls: { method: string; path: string }[] = [];
  let releaseRetry: () => void = () => undefined;
  const retryGate = { held: false };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const path = url.split('?')[0] ?? '';
      calls.push({ method, path });
      const json = (payload: unknown, status = 200) => new Response(JSON.stringify(payload), { status, headers: { 'content-type': status === 200 ? 'application/json' : 'application/problem+json' } });
      if (method === 'GET' && path === LIST) return json({ writes: open });
      const retried = /^\/db\/api\/psa-writes\/([^/]+)\/retry$/.exec(path);
      const write = open.find((each) => each.id === retried?.[1]);
      if (method === 'POST' && write) {
        if (retryGate.held) await new Promise<void>((resolve) => (releaseRetry = resolve));
        const answer = retryAnswer(write);
        open = answer.status === 'done' ? open.filter((each) => each.id !== write.id) : open.map((each) => (each.id === write.id ? answer : each));
        return json({ write: answer });
      }
      return json({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Write not found.', code: 'not_found', requestId: 'r' }, 404);
    }),
  );
  return { calls, holdRetry: () => (retryGate.held = true), releaseRetry: () => releaseRetry() };
}

afterEach(() => vi.unstubAllGlobals());

const card = () => screen.getByRole('region', { name: PSA_WRITE_MESSAGES.title });
const item = (summary: string) => within(card()).getByRole('listitem', { name: summary });

describe('PsaWritesCard', { timeout: 30_000 }, () => {
  it('lists each change with its badge, ticket, reason, tries and next try', async () => {
    stubApi([NOTE, CONTACT]);
    renderWithProviders(<PsaWritesCard mspCustomDomain={MSP} />);
    const note = await within(card()).findByRole('listitem', { name: NOTE.summary });
    expect(within(note).getByText(PSA_WRITE_MESSAGES.waiting)).toBeInTheDocument();
    expect(within(note).getByText('Ticket #1234: Label printer on floor 2 offline')).toBeInTheDocument();
    expect(within(note).getByText(PSA_WRITE_MESSAGES.reason(NOTE.lastError ?? ''))).toBeInTheDocument();
    expect(within(note).getByText(`2 tries · next try ${formatWhen(NEXT_TRY)}`)).toBeInTheDocument();

    const contact = item(CONTACT.summary);
    expect(within(contact).getByText(PSA_WRITE_MESSAGES.failed)).toBeInTheDocument();
    expect(within(contact).queryByText(/^Ticket/)).not.toBeInTheDocument();
    expect(within(contact).getByText(PSA_WRITE_MESSAGES.reason(CONTACT.lastError ?? ''))).toBeInTheDocument();
    // A failed change is not tried again by itself: no next try.
    expect(within(contact).getByText('12 tries')).toBeInTheDocument();
    expect(within(card()).queryByText(PSA_WRITE_MESSAGES.empty)).not.toBeInTheDocument();
  });

  it('says when every change is in the PSA', async () => {
    stubApi([]);
    renderWithProviders(<PsaWritesCard mspCustomDomain={MSP} />);
    expect(await within(card()).findByText(PSA_WRITE_MESSAGES.empty)).toBeInTheDocument();
    expect(within(card()).queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('“Send again” resends the change, is busy meanwhile, then the list is read again and the outcome shown', async () => {
    const api = stubApi([NOTE, CONTACT]);
    renderWithProviders(<PsaWritesCard mspCustomDomain={MSP} />);
    const note = await within(card()).findByRole('listitem', { name: NOTE.summary });
    api.holdRetry();
    await userEvent.click(within(note).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain }));
    await waitFor(() => expect(within(note).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain })).toHaveAttribute('data-loading', 'true'));
    expect(within(item(CONTACT.summary)).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain })).toBeDisabled();
    api.releaseRetry();

    expect(await within(card()).findByText(PSA_WRITE_MESSAGES.sent)).toBeInTheDocument();
    await waitFor(() => expect(within(card()).queryByRole('listitem', { name: NOTE.summary })).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([`${LIST}/${NOTE.id}/retry`]);
    // Read once on opening and once after the resend.
    expect(api.calls.filter((call) => call.method === 'GET' && call.path === LIST)).toHaveLength(2);
    expect(within(item(CONTACT.summary)).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain })).toBeEnabled();
  });

  it('shows the PSA’s reason when it refuses the change again', async () => {
    const reason = 'The PSA refused the change. companyId: The company was not found.';
    stubApi([CONTACT], (write) => ({ ...write, attempts: 1, lastError: reason }));
    renderWithProviders(<PsaWritesCard mspCustomDomain={MSP} />);
    const contact = await within(card()).findByRole('listitem', { name: CONTACT.summary });
    await userEvent.click(within(contact).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain }));
    expect(await within(card()).findByRole('alert')).toHaveTextContent(PSA_WRITE_MESSAGES.refused(reason));
    await waitFor(() => expect(within(item(CONTACT.summary)).getByText('1 try')).toBeInTheDocument());
  });
});
