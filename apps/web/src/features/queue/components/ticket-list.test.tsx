import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Button } from '@mantine/core';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { formatWhen } from '../../../lib/format-when';
import { queueTicket } from '../test/fake-queue-server';
import { TicketList } from './ticket-list';

afterEach(() => vi.unstubAllGlobals());

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

/**
 * A ResizeObserver whose observed elements measure what the test says, when it says: `resizeTo(width)` reports every
 * element still observed at that width, as a browser does when the list's box changes (Jarvis opened or closed).
 */
function observeEveryElementOnResize() {
  const live = new Set<{ callback: ResizeObserverCallback; observer: ResizeObserver; targets: Element[] }>();
  class ResizableResizeObserver {
    private readonly entry: { callback: ResizeObserverCallback; observer: ResizeObserver; targets: Element[] };
    constructor(callback: ResizeObserverCallback) {
      this.entry = { callback, observer: this, targets: [] };
      live.add(this.entry);
    }
    observe(target: Element) {
      this.entry.targets.push(target);
    }
    unobserve(target: Element) {
      this.entry.targets = this.entry.targets.filter((observed) => observed !== target);
    }
    disconnect() {
      live.delete(this.entry);
    }
  }
  vi.stubGlobal('ResizeObserver', ResizableResizeObserver);
  return {
    resizeTo(width: number) {
      for (const { callback, observer, targets } of live) {
        const contentRect = { width, height: 400, x: 0, y: 0, top: 0, left: 0, right: width, bottom: 400, toJSON: () => ({}) };
        callback(targets.map((target) => ({ target, contentRect }) as unknown as ResizeObserverEntry), observer);
      }
    },
  };
}

const ticket = queueTicket(7, { createdAt: '2026-11-27T08:00:00.000Z' });

function renderRows() {
  renderWithProviders(
    <TicketList
      tickets={[ticket]}
      view="rows"
      label="All tickets"
      emptyText="No tickets match."
      actions={(shown) => <Button size="xs">Pick #{shown.ticketId}</Button>}
    />,
  );
}

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);

// Bug (visual review s28): beside an open Jarvis a 1440 px window leaves the list ~600 px, and the rows' table,
// at least 640 px wide, scrolled sideways inside its own box, hiding the actions.
describe('TicketList rows', () => {
  it('keeps every column where the list is wide: closing Jarvis brings the folded columns back', async () => {
    // Measured narrow first (an unmeasured list shows every column anyway, so that alone would prove nothing).
    const list = observeEveryElementOnResize();
    renderRows();
    await screen.findByRole('table', { name: 'All tickets' });
    list.resizeTo(600);
    await vi.waitFor(() => expect(headers()).toEqual(['Details', 'Ticket', 'Priority and state', 'Actions']));
    list.resizeTo(1000);
    await vi.waitFor(() => expect(headers()).toEqual(['Details', 'Ticket', 'Board · Type · Subtype', 'Priority and state', 'Created', 'Actions']));
  });

  it('beside Jarvis (a list ~600 px wide) folds the board and created columns into the ticket cell, keeping the actions', async () => {
    observeEveryElementAt(600);
    renderRows();
    const table = await screen.findByRole('table', { name: 'All tickets' });
    await vi.waitFor(() => expect(headers()).toEqual(['Details', 'Ticket', 'Priority and state', 'Actions']));
    const ticketCell = within(table).getByRole('rowheader');
    expect(ticketCell).toHaveTextContent('#1007 Printer 7 is offline');
    expect(ticketCell).toHaveTextContent(`Service Desk · Hardware · Printer · ${formatWhen(ticket.createdAt)}`);
    expect(within(table).getByRole('button', { name: 'Pick #1007' })).toBeVisible();
  });
});
