import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TSessionMspUser } from '@switchboard/contracts';
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
