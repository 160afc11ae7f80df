import { useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGES, type TProgressiveClient, type TProgressiveContact, type TSaveSelectedResult } from '@switchboard/contracts';
import { ApiError, apiFetch, buildApiUrl, loadSchemas } from '../../../lib/api-client';

export type TImportKind = 'clients' | 'contacts';
export type TImportRow<K extends TImportKind> = K extends 'clients' ? TProgressiveClient : TProgressiveContact;

export interface TImportState<K extends TImportKind> {
  rows: TImportRow<K>[];
  importJobId: string | null;
  progressPercentage: number;
  currentPage: number;
  total: number | null;
  isLoading: boolean;
  /** The connection dropped before the server said the import was over; the hook is reconnecting with the job id. */
  isResuming: boolean;
  isComplete: boolean;
  /** The person pressed Cancel before the list was whole: `resume` carries on with the same import job. */
  isStopped: boolean;
  /**
   * Rows are held of a load that ended before the list was whole (stopped, a server `error` event, or reconnects that
   * gave up): `resume` carries on with the same job after the last row held (the server resumes a FAILED job too).
   */
  isResumable: boolean;
  /** Why loading ended early: the server's problem (with its code, e.g. psa_bad_keys) or the resume giving up. */
  error: ApiError | null;
}

const initial = <K extends TImportKind>(): TImportState<K> => ({ rows: [], importJobId: null, progressPercentage: 0, currentPage: 0, total: null, isLoading: false, isResuming: false, isComplete: false, isStopped: false, isResumable: false, error: null });

/** A problem the stream itself reports (no HTTP status: it arrived as an event, or the connection never came back). */
const streamProblem = (code: string, detail: string) => new ApiError({ status: 0, code, detail });

/**
 * The server's refusal of a stream request, read with a plain request to the same address: a 4xx problem (sign-in
 * needed, no permission, unknown import, PSA not connected). A stream that would start, a 5xx or no answer (a server
 * away) is no refusal: the caller resumes. A probe that started a stream is cancelled at once (the job ends CANCELLED).
 */
async function probeRefusal(url: string): Promise<ApiError | null> {
  const controller = new AbortController();
  try {
    const response = await fetch(url, { credentials: 'include', headers: { accept: 'application/json' }, signal: controller.signal });
    if (response.status < 400 || response.status >= 500) {
      controller.abort();
      return null;
    }
    const body = (await response.json().catch(() => null)) as { code?: unknown; detail?: unknown } | null;
    const detail = typeof body?.detail === 'string' ? body.detail : MESSAGES.imports.loadFailed;
    return new ApiError({ status: response.status, code: typeof body?.code === 'string' ? body.code : 'unknown', detail });
  } catch {
    return null;
  }
}

/** How long to wait before each reconnect after a dropped stream; past the last, loading stops with an error. */
export const RESUME_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000] as const;

/**
 * over EventSource (sent with credentials): started, progress, data chunks appended to the list, complete.
 * Only the server's `complete` (or its `error` event) ends the fetch; a connection that drops (a replica going away,
 * issue #11) reconnects with the job id, a few times with backoff, and rows already held are not added again.
 * Cancelling (A ours: …/cancel) marks the fetch complete (01 §4, §8); `resume` then continues the same job after the
 * last row held, so a stopped load need not start over.
 */
export function useProgressiveImport<K extends TImportKind>(mspCustomDomain: string, kind: K) {
  const [state, setState] = useState<TImportState<K>>(initial<K>());
  const sourceRef = useRef<EventSource | null>(null);
  const jobRef = useRef<string | null>(null);
  const retryTimerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** Ids of the rows held, so a resumed stream that repeats its last chunk adds nothing twice. */
  const seenRef = useRef<Set<number>>(new Set());
  /** The largest row id held: where a resumed stream carries on. */
  const lastIdRef = useRef(0);
  /** The cancel request still under way: a resume waits for it, or the late cancel would stop the resumed stream. */
  const cancellingRef = useRef<Promise<unknown> | null>(null);

  /** The connection whose refusal is being asked about (probeRefusal); cleared when anything else happens to the load. */
  const probingRef = useRef<EventSource | null>(null);

  const close = useCallback(() => {
    probingRef.current = null;
    if (retryTimerRef.current !== null) clearTimeout(retryTimerRef.current);
    retryTimerRef.current = null;
    sourceRef.current?.close();
    sourceRef.current = null;
  }, []);

  const open = useCallback(
    () => {
      // Named, so a reconnect can call it again from its timer.
      function connect(attempt: number) {
        // A resume names the job and the last row held (rows come in id order): the server carries on after it.
        const held = seenRef.current.size;
        const resume = jobRef.current && held > 0 ? { jobId: jobRef.current, afterId: lastIdRef.current, received: held } : { jobId: jobRef.current ?? undefined };
        const url = buildApiUrl(`/psa/psa/progressive/${kind}/fetchStream`, { mspCustomDomain, ...resume });
        const source = new EventSource(url, { withCredentials: true });
        sourceRef.current = source;
        let retries = attempt;
        /** Whether this connection got the server's `started`: an error before it may be a refusal rather than a drop. */
        let isStarted = false;
        const isCurrent = () => sourceRef.current === source;
        /** Whether the rows held can be carried on from (review s29: a failed load could only start over). */
        const hasRowsToResume = () => jobRef.current !== null && seenRef.current.size > 0;
        const finish = (error: ApiError | null = null, isResumable = false) => {
          close();
          setState((previous) => ({ ...previous, isLoading: false, isResuming: false, isComplete: true, isResumable, error: error ?? previous.error }));
        };
        /** The transport went away without the server's last word: try again with the job id, or give up with a message. */
        const handleDropped = () => {
          close();
          const delay = RESUME_DELAYS_MS[retries];
          if (delay === undefined) {
            const isResumable = hasRowsToResume();
            setState((previous) => ({ ...previous, isLoading: false, isResuming: false, isComplete: false, isResumable, error: streamProblem('import_resume_failed', MESSAGES.imports.resumeFailed) }));
            return;
          }
          setState((previous) => ({ ...previous, isResuming: true }));
          retryTimerRef.current = setTimeout(() => {
            retryTimerRef.current = null;
            connect(retries + 1);
          }, delay);
        };
        source.addEventListener('started', (event) => {
          if (!isCurrent()) return;
          isStarted = true;
          const data = JSON.parse((event as MessageEvent<string>).data) as { importJobId?: string };
          jobRef.current = data.importJobId ?? jobRef.current;
          setState((previous) => ({ ...previous, importJobId: jobRef.current, isResuming: false }));
        });
        // zod loads on first use (issue #6 §5); callbacks on one promise run in order, so progress stays in order.
        const schemas = loadSchemas();
        source.addEventListener('progress', (event) => {
          if (!isCurrent()) return;
          const raw: unknown = JSON.parse((event as MessageEvent<string>).data);
          void schemas.then((s) => {
            const parsed = s.ZImportProgress.safeParse(raw);
            if (!parsed.success) return;
            const { progressPercentage, currentPage, total } = parsed.data.progress;
            // A progress read that resolves after `complete` must not pull the bar back under 100.
            setState((previous) => (previous.isComplete ? previous : { ...previous, progressPercentage, currentPage, total }));
          });
        });
        source.addEventListener('data', (event) => {
          if (!isCurrent()) return;
          const chunk = JSON.parse((event as MessageEvent<string>).data) as TImportRow<K>[];
          const fresh = chunk.filter((row) => !seenRef.current.has(row.id));
          for (const row of fresh) {
            seenRef.current.add(row.id);
            lastIdRef.current = Math.max(lastIdRef.current, row.id);
          }
          // Rows arriving again means the stream works: a later drop gets the full set of retries.
          retries = 0;
          if (fresh.length > 0) setState((previous) => ({ ...previous, rows: previous.rows.concat(fresh) }));
        });
        source.addEventListener('error', (event) => {
          if (!isCurrent()) return;
          // A server `error` event carries a detail and ends the fetch; a transport error has none and is resumed.
          const raw = (event as MessageEvent<string | undefined>).data;
          if (raw) {
            const problem = JSON.parse(raw) as { code?: string; detail?: string };
            finish(streamProblem(problem.code ?? 'internal', problem.detail ?? MESSAGES.imports.loadFailed), hasRowsToResume());
          } else if (isStarted) handleDropped();
          else {
            // EventSource turns a refused request (401, 403, 404, 409 psa_not_configured) into this same bare error:
            // ask once what the server says, so the admin reads the reason instead of "resuming…" and a timeout.
            close();
            probingRef.current = source;
            void probeRefusal(url).then((refusal) => {
              // Cancelled, started again or unmounted meanwhile: the answer is no longer wanted.
              if (probingRef.current !== source) return;
              probingRef.current = null;
              if (refusal) finish(refusal);
              else handleDropped();
            });
          }
        });
        source.addEventListener('complete', () => {
          if (!isCurrent()) return;
          setState((previous) => ({ ...previous, progressPercentage: previous.error ? previous.progressPercentage : 100 }));
          finish();
        });
      }
      connect(0);
    },
    [close, kind, mspCustomDomain],
  );

  const start = useCallback(() => {
    close();
    jobRef.current = null;
    seenRef.current = new Set();
    lastIdRef.current = 0;
    setState({ ...initial<K>(), isLoading: true });
    open();
  }, [close, open]);

  /** cancelling marks the fetch complete; the server stops paging the PSA. Rows held stay, and can be resumed. */
  const cancel = useCallback(async () => {
    const jobId = jobRef.current;
    close();
    const isStopped = jobId !== null && seenRef.current.size > 0;
    setState((previous) => {
      const isPartial = isStopped && (previous.total === null || previous.rows.length < previous.total);
      return { ...previous, isLoading: false, isResuming: false, isComplete: true, isStopped: isPartial, isResumable: isPartial };
    });
    if (!jobId) return;
    const request = apiFetch(`/psa/psa/progressive/${kind}/cancel`, { method: 'POST', query: { mspCustomDomain, jobId } }).catch(() => undefined);
    cancellingRef.current = request;
    await request;
    if (cancellingRef.current === request) cancellingRef.current = null;
  }, [close, kind, mspCustomDomain]);

  /** Carries on a stopped or failed load: the same import job, from after the last row held; rows held are not added again. */
  const resume = useCallback(async () => {
    if (!jobRef.current || seenRef.current.size === 0) return start();
    setState((previous) => ({ ...previous, isLoading: true, isComplete: false, isStopped: false, isResumable: false, error: null }));
    await cancellingRef.current;
    open();
  }, [open, start]);

  /** after a save, the companies just saved show as saved, as a second load would show them. */
  const markSaved = useCallback((ids: ReadonlySet<number>) => {
    if (kind !== 'clients' || ids.size === 0) return;
    setState((previous) => ({ ...previous, rows: previous.rows.map((row) => (ids.has(row.id) ? { ...row, isAlreadySaved: true } : row)) }));
  }, [kind]);

  useEffect(() => close, [close]);
  return { state, start, cancel, resume, markSaved };
}

/** What a save did: rows written, and rows the server would not save with its reason (A-057: the company was not imported). */
export interface TSaveOutcome {
  saved: number;
  skipped: TSaveSelectedResult['skipped'];
}

/** a thousand rows at a time (the server's limit); returns how many were saved and which were skipped. */
export async function saveSelectedRows<K extends TImportKind>(mspCustomDomain: string, kind: K, rows: TImportRow<K>[], importJobId: string | null, onProgress?: (saved: number) => void): Promise<TSaveOutcome> {
  let saved = 0;
  const skipped: TSaveOutcome['skipped'] = [];
  for (let start = 0; start < rows.length; start += 1_000) {
    const batch = rows.slice(start, start + 1_000);
    const result =
      kind === 'clients'
        ? await apiFetch('/psa/psa/progressive/clients/save-selected', { method: 'POST', body: { mspCustomDomain, importJobId: importJobId ?? undefined, selectedClients: batch }, schema: (s) => s.ZSaveSelectedResult })
        : await apiFetch('/psa/psa/progressive/contacts/save-selected', { method: 'POST', query: { mspCustomDomain, jobId: importJobId ?? undefined }, body: batch, schema: (s) => s.ZSaveSelectedResult });
    saved += result.saved;
    skipped.push(...result.skipped);
    onProgress?.(saved);
  }
  return { saved, skipped };
}

/** "3 not saved: …" per reason, in plain words (the company reason says what to do in the wizard). */
export function describeSkipped(skipped: TSaveOutcome['skipped']): string {
  const byReason = new Map<string, number>();
  for (const row of skipped) byReason.set(row.reason, (byReason.get(row.reason) ?? 0) + 1);
  return [...byReason]
    .map(([reason, count]) =>
      reason === MESSAGES.imports.companyNotImported
        ? MESSAGES.imports.notSavedNoCompany.replace('{count}', count.toLocaleString())
        : MESSAGES.imports.notSavedOther.replace('{count}', count.toLocaleString()).replace('{reason}', reason),
    )
    .join(' ');
}
