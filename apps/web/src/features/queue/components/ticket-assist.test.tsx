import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP, stubFetch } from '../../assistant/test/assistant-fixtures';
import { queueTicket } from '../test/fake-queue-server';
import { TicketAssist } from './ticket-assist';

afterEach(() => vi.unstubAllGlobals());

const REFUSED = { status: 429, body: { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Too many requests. Try again in a minute.', code: 'rate_limited', requestId: 'r' } };
const STEPS = { status: 200, body: { id: '3f1c2a9e-0000-4000-8000-000000000001', choices: [{ index: 0, message: { role: 'assistant', content: '1. Power-cycle the printer. [1]' } }], engine: 'local', sources: [], notice: null } };
const NO_RESOLUTIONS = { status: 200, body: { ticketId: null, query: 'x', results: [] } };

describe('TicketAssist after an error (review s27: the panel stayed stuck on it)', () => {
  it("offers to try the ticket's own question again, and a repeated question is sent again", { timeout: 20_000 }, async () => {
    let failures = 2;
    const calls = stubFetch({
      'POST /gpt/jarvisQandA': () => (failures-- > 0 ? REFUSED : STEPS),
      'POST /gpt/rag/search': () => NO_RESOLUTIONS,
    });
    renderWithProviders(<TicketAssist ticket={queueTicket(1, { title: 'Printer offline' })} mspCustomDomain={MSP} />);
    const steps = screen.getByLabelText('Troubleshooting steps');
    expect(await within(steps).findByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
    await userEvent.click(within(steps).getByRole('button', { name: 'Try again' }));
    // Refused again: the same question typed and searched once more is sent once more.
    expect(await within(steps).findByText('Too many requests. Try again in a minute.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Ask about this ticket' }), 'printer offline');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await within(steps).findByText('Power-cycle the printer. [1]')).toBeInTheDocument();
    const sent = calls.filter((call) => call.url.includes('/gpt/jarvisQandA')).length;
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await vi.waitFor(() => expect(calls.filter((call) => call.url.includes('/gpt/jarvisQandA')).length).toBe(sent + 1));
  });
});

// Regression (visual review s27): the answer's own "Sources: [1] … [2] …" list ran into one paragraph (Markdown joins
// its lines) and repeated the "Read the article:" links under it.
describe('TicketAssist — cited articles', () => {
  it('leaves the answer\'s Sources list out and lists each cited article once, one under another', { timeout: 20_000 }, async () => {
    const content = '1. Power-cycle the printer. [1]\n2. Re-add the printer. [2]\n\nSources:\n[1] Printer offline — Steps\n[2] Printer offline — Drivers';
    const sources = [
      { kind: 'article', id: '3f1c2a9e-0000-4000-8000-0000000000a1', title: 'Printer offline — Steps', reference: null },
      { kind: 'article', id: '3f1c2a9e-0000-4000-8000-0000000000a1', title: 'Printer offline — Drivers', reference: null },
      { kind: 'article', id: '3f1c2a9e-0000-4000-8000-0000000000a2', title: 'Label printer blank — Steps', reference: null },
    ];
    stubFetch({
      'POST /gpt/jarvisQandA': () => ({ status: 200, body: { ...STEPS.body, choices: [{ index: 0, message: { role: 'assistant', content } }], sources } }),
      'POST /gpt/rag/search': () => NO_RESOLUTIONS,
    });
    renderWithProviders(<TicketAssist ticket={queueTicket(1, { title: 'Printer offline' })} mspCustomDomain={MSP} />);
    const steps = screen.getByLabelText('Troubleshooting steps');
    expect(await within(steps).findByText('Power-cycle the printer. [1]')).toBeInTheDocument();
    expect(within(steps).queryByText(/Sources:/)).not.toBeInTheDocument();
    const cited = within(steps).getByRole('list', { name: 'Articles cited' });
    expect(within(cited).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Printer offline', 'Label printer blank']);
  });
});
