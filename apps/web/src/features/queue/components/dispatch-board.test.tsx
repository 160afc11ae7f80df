import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DISPATCH_PATHS, MESSAGES, type TDispatchBoard, type TDispatchTechnician } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { badgeContrast } from '../../../test/contrast';
import { MSP, TECH_ID, queueTicket } from '../test/fake-queue-server';
import { DispatchBoard } from './dispatch-board';

afterEach(() => vi.unstubAllGlobals());

const LEAVER_ID = '00000000-0000-4000-8000-00000000aa02';
const claimed = queueTicket(1, { state: 'claimed', assignedTechId: TECH_ID, assignedTechName: 'Jane Doe', claimedAt: '2026-11-27T08:00:00.000Z' });
const reserved = queueTicket(2, { state: 'queued', assignedTechId: TECH_ID, assignedTechName: 'Jane Doe' });
const board: TDispatchBoard = {
  technicians: [{ id: TECH_ID, name: 'Jane Doe', email: 'jane@example.com', tierLevel: 'Tier1', isActive: true, claimedCount: 1, workingCount: 0, runningTicketId: null, tickets: [claimed, reserved] }],
  unassigned: [queueTicket(3)],
  unassignedTotal: 1,
};

/** The board API, whose unassign answers only when the test releases it (a slow server). */
function startBoardServer(answer: TDispatchBoard = board) {
  const posts: unknown[] = [];
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (path === DISPATCH_PATHS.board) return json(200, answer);
      // An assignment to a technician who is signed out comes back reserved for them (queued, theirs).
      if (path === DISPATCH_PATHS.assign && init.method === 'POST') return json(200, { ticket: { ...queueTicket(3), state: 'queued', assignedTechId: TECH_ID, assignedTechName: 'Jane Doe' } });
      if (path === DISPATCH_PATHS.unassign && init.method === 'POST') {
        posts.push(typeof init.body === 'string' ? JSON.parse(init.body) : init.body);
        const isFirst = posts.length === 1;
        await answered;
        // As the server answers: the first unassign succeeds, a second finds the ticket no longer assigned.
        return isFirst
          ? json(200, { ticket: { ...claimed, state: 'queued', assignedTechId: null, assignedTechName: null, claimedAt: null } })
          : json(409, { type: 'about:blank', title: 'Conflict', status: 409, detail: MESSAGES.queue.dispatch.notAssigned, code: 'conflict', requestId: 'r' });
      }
      return json(404, { type: 'about:blank', title: 'Not found', status: 404, detail: `No fake for ${path}`, code: 'not_found', requestId: 'r' });
    }),
  );
  return { posts, release: () => release() };
}

describe('DispatchBoard', () => {
  // Regression (code review): Unassign had no pending state, so a double click sent two POSTs and a red 409 notice
  // followed the green one.
  it('sends one unassign for a double click while the first is on its way, and shows only the success', { timeout: 20_000 }, async () => {
    const server = startBoardServer();
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const button = await screen.findByRole('button', { name: 'Unassign ticket #1001' });
    await userEvent.dblClick(button);
    await userEvent.click(button);
    await waitFor(() => expect(server.posts).not.toHaveLength(0));
    expect(server.posts).toEqual([{ id: claimed.id }]);
    expect(button).toBeDisabled();

    server.release();
    expect(await screen.findByText(MESSAGES.queue.dispatch.unassigned)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Unassign ticket #1001' })).toBeEnabled());
    expect(server.posts).toHaveLength(1);
    expect(screen.queryByText('Not changed')).not.toBeInTheDocument();
  });

  it('marks a ticket reserved for a technician (queued, theirs) as reserved and counts it, with an Unassign like the others', { timeout: 20_000 }, async () => {
    startBoardServer();
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const card = await screen.findByRole('region', { name: 'Technician Jane Doe' });
    expect(within(card).getByText('1 claimed · 0 in progress · 1 reserved')).toBeInTheDocument();
    const lines = within(card).getAllByRole('listitem');
    expect(lines.map((line) => within(line).queryByText('Reserved') !== null)).toEqual([false, true]);
    expect(within(lines[1] as HTMLElement).getByRole('button', { name: 'Unassign ticket #1002' })).toBeEnabled();
  });

  // Regression: a reservation for a signed-out technician was announced as "Ticket assigned", as if they had it now.
  it('says a ticket given to a signed-out technician is reserved for them, not assigned', { timeout: 20_000 }, async () => {
    startBoardServer();
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Assign ticket #1003' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /^Jane Doe/ }));
    expect(await screen.findByText(MESSAGES.queue.dispatch.reserved)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.queue.dispatch.reservedFor(1003, 'Jane Doe'))).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.queue.dispatch.assigned)).not.toBeInTheDocument();
  });

  // Regression: the Assign menu listed a technician deactivated while holding tickets (kept on the board so their
  // tickets can be unassigned), and choosing them was refused with a 409.
  it('keeps a deactivated technician and their ticket on the board, but offers only active technicians in the Assign menu', { timeout: 20_000 }, async () => {
    const leaverTicket = queueTicket(4, { state: 'working', assignedTechId: LEAVER_ID, assignedTechName: 'Sam Leaver', claimedAt: '2026-11-27T08:00:00.000Z' });
    const leaver: TDispatchTechnician = { id: LEAVER_ID, name: 'Sam Leaver', email: 'sam@example.com', tierLevel: 'Tier1', isActive: false, claimedCount: 0, workingCount: 1, runningTicketId: null, tickets: [leaverTicket] };
    startBoardServer({ ...board, technicians: [...board.technicians, leaver] });
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const card = await screen.findByRole('region', { name: 'Technician Sam Leaver' });
    expect(within(card).getByRole('button', { name: 'Unassign ticket #1004' })).toBeEnabled();

    await userEvent.click(screen.getByRole('button', { name: 'Assign ticket #1003' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Jane Doe · 2 open']);
    // Said on their card, so the dispatcher knows why the menu leaves them out.
    expect(within(card).getByText('Deactivated')).toBeInTheDocument();
  });
});

// Regression (visual review s27): a fresh ticket's badge read "SLA 2 %" in green, which reads as 2 % left.
describe('DispatchBoard — SLA badges', () => {
  it('say how much of the SLA is used, in the words of the SLA alerts', { timeout: 20_000 }, async () => {
    const hour = 3_600_000;
    const fresh = queueTicket(3, { createdAt: new Date(Date.now() - hour).toISOString(), slaDueAt: new Date(Date.now() + 49 * hour).toISOString() });
    const late = queueTicket(4, { createdAt: new Date(Date.now() - 2 * hour).toISOString(), slaDueAt: new Date(Date.now() - hour).toISOString() });
    // Created three days ago, reopened in the PSA 2 hours ago: its 8-hour SLA restarted then (review s29).
    const reopened = queueTicket(5, { createdAt: new Date(Date.now() - 72 * hour).toISOString(), slaStartedAt: new Date(Date.now() - 2 * hour).toISOString(), slaDueAt: new Date(Date.now() + 6 * hour).toISOString() });
    startBoardServer({ ...board, unassigned: [fresh, late, reopened], unassignedTotal: 3 });
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    expect(await screen.findByText('2 % of SLA used')).toBeInTheDocument();
    expect(screen.getByText('25 % of SLA used')).toBeInTheDocument();
    expect(screen.getAllByText('SLA breached')).toHaveLength(1);
    expect(screen.queryByText(/^SLA \d+ %$/)).not.toBeInTheDocument();
  });
});

// Bug (visual review s28): the unassigned ticket cards stretched to the tallest card of their row, so a one-line
// ticket beside a long title was a tall, mostly empty box. Each keeps its content's height (the layout itself is
// measured in the dispatch journey; jsdom lays nothing out).
describe('DispatchBoard — card heights', () => {
  it('lets every unassigned ticket card and technician card keep its own height in the grid', { timeout: 20_000 }, async () => {
    startBoardServer({ ...board, unassigned: [queueTicket(3), queueTicket(5, { title: 'A much longer title that wraps onto a second and a third line of the card' })], unassignedTotal: 2 });
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const unassigned = await screen.findByRole('region', { name: /^Unassigned/ });
    const grid = within(unassigned).getByRole('list');
    expect(grid).toHaveStyle({ alignItems: 'start' });
    const technicians = screen.getByRole('region', { name: 'Technicians' });
    const technicianGrid = within(technicians).getByRole('region', { name: 'Technician Jane Doe' }).parentElement;
    expect(technicianGrid).toHaveStyle({ alignItems: 'start' });
  });
});

// Bugs (axe sweep s28): Dispatch showed every priority as the same grey outline badge (All Tickets colours them), the
// grey outline tier badge was 3.32:1 on white and the teal "% of SLA used" 4.32:1 on its tint (WCAG 1.4.3 asks 4.5:1).
describe('DispatchBoard — badges', () => {
  const hour = 3_600_000;
  const medium = queueTicket(3, { priority: 'Priority 3 - Medium', createdAt: new Date(Date.now() - hour).toISOString(), slaDueAt: new Date(Date.now() + 49 * hour).toISOString() });
  const high = queueTicket(5, { priority: 'Priority 2 - High' });

  it('colours each priority as All Tickets does', { timeout: 20_000 }, async () => {
    startBoardServer({ ...board, unassigned: [medium, high], unassignedTotal: 2 });
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const unassigned = await screen.findByRole('region', { name: /^Unassigned/ });
    const mediumBadge = (await within(unassigned).findByText('Priority 3 - Medium')).closest('.mantine-Badge-root');
    const highBadge = within(unassigned).getByText('Priority 2 - High').closest('.mantine-Badge-root');
    expect(mediumBadge).toHaveAttribute('data-variant', 'light');
    expect(highBadge).toHaveAttribute('data-variant', 'light');
    expect((mediumBadge as HTMLElement).style.getPropertyValue('--badge-bg')).not.toBe((highBadge as HTMLElement).style.getPropertyValue('--badge-bg'));
  });

  it('reads at 4.5:1 or more, every one of them', { timeout: 20_000 }, async () => {
    startBoardServer({ ...board, unassigned: [medium, high], unassignedTotal: 2 });
    const { container } = renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    await screen.findByText('2 % of SLA used');
    const badges = [...container.ownerDocument.querySelectorAll<HTMLElement>('.mantine-Badge-root')];
    expect(badges.length).toBeGreaterThanOrEqual(8);
    const unreadable = badges.map((badge) => ({ label: badge.textContent, ...badgeContrast(badge) })).filter((badge) => badge.ratio < 4.5);
    expect(unreadable).toEqual([]);
  });
});

// Bug (axe sweep s28): on a phone the Technicians came after every unassigned card, 7,800 px down.
describe('DispatchBoard — order', () => {
  it('shows who is free (Technicians) before the unassigned queue', { timeout: 20_000 }, async () => {
    startBoardServer({ ...board, unassigned: Array.from({ length: 12 }, (_, index) => queueTicket(10 + index)), unassignedTotal: 12 });
    renderWithProviders(<DispatchBoard mspCustomDomain={MSP} />);
    const unassigned = await screen.findByRole('region', { name: /^Unassigned/ });
    const technicians = screen.getByRole('region', { name: 'Technicians' });
    expect(technicians.compareDocumentPosition(unassigned) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
