import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PSA_WRITE_MESSAGES, type TPsaWrite } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { PsaWritesCard } from './psa-writes-card';

// Review s29, finding 3: nothing could clear a write the PSA refused for good (Send again failed forever), and Send again
// was offered on writes stopped because the PSA connection changed, where it always answers 409.

const LIST = '/db/api/psa-writes';
const REFUSED: TPsaWrite = {
  id: '6f1c2f0e-0000-4000-8000-000000000003',
  kind: 'queue.note',
  targetType: 'ticket',
  targetId: '6f1c2f0e-0000-4000-8000-0000000000aa',
  status: 'failed',
  attempts: 1,
  nextAttemptAt: null,
  lastError: 'The PSA has no such record.',
  createdAt: '2026-11-27T19:00:00.000Z',
  summary: 'Internal note on the ticket',
  ticket: { psaTicketId: 1234, ticketNumber: '1234', summary: 'Deleted in the PSA' },
  canSendAgain: true,
  canDiscard: true,
};
const STOPPED: TPsaWrite = {
  ...REFUSED,
  id: '6f1c2f0e-0000-4000-8000-000000000004',
  kind: 'queue.timeEntry',
  summary: 'Time entry of 25 min',
  lastError: 'Not sent: the PSA connection changed before this write was sent.',
  canSendAgain: false,
};
const WAITING: TPsaWrite = { ...REFUSED, id: '6f1c2f0e-0000-4000-8000-000000000005', kind: 'queue.update', summary: 'Change the ticket’s summary', status: 'pending', nextAttemptAt: '2026-11-27T19:05:00.000Z', canDiscard: false };

function stubApi(writes: TPsaWrite[]) {
  let open = [...writes];
  const posts: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const path = url.split('?')[0] ?? '';
      const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
      if ((init.method ?? 'GET') === 'GET' && path === LIST) return json({ writes: open });
      posts.push(path);
      const discarded = /^\/db\/api\/psa-writes\/([^/]+)\/discard$/.exec(path)?.[1];
      open = open.filter((write) => write.id !== discarded);
      return json({ writeId: discarded, discardedAt: '2026-11-27T20:00:00.000Z' });
    }),
  );
  return { posts };
}

afterEach(() => vi.unstubAllGlobals());

const card = () => screen.getByRole('region', { name: PSA_WRITE_MESSAGES.title });

describe('PsaWritesCard — Discard', { timeout: 30_000 }, () => {
  it('offers Discard on refused changes only, hides Send again on one stopped by a connection change, and discards after a plain confirm', async () => {
    const api = stubApi([REFUSED, STOPPED, WAITING]);
    renderWithProviders(<PsaWritesCard mspCustomDomain="northwind" />);
    const refused = await within(card()).findByRole('listitem', { name: REFUSED.summary });
    const stopped = within(card()).getByRole('listitem', { name: STOPPED.summary });
    const waiting = within(card()).getByRole('listitem', { name: WAITING.summary });
    expect(within(stopped).queryByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain })).not.toBeInTheDocument();
    expect(within(stopped).getByRole('button', { name: PSA_WRITE_MESSAGES.discard })).toBeInTheDocument();
    expect(within(waiting).getByRole('button', { name: PSA_WRITE_MESSAGES.sendAgain })).toBeInTheDocument();
    expect(within(waiting).queryByRole('button', { name: PSA_WRITE_MESSAGES.discard })).not.toBeInTheDocument();

    // Kept when the admin changes their mind.
    await userEvent.click(within(refused).getByRole('button', { name: PSA_WRITE_MESSAGES.discard }));
    let dialog = await screen.findByRole('dialog', { name: PSA_WRITE_MESSAGES.discardTitle });
    expect(dialog).toHaveTextContent(PSA_WRITE_MESSAGES.discardText(REFUSED.summary));
    await userEvent.click(within(dialog).getByRole('button', { name: PSA_WRITE_MESSAGES.discardCancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.posts).toEqual([]);

    await userEvent.click(within(refused).getByRole('button', { name: PSA_WRITE_MESSAGES.discard }));
    dialog = await screen.findByRole('dialog', { name: PSA_WRITE_MESSAGES.discardTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: PSA_WRITE_MESSAGES.discardConfirm }));
    expect(await within(card()).findByText(PSA_WRITE_MESSAGES.discarded)).toBeInTheDocument();
    expect(api.posts).toEqual([`${LIST}/${REFUSED.id}/discard`]);
    await waitFor(() => expect(within(card()).queryByRole('listitem', { name: REFUSED.summary })).not.toBeInTheDocument());
  });

  // Visual review s29: with two refused changes of the same kind ("Internal note on the ticket"), the confirm did not
  // say which ticket's change it would drop.
  it('names the ticket of the change in the confirm', async () => {
    const otherTicket = { psaTicketId: 5678, ticketNumber: '5678', summary: 'Printer offline' };
    const other: TPsaWrite = { ...REFUSED, id: '6f1c2f0e-0000-4000-8000-000000000006', ticket: otherTicket };
    stubApi([REFUSED, other]);
    renderWithProviders(<PsaWritesCard mspCustomDomain="northwind" />);
    const items = await within(card()).findAllByRole('listitem', { name: REFUSED.summary });
    const second = items.find((item) => within(item).queryByText(PSA_WRITE_MESSAGES.ticket(otherTicket)) !== null);
    expect(second).toBeDefined();
    await userEvent.click(within(second ?? document.body).getByRole('button', { name: PSA_WRITE_MESSAGES.discard }));
    const dialog = await screen.findByRole('dialog', { name: PSA_WRITE_MESSAGES.discardTitle });
    expect(dialog).toHaveTextContent('Ticket #5678: Printer offline');
    expect(dialog).not.toHaveTextContent('Ticket #1234');
  });
});
