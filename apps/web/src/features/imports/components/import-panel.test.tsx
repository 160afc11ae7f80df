import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { MESSAGES } from '@switchboard/contracts';
import { renderWithProviders } from '../../../lib/render-with-providers';
import { RESUME_DELAYS_MS } from '../api/progressive-import';
import { ImportPanel } from './import-panel';

const JOB = '22222222-2222-4222-8222-222222222222';

/** The browser's EventSource, played by the test: each `new EventSource` is one connection the test drives. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  isClosed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.isClosed = true;
  }
  emit(type: string, payload?: unknown) {
    const event = new MessageEvent(type, payload === undefined ? {} : { data: JSON.stringify(payload) });
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) listener(event);
    });
  }
  /** The connection drops: EventSource reports an `error` without data. */
  drop() {
    this.emit('error');
  }
}

const contact = (id: number) => ({ id, companyId: 1, firstName: 'Person', lastName: `Number${id}`, email: null, phone: null, isActive: true });
const contacts = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => contact(from + index));

function renderPanel() {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers({ shouldAdvanceTime: true });
  renderWithProviders(<ImportPanel mspCustomDomain="northwind" kind="contacts" />);
  fireEvent.click(screen.getByRole('button', { name: 'Load contacts' }));
  const first = FakeEventSource.opened[0];
  if (!first) throw new Error('no stream was opened');
  return first;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ImportPanel progressive load (issue #11: a replica dies mid-import)', () => {
  it('a dropped stream shows "Connection lost — resuming…", reconnects with the job id and ends with each row once', async () => {
    const first = renderPanel();
    expect(first.url).not.toContain('jobId');
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('data', contacts(1, 3));
    first.drop();
    expect(first.isClosed).toBe(true);
    expect(await screen.findByText(MESSAGES.imports.resuming)).toBeTruthy();
    expect(screen.getByText(/^3 loaded/)).toBeTruthy();
    // Not complete: the load button still spins and Cancel is still offered.
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(RESUME_DELAYS_MS[0]);
    });
    const second = FakeEventSource.opened[1];
    expect(second?.url).toContain(`jobId=${JOB}&afterId=3&received=3`);
    second?.emit('started', { importJobId: JOB, kind: 'contacts' });
    // The other replica repeats row 3 (the last chunk's write was not known to have arrived) and carries on.
    second?.emit('data', contacts(3, 5));
    expect(screen.queryByText(MESSAGES.imports.resuming)).toBeNull();
    second?.emit('complete', { importJobId: JOB, fetched: 5, total: 5, status: 'COMPLETE' });

    expect(await screen.findByText(/^5 loaded/)).toBeTruthy();
    for (const id of [1, 2, 3, 4, 5]) expect(screen.getAllByText(`Person Number${id}`)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Load again' })).toBeTruthy();
  });

  it('gives up with a clear error after the retries, without calling the partial list complete', async () => {
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('data', contacts(1, 2));
    first.drop();
    for (const delay of RESUME_DELAYS_MS) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(delay);
      });
      const latest = FakeEventSource.opened.at(-1);
      expect(latest?.url).toContain(`jobId=${JOB}`);
      // A resume the server refuses (404 unknown job, or the proxy has no replica) fails the connection without data.
      latest?.drop();
    }
    expect(FakeEventSource.opened).toHaveLength(RESUME_DELAYS_MS.length + 1);
    expect(await screen.findByText(MESSAGES.imports.resumeFailed)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.imports.resuming)).toBeNull();
    expect(screen.getByText(/^2 loaded/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('a server error event ends the load with its detail and no reconnect', async () => {
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('error', { importJobId: JOB, detail: MESSAGES.imports.loadFailed });
    expect(await screen.findByText(MESSAGES.imports.loadFailed)).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RESUME_DELAYS_MS[0] * 4);
    });
    expect(FakeEventSource.opened).toHaveLength(1);
  });
});
