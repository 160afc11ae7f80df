import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, type TSessionMspUser, type TSupportTicket, type TSupportTicketPage } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { resetAllStores } from '../../../lib/store-reset';
import { buildAdminTechnician } from '../../../test/build-session-user';
import { JarvisAside } from '../../assistant/components/jarvis-aside';
import { useAssistantUiStore } from '../../assistant/state/assistant-ui-store';
import { useTicketFlow } from '../../assistant/state/use-ticket-flow';
import { CONFIGURATION, MSP, stubFetch, ticketDraft } from '../../assistant/test/assistant-fixtures';
import { ClientTicketArea } from './client-ticket-area';

const CLIENT: TSessionMspUser = buildAdminTechnician({ userKind: 'client', firstName: 'Casey', lastName: 'Client', psaCompanyId: '19', psaContactId: '501', roleName: 'Client' });

/** The client's dashboard in small: the ticket area beside Jarvis, as the shell lays them out on a wide screen. */
function Harness() {
  const flow = useTicketFlow(CLIENT);
  return (
    <>
      <div data-testid="ticket-area">
        <ClientTicketArea user={CLIENT} flow={flow} showDraft onOpenAssistant={() => undefined} />
      </div>
      <aside data-testid="jarvis">
        <JarvisAside user={CLIENT} flow={flow} isMobile={false} psaType="CONNECTWISE" />
      </aside>
    </>
  );
}

/** A ResizeObserver that reports every observed element at `width` px (the page's own stub never reports). */
function observeEveryElementAt(width: number) {
  class MeasuringResizeObserver {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      const contentRect = { width, height: 400, x: 0, y: 0, top: 0, left: 0, right: width, bottom: 400, toJSON: () => ({}) };
      queueMicrotask(() => this.callback([{ target, contentRect } as unknown as ResizeObserverEntry], this));
    }
    unobserve() {}
    disconnect() {}
  }
  vi.stubGlobal('ResizeObserver', MeasuringResizeObserver);
}

beforeEach(() => {
  stubFetch({
    [`GET /db/${MSP}/getPSATicketingConfiguration`]: () => ({ status: 200, body: CONFIGURATION }),
    'GET /db/supportTickets/byClientsUserId': () => ({ status: 200, body: { tickets: [], page: 1, pageSize: 30, total: 0 } }),
    'POST /psa/getTicketCategorizationDiagnosticQandA': () => ({ status: 200, body: { ticketDraft: ticketDraft() } }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetAllStores();
});

// Regression (review s25 #4): at 1024–1092 px the navigation and Jarvis left the ticket area 0 px wide; the area
// read 0 as "not measured yet, roomy", so the ticket form was drawn there, out of sight, and not in the chat.
describe('a client ticket area measured at 0 px', () => {
  it('is not roomy: the ticket form shows in the chat and the area says so', { timeout: 20_000 }, async () => {
    observeEveryElementAt(0);
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await waitFor(() => expect(useAssistantUiStore.getState().isTicketAreaRoomy).toBe(false));
    await user.type(screen.getByRole('textbox', { name: 'Message to Jarvis' }), 'Outlook keeps asking for my password{Enter}');
    expect(await within(screen.getByTestId('jarvis')).findByLabelText('Board')).toHaveValue('1');
    expect(within(screen.getByTestId('ticket-area')).queryByLabelText('Board')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('ticket-area')).getByText('Your ticket is being prepared in the chat.')).toBeInTheDocument();
  });

  it('a wide measured area keeps the form beside the chat', { timeout: 20_000 }, async () => {
    observeEveryElementAt(700);
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.type(screen.getByRole('textbox', { name: 'Message to Jarvis' }), 'Outlook keeps asking for my password{Enter}');
    expect(await within(screen.getByTestId('ticket-area')).findByLabelText('Board')).toHaveValue('1');
    expect(within(screen.getByTestId('jarvis')).queryByLabelText('Board')).not.toBeInTheDocument();
    expect(useAssistantUiStore.getState().isTicketAreaRoomy).toBe(true);
  });
});

/** The ticket area alone, with the real ticket flow (its mode starts on "My Ticket"). */
function AreaOnly() {
  const flow = useTicketFlow(CLIENT);
  return <ClientTicketArea user={CLIENT} flow={flow} showDraft onOpenAssistant={() => undefined} />;
}

function supportTicket(number: number, overrides: Partial<TSupportTicket> = {}): TSupportTicket {
  return {
    id: `t${number}`, ticketId: number, ticketNumber: String(number), title: `Ticket title ${number}`, description: null, boardId: 1, boardName: 'Service Desk',
    categoryId: null, categoryName: null, subCategoryId: null, subCategoryName: null, priority: null, priorityId: null, status: 'New',
    companyId: null, companyName: null, contactId: null, contactName: null, ownerName: null, isClosed: false, createdAt: '2026-11-20T10:00:00.000Z',
    psaWriteState: 'done', progress: { ticketCreated: 'done', ticketAssigned: 'pending', ticketClosed: 'pending' },
    ...overrides,
  };
}

const UNAVAILABLE = { status: 503, body: { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The service is unavailable. Try again in a moment.', code: 'unavailable', requestId: 'r' } };

/** Serves the client's list from `answer` (a page, or an error), and the configuration the ticket flow reads. */
function serveTickets(answer: (page: number) => { status: number; body: unknown }) {
  return stubFetch({
    [`GET /db/${MSP}/getPSATicketingConfiguration`]: () => ({ status: 200, body: CONFIGURATION }),
    'GET /db/supportTickets/byClientsUserId': (call) => answer(Number(new URL(call.url, 'http://localhost').searchParams.get('page') ?? '1')),
  });
}

const pageOf = (tickets: TSupportTicket[], page = 1, total = tickets.length): { status: number; body: TSupportTicketPage } => ({ status: 200, body: { tickets, page, pageSize: 30, total } });

async function openAllTickets() {
  const user = userEvent.setup();
  const rendered = renderWithProviders(<AreaOnly />);
  await user.click(screen.getByRole('radio', { name: 'All Tickets' }));
  return { user, ...rendered };
}

// Regression (review s26 #3): one failed poll replaced a loaded list with a lone red alert, the alert had no way to
// try again, and after a failed first load the list was never read again.
describe("a client's ticket list when a read fails", () => {
  it('keeps the loaded tickets with a short note when a refresh fails, and drops the note once a refresh works', { timeout: 20_000 }, async () => {
    let isDown = false;
    serveTickets(() => (isDown ? UNAVAILABLE : pageOf([supportTicket(1)])));
    const { queryClient } = await openAllTickets();
    expect(await screen.findByText('Ticket title 1')).toBeInTheDocument();
    isDown = true;
    await queryClient.refetchQueries();
    expect(await screen.findByText(/could not be refreshed/)).toBeInTheDocument();
    expect(screen.getByText('Ticket title 1')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    isDown = false;
    await queryClient.refetchQueries();
    await waitFor(() => expect(screen.queryByText(/could not be refreshed/)).not.toBeInTheDocument());
    expect(screen.getByText('Ticket title 1')).toBeInTheDocument();
  });

  it('offers "Try again" when the first read fails, and shows the tickets once it works', { timeout: 20_000 }, async () => {
    let isDown = true;
    serveTickets(() => (isDown ? UNAVAILABLE : pageOf([supportTicket(2)])));
    const { user } = await openAllTickets();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(UNAVAILABLE.body.detail);
    isDown = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Ticket title 2')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

// Regression (review s26 #4): on page 2, when the total dropped to 30 or fewer, the list said "30 tickets" and showed
// no tickets and no pages to go back to.
describe("a client's ticket list whose last page goes away", () => {
  it('goes back to the last page there is', { timeout: 20_000 }, async () => {
    let total = 31;
    const firstPage = Array.from({ length: 30 }, (_, index) => supportTicket(index + 1));
    serveTickets((page) => (page === 1 ? pageOf(firstPage, 1, total) : pageOf(total > 30 ? [supportTicket(99)] : [], page, total)));
    const { user, queryClient } = await openAllTickets();
    await screen.findByText('31 tickets');
    await user.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('Ticket title 99')).toBeInTheDocument();
    total = 30;
    await queryClient.refetchQueries();
    expect(await screen.findByText('Ticket title 1')).toBeInTheDocument();
    expect(screen.getByText('30 tickets')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Your tickets' })).getAllByRole('article')).toHaveLength(30);
  });
});

// Regression (review s26 #2): "My Ticket" showed the first row of the list as the latest ticket, and a refusal two
// months old was always first.
describe('"My Ticket"', () => {
  it('shows the ticket opened last as "Your latest ticket"', { timeout: 20_000 }, async () => {
    const refused = supportTicket(0, { id: 'r1', ticketId: null, ticketNumber: null, title: 'Refused two months ago', status: MESSAGES.assistant.refusedInPsa, psaWriteState: 'failed', createdAt: '2026-09-29T10:00:00.000Z' });
    serveTickets(() => pageOf([refused, supportTicket(7, { title: 'Opened yesterday', createdAt: '2026-11-28T10:00:00.000Z' })]));
    renderWithProviders(<AreaOnly />);
    expect(await screen.findByRole('article', { name: 'Ticket 7: Opened yesterday' })).toBeInTheDocument();
    expect(screen.queryByText('Refused two months ago')).not.toBeInTheDocument();
  });
});

// Review s29 #2: the client's "All Tickets" had no filters or sort (02 §3 Filters, R-285–R-287).
describe("a client's All Tickets filters", () => {
  it('start on All … and Newest; choosing a priority closes the menu and reads page 1 with priorityId', { timeout: 20_000 }, async () => {
    const [serviceDesk, ...otherBoards] = CONFIGURATION.connectWiseConfig?.boardDetails ?? [];
    if (!serviceDesk) throw new Error('fixture has no board');
    const withPriority = { ...CONFIGURATION, connectWiseConfig: { ...CONFIGURATION.connectWiseConfig, boardDetails: [{ ...serviceDesk, priorities: [{ priorityId: 3, priority: 'Priority 3 - Medium', priorityScore: 3 }] }, ...otherBoards] } };
    const calls = stubFetch({
      [`GET /db/${MSP}/getPSATicketingConfiguration`]: () => ({ status: 200, body: withPriority }),
      'GET /db/supportTickets/byClientsUserId': () => pageOf([supportTicket(1)], 2, 31),
    });
    const queryOfLastList = () => new URL(calls.filter((call) => call.url.startsWith('/db/supportTickets/byClientsUserId')).at(-1)?.url ?? '', 'http://localhost').searchParams;
    const { user } = await openAllTickets();
    await screen.findByText('31 tickets');
    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(queryOfLastList().get('page')).toBe('2'));
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveValue('newest');

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const menu = await screen.findByRole('group', { name: 'Ticket filters' });
    expect(within(menu).getByLabelText('Board')).toHaveDisplayValue('All Boards');
    expect(within(menu).getByLabelText('Priority')).toHaveDisplayValue('All Priorities');
    await user.selectOptions(within(menu).getByLabelText('Priority'), 'Priority 3 - Medium');

    await waitFor(() => expect(queryOfLastList().get('priorityId')).toBe('3'));
    expect(queryOfLastList().get('page')).toBe('1');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Ticket filters' })).not.toBeInTheDocument());
  });
});
