import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { MESSAGES, INTEGRATION_FORM_MESSAGES } from '@switchboard/contracts';
import { psaErrorMessage } from '../../msp-integrations/psa-error-message';
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

function renderPanel(props: Partial<Parameters<typeof ImportPanel>[0]> = {}) {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.useFakeTimers({ shouldAdvanceTime: true });
  renderWithProviders(<ImportPanel mspCustomDomain="northwind" kind="contacts" {...props} />);
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
    // Review s29, finding 3: the rows held can still be completed later, from where they stopped.
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(FakeEventSource.opened.at(-1)?.url).toContain(`jobId=${JOB}&afterId=2&received=2`);
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

// Review s29, finding 3: a load the server ended with an error could only start over; the server resumes a FAILED job.
describe('ImportPanel: a load that failed partway', () => {
  it('offers Resume beside the error, which carries on the same job after the last row held', async () => {
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('data', contacts(1, 4));
    first.emit('error', { importJobId: JOB, code: 'psa_unavailable', detail: MESSAGES.imports.loadFailed });
    expect(await screen.findByText(MESSAGES.imports.loadFailed)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    const second = FakeEventSource.opened[1];
    expect(second?.url).toContain(`/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=northwind&jobId=${JOB}&afterId=4&received=4`);
    expect(screen.queryByText(MESSAGES.imports.loadFailed)).toBeNull();
    second?.emit('started', { importJobId: JOB, kind: 'contacts' });
    second?.emit('data', contacts(5, 6));
    second?.emit('complete', { importJobId: JOB, fetched: 6, total: 6, status: 'COMPLETE' });
    expect(await screen.findByText(/^6 loaded/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('an error before any row arrived offers no Resume', async () => {
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('error', { importJobId: JOB, code: 'psa_unavailable', detail: MESSAGES.imports.loadFailed });
    expect(await screen.findByText(MESSAGES.imports.loadFailed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });
});

// R-365 (review s29, finding 1): a second load said nothing of which companies were already saved.
describe('ImportPanel: companies saved before', () => {
  const client = (id: number, isAlreadySaved: boolean, isActive = true) => ({ id, name: `Client ${id}`, identifier: null, isActive, isAlreadySaved });

  it('marks them "Saved", and "Select new only" selects only the others that are active in the PSA', async () => {
    const bodies: Array<{ selectedClients: Array<{ id: number }> }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as { selectedClients: Array<{ id: number }> };
        bodies.push(body);
        const saved = body.selectedClients.length;
        return new Response(JSON.stringify({ saved, created: saved, updated: 0, skipped: [], jobSaved: null }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    renderWithProviders(<ImportPanel mspCustomDomain="northwind" kind="clients" />);
    fireEvent.click(screen.getByRole('button', { name: 'Load clients' }));
    const first = FakeEventSource.opened[0];
    first?.emit('started', { importJobId: JOB, kind: 'clients' });
    // Client 6 was deleted in the PSA and never saved: listed as inactive, never picked as new (review s29).
    first?.emit('data', [client(1, true), client(2, false), client(3, true), client(4, false), client(5, false), client(6, false, false)]);
    first?.emit('complete', { importJobId: JOB, fetched: 6, total: 6, status: 'COMPLETE' });
    const rowOf = (name: string) => screen.getByText(name).closest('tr');
    expect(await screen.findByText('Client 1')).toBeTruthy();
    expect(rowOf('Client 1')).toHaveTextContent('Saved');
    expect(rowOf('Client 3')).toHaveTextContent('Saved');
    expect(rowOf('Client 2')).not.toHaveTextContent('Saved');
    expect(rowOf('Client 6')).toHaveTextContent('Inactive');
    expect(rowOf('Client 2')).not.toHaveTextContent('Inactive');
    fireEvent.click(screen.getByRole('button', { name: 'Select new only' }));
    expect(screen.getByRole('checkbox', { name: 'Select Client 6' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Client 2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select Client 1' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('button', { name: 'Save 3 selected' }));
    expect(await screen.findByText('3 saved.')).toBeTruthy();
    expect(bodies[0]?.selectedClients.map((row) => row.id)).toEqual([2, 4, 5]);
  });
});

describe('ImportPanel cancel and resume (issue #7: Cancel used to leave only "Load again", which started over)', () => {
  /** The cancel call (ours, …/cancel), answered when the test says so. */
  function stubCancel() {
    const calls: string[] = [];
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string | URL) => {
        calls.push(input.toString());
        await answered;
        return new Response(JSON.stringify({ importJobId: JOB, status: 'CANCELLED' }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    return { calls, answer };
  }

  it('after Cancel says where it stopped, and Resume carries on the same job after the last row held, each row once', async () => {
    const cancelCall = stubCancel();
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('progress', { importJobId: JOB, progress: { progressPercentage: 50, currentPage: 1, fetched: 3, total: 6 } });
    first.emit('data', contacts(1, 3));
    expect(await screen.findByText(/^3 loaded of 6/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(first.isClosed).toBe(true);
    expect(await screen.findByText('Stopped at 3 of 6. Resume to load the rest.')).toBeTruthy();
    expect(cancelCall.calls[0]).toContain(`/psa/psa/progressive/contacts/cancel?mspCustomDomain=northwind&jobId=${JOB}`);
    // Both ways on: carry on, or start over.
    expect(screen.getByRole('button', { name: 'Load again' })).toBeTruthy();

    // Resume waits for the cancel to land: a cancel arriving after the resumed stream began would stop it.
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(FakeEventSource.opened).toHaveLength(1);
    await act(async () => {
      cancelCall.answer();
      await vi.advanceTimersByTimeAsync(0);
    });
    const second = FakeEventSource.opened[1];
    expect(second?.url).toContain(`jobId=${JOB}&afterId=3&received=3`);
    expect(screen.queryByText(/Stopped at/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();

    second?.emit('started', { importJobId: JOB, kind: 'contacts' });
    second?.emit('data', contacts(3, 6));
    second?.emit('complete', { importJobId: JOB, fetched: 6, total: 6, status: 'COMPLETE' });
    expect(await screen.findByText(/^6 loaded of 6/)).toBeTruthy();
    for (const id of [1, 2, 3, 4, 5, 6]) expect(screen.getAllByText(`Person Number${id}`)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.queryByText(/Stopped at/)).toBeNull();
  });

  it('Load again after a stop starts a new import from the first row', async () => {
    const cancelCall = stubCancel();
    cancelCall.answer();
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('data', contacts(1, 2));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Stopped at 2. Resume to load the rest.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load again' }));
    const fresh = FakeEventSource.opened[1];
    expect(fresh?.url).not.toContain('jobId');
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('a stop with nothing held offers no Resume', async () => {
    stubCancel().answer();
    const first = renderPanel();
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    expect(screen.queryByText(/Stopped at/)).toBeNull();
  });
});

describe('ImportPanel errors in plain words (wizard steps 4 and 5)', () => {
  it('refused keys are explained as the other wizard steps do, not "Check them under Integrations"', async () => {
    const first = renderPanel({ describeError: (error) => psaErrorMessage(error, 'wizard') });
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('error', { importJobId: JOB, code: 'psa_bad_keys', detail: `${MESSAGES.psa.badKeys} (ConnectWise rejected the API keys.)` });
    expect(await screen.findByText(`ConnectWise rejected the API keys. ${INTEGRATION_FORM_MESSAGES.badKeysInWizard}`)).toBeTruthy();
    expect(screen.queryByText(/under Integrations/)).toBeNull();
  });
});

// Review finding 3 (regression): the server's `skipped` never reached the screen, which said only "{count} saved.".
describe('ImportPanel save: contacts not saved are counted and explained', () => {
  it('says how many were saved and how many were not, and why, in plain words', async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const rows = JSON.parse(typeof init.body === 'string' ? init.body : '[]') as Array<{ id: number }>;
        bodies.push(rows);
        const skipped = rows.filter((row) => row.id > 2).map((row) => ({ id: row.id, reason: MESSAGES.imports.companyNotImported }));
        return new Response(JSON.stringify({ saved: rows.length - skipped.length, created: rows.length - skipped.length, updated: 0, skipped, jobSaved: null }), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const onSaved = vi.fn();
    const first = renderPanel({ onSaved });
    first.emit('started', { importJobId: JOB, kind: 'contacts' });
    first.emit('data', contacts(1, 5));
    first.emit('complete', { importJobId: JOB, fetched: 5, total: 5, status: 'COMPLETE' });
    fireEvent.click(await screen.findByRole('button', { name: 'Select all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save 5 selected' }));
    expect(await screen.findByText('2 saved.')).toBeTruthy();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.imports.notSavedNoCompany.replace('{count}', '3'));
    expect(onSaved).toHaveBeenCalledWith(2, 3);
  });
});

// Review finding 5 (regression): a stream the server refused before it started (401/403/404/409) reached EventSource as
// a bare error, so the panel said "Connection lost — resuming…" for ~15 s and then resumeFailed, hiding the reason.
describe('ImportPanel: a stream refused before it starts', () => {
  function stubProbe(status: number, problem: Record<string, unknown>) {
    const probes: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        probes.push(url);
        return new Response(JSON.stringify({ status, title: 'Refused', ...problem }), { status, headers: { 'content-type': 'application/problem+json' } });
      }),
    );
    return probes;
  }

  it('asks once why and shows the problem (PSA not connected) instead of resuming', async () => {
    const probes = stubProbe(409, { detail: MESSAGES.psa.notConfigured, code: 'psa_not_configured' });
    const first = renderPanel();
    first.drop();
    expect(await screen.findByText(MESSAGES.psa.notConfigured)).toBeTruthy();
    expect(probes).toHaveLength(1);
    expect(probes[0]).toContain('/psa/psa/progressive/contacts/fetchStream?mspCustomDomain=northwind');
    expect(screen.queryByText(MESSAGES.imports.resuming)).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RESUME_DELAYS_MS[0] * 4);
    });
    expect(FakeEventSource.opened).toHaveLength(1);
    expect(screen.queryByText(MESSAGES.imports.resumeFailed)).toBeNull();
    expect(screen.getByRole('button', { name: 'Load contacts' })).toBeEnabled();
  });

  it('a server that is only away (503) is resumed as before', async () => {
    stubProbe(503, { detail: 'Service Unavailable', code: 'internal' });
    const first = renderPanel();
    first.drop();
    expect(await screen.findByText(MESSAGES.imports.resuming)).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RESUME_DELAYS_MS[0]);
    });
    expect(FakeEventSource.opened).toHaveLength(2);
  });
});
