import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TEmailConnectorSettings } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { EmailConnectorCard } from './email-connector-card';

const MSP = 'northwind';
const PATH = `/db/${MSP}/integrations/email-connector`;
const NONE: TEmailConnectorSettings = { isConfigured: false, address: null, imapHost: null, imapPort: null, passwordHint: null, lastCheckedAt: null, lastError: null, ticketCount: 0, updatedAt: null };
/** Just connected: the first reading has not happened yet. */
const JUST_CONNECTED: TEmailConnectorSettings = {
  isConfigured: true,
  address: 'help@northwind.test',
  imapHost: 'imap.northwind.test',
  imapPort: 993,
  passwordHint: '••••9xYz',
  lastCheckedAt: null,
  lastError: null,
  ticketCount: 0,
  updatedAt: '2026-11-28T09:00:00.000Z',
};
const READ_FAILED = 'Mail is waiting: set up the board first.';

/** The server answers each settings GET with the next of `answers` (the last one from then on). */
function stubApi(answers: TEmailConnectorSettings[]) {
  const settingsGets: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const json = (payload: unknown) => new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
      if (url.split('?')[0] === `${PATH}/mail`) return json({ mail: [] });
      settingsGets.push(url);
      return json(answers[Math.min(settingsGets.length, answers.length) - 1]);
    }),
  );
  return settingsGets;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

// Review finding: the card read its settings once, so after "Connect mailbox" it kept "last checked never" and 0 tickets,
// and a failed first reading never showed its yellow alert until the page was reloaded.
describe('EmailConnectorCard: looks at the mailbox status again while open', { timeout: 30_000 }, () => {
  it('shows a failed first reading and the new count within a minute, without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const gets = stubApi([JUST_CONNECTED, { ...JUST_CONNECTED, lastCheckedAt: '2026-11-28T09:01:00.000Z', lastError: READ_FAILED, ticketCount: 1 }]);
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    expect(await screen.findByText(/0 tickets from/)).toBeInTheDocument();
    expect(screen.queryByText(READ_FAILED)).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_500);
    });
    expect(await screen.findByText(READ_FAILED)).toBeInTheDocument();
    expect(screen.getByText('The mailbox could not be read at the last check')).toBeInTheDocument();
    expect(screen.getByText(/1 ticket from/)).toBeInTheDocument();
    expect(gets.length).toBeGreaterThanOrEqual(2);
  });

  it('does not keep asking while no mailbox is connected', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const gets = stubApi([NONE]);
    renderWithProviders(<EmailConnectorCard mspCustomDomain={MSP} />);
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(180_000);
    });
    expect(gets).toHaveLength(1);
  });
});
