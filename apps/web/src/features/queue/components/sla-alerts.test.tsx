import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DISPATCH_PATHS, MESSAGES, type TSlaAlert, type TSlaAlertList } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { MSP } from '../test/fake-queue-server';
import { SlaAlerts } from './sla-alerts';

afterEach(() => vi.unstubAllGlobals());

const alert = (index: number, overrides: Partial<TSlaAlert> = {}): TSlaAlert => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  queueTicketId: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
  ticketId: 1000 + index,
  title: `Printer ${index} is offline`,
  threshold: 90,
  slaDueAt: null,
  createdAt: '2026-11-29T08:00:00.000Z',
  isRead: false,
  ...overrides,
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const problem = (status: number) => json(status, { type: 'about:blank', title: 'Unavailable', status, detail: 'The server is not answering right now.', code: 'unavailable', requestId: 'r' });

/**
 * The alerts API: GET answers with `answers` in turn (the last one from then on); POST marks the ids read and answers
 * `afterRead(ids)` when given (a server holding more alerts than it listed), else the last list with those ids read.
 */
function startAlertsServer(answers: (() => Response)[], afterRead?: (ids: string[]) => TSlaAlertList) {
  const reads: string[][] = [];
  let list: TSlaAlertList | undefined;
  let gets = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (path === DISPATCH_PATHS.slaAlerts) {
        const answer = answers[Math.min(gets, answers.length - 1)];
        gets += 1;
        const response = answer ? answer() : problem(500);
        if (response.ok) list = (await response.clone().json()) as TSlaAlertList;
        return response;
      }
      if (path === DISPATCH_PATHS.slaAlertsRead && init.method === 'POST') {
        const { ids } = (typeof init.body === 'string' ? JSON.parse(init.body) : { ids: [] }) as { ids: string[] };
        reads.push(ids);
        if (afterRead) return json(200, afterRead(ids));
        const alerts = (list?.alerts ?? []).map((each) => (ids.includes(each.id) ? { ...each, isRead: true } : each));
        return json(200, { alerts, unreadCount: alerts.filter((each) => !each.isRead).length });
      }
      return json(404, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not found', code: 'not_found', requestId: 'r' });
    }),
  );
  return { reads, gets: () => gets };
}

describe('SlaAlerts', () => {
  // Regression (review s28 #4): a failed load rendered nothing, so it looked exactly like "no alerts".
  it('says in plain words when the alerts could not be loaded, and loads them again on "Try again"', async () => {
    const server = startAlertsServer([() => problem(503), () => json(200, { alerts: [alert(1, { threshold: 100 })], unreadCount: 1 })]);
    renderWithProviders(<SlaAlerts mspCustomDomain={MSP} />);
    const failed = await screen.findByRole('alert');
    expect(failed).toHaveTextContent(MESSAGES.queue.sla.loadFailed);
    await userEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/#1001 Printer 1 is offline/)).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.queue.sla.loadFailed)).not.toBeInTheDocument();
    expect(server.gets()).toBe(2);
  });

  // Regression (review s28 #4): only the first 5 unread alerts were shown, but "Mark all read" marked every unread one,
  // including alerts the technician never saw.
  it('shows every unread alert, and "Mark all read" marks exactly the ones shown', async () => {
    const alerts = Array.from({ length: 7 }, (_, index) => alert(index + 1));
    const server = startAlertsServer([() => json(200, { alerts: [...alerts, alert(8, { isRead: true })], unreadCount: 7 })]);
    renderWithProviders(<SlaAlerts mspCustomDomain={MSP} />);
    const panel = await screen.findByRole('region', { name: 'SLA alerts' });
    const shown = within(panel).getAllByRole('button', { name: /^Mark the 90 % alert of ticket #\d+ read$/ });
    expect(shown.map((button) => button.getAttribute('aria-label'))).toEqual(alerts.map((each) => `Mark the 90 % alert of ticket #${each.ticketId} read`));
    expect(within(panel).getByText('SLA alerts (7)')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(server.reads).toEqual([alerts.map((each) => each.id)]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'SLA alerts' })).not.toBeInTheDocument());
  });

  // Regression (review s28, SLA panel): the panel counted only the unread alerts the list held and ignored the server's
  // unreadCount, so a technician whose newest 50 alerts were read saw no panel at all, though older ones were unread.
  it('shows the panel when the listed alerts are all read but the server counts unread ones, and says how many are not listed', async () => {
    const read = Array.from({ length: 50 }, (_, index) => alert(index + 1, { isRead: true }));
    startAlertsServer([() => json(200, { alerts: read, unreadCount: 3 })]);
    renderWithProviders(<SlaAlerts mspCustomDomain={MSP} />);
    const panel = await screen.findByRole('region', { name: 'SLA alerts' });
    expect(within(panel).getByText('SLA alerts (3)')).toBeInTheDocument();
    expect(within(panel).getByText(MESSAGES.queue.sla.showingUnread(0, 3))).toBeInTheDocument();
    expect(MESSAGES.queue.sla.showingUnread(0, 3)).toBe('Showing 0 of 3 unread alerts.');
    expect(within(panel).queryByRole('button', { name: /^Mark/ })).not.toBeInTheDocument();
  });

  it('says when more alerts are unread than listed, and after "Mark all read" of the shown ones lists the rest', async () => {
    const shown = Array.from({ length: 50 }, (_, index) => alert(index + 1));
    const rest = Array.from({ length: 13 }, (_, index) => alert(index + 51, { createdAt: '2026-11-29T07:00:00.000Z' }));
    const server = startAlertsServer([() => json(200, { alerts: shown, unreadCount: 63 })], (ids) => ({
      alerts: [...shown.map((each) => ({ ...each, isRead: each.isRead || ids.includes(each.id) })).slice(0, 37), ...rest],
      unreadCount: 13,
    }));
    renderWithProviders(<SlaAlerts mspCustomDomain={MSP} />);
    const panel = await screen.findByRole('region', { name: 'SLA alerts' });
    expect(within(panel).getByText('SLA alerts (63)')).toBeInTheDocument();
    expect(within(panel).getByText('Showing 50 of 63 unread alerts.')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(server.reads).toEqual([shown.map((each) => each.id)]));
    expect(await within(panel).findByText('SLA alerts (13)')).toBeInTheDocument();
    const listed = within(panel).getAllByRole('button', { name: /^Mark the 90 % alert of ticket #\d+ read$/ });
    expect(listed.map((button) => button.getAttribute('aria-label'))).toEqual(rest.map((each) => `Mark the 90 % alert of ticket #${each.ticketId} read`));
    expect(within(panel).queryByText(/^Showing \d+ of \d+ unread alert/)).not.toBeInTheDocument();
  });
});
