import { useCallback, useEffect, useRef, useState } from 'react';
import type { TProgressiveClient, TProgressiveContact } from '@switchboard/contracts';
import { apiFetch, buildApiUrl, loadSchemas } from '../../../lib/api-client';

export type TImportKind = 'clients' | 'contacts';
export type TImportRow<K extends TImportKind> = K extends 'clients' ? TProgressiveClient : TProgressiveContact;

export interface TImportState<K extends TImportKind> {
  rows: TImportRow<K>[];
  importJobId: string | null;
  progressPercentage: number;
  currentPage: number;
  total: number | null;
  isLoading: boolean;
  isComplete: boolean;
  error: string | null;
}

const initial = <K extends TImportKind>(): TImportState<K> => ({ rows: [], importJobId: null, progressPercentage: 0, currentPage: 0, total: null, isLoading: false, isComplete: false, error: null });

/**
 * over EventSource (sent with credentials): started, progress, data chunks appended to the list, complete.
 * Cancelling (A ours: …/cancel) or a stream that closes for good marks the fetch complete (01 §4, §8).
 */
export function useProgressiveImport<K extends TImportKind>(mspCustomDomain: string, kind: K) {
  const [state, setState] = useState<TImportState<K>>(initial<K>());
  const sourceRef = useRef<EventSource | null>(null);
  const jobRef = useRef<string | null>(null);

  const close = useCallback(() => {
    sourceRef.current?.close();
    sourceRef.current = null;
  }, []);

  const start = useCallback(() => {
    close();
    jobRef.current = null;
    setState({ ...initial<K>(), isLoading: true });
    const source = new EventSource(buildApiUrl(`/psa/psa/progressive/${kind}/fetchStream`, { mspCustomDomain }), { withCredentials: true });
    sourceRef.current = source;
    const finish = (error: string | null = null) => {
      close();
      setState((previous) => ({ ...previous, isLoading: false, isComplete: true, error: error ?? previous.error }));
    };
    source.addEventListener('started', (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as { importJobId?: string };
      jobRef.current = data.importJobId ?? null;
      setState((previous) => ({ ...previous, importJobId: data.importJobId ?? null }));
    });
    // zod loads on first use (issue #6 §5); callbacks on one promise run in order, so progress stays in order.
    const schemas = loadSchemas();
    source.addEventListener('progress', (event) => {
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
      const chunk = JSON.parse((event as MessageEvent<string>).data) as TImportRow<K>[];
      setState((previous) => ({ ...previous, rows: previous.rows.concat(chunk) }));
    });
    source.addEventListener('error', (event) => {
      // A server `error` event carries a detail; a transport error has none. Either way the fetch is over.
      const raw = (event as MessageEvent<string | undefined>).data;
      const detail = raw ? ((JSON.parse(raw) as { detail?: string }).detail ?? null) : null;
      finish(detail);
    });
    source.addEventListener('complete', () => {
      setState((previous) => ({ ...previous, progressPercentage: previous.error ? previous.progressPercentage : 100 }));
      finish();
    });
  }, [close, kind, mspCustomDomain]);

  /** cancelling marks the fetch complete; the server stops paging the PSA. */
  const cancel = useCallback(async () => {
    const jobId = jobRef.current;
    close();
    setState((previous) => ({ ...previous, isLoading: false, isComplete: true }));
    if (jobId) await apiFetch(`/psa/psa/progressive/${kind}/cancel`, { method: 'POST', query: { mspCustomDomain, jobId } }).catch(() => undefined);
  }, [close, kind, mspCustomDomain]);

  useEffect(() => close, [close]);
  return { state, start, cancel };
}

/** a thousand rows at a time (the server's limit); returns how many were saved. */
export async function saveSelectedRows<K extends TImportKind>(mspCustomDomain: string, kind: K, rows: TImportRow<K>[], importJobId: string | null, onProgress?: (saved: number) => void): Promise<number> {
  let saved = 0;
  for (let start = 0; start < rows.length; start += 1_000) {
    const batch = rows.slice(start, start + 1_000);
    const result =
      kind === 'clients'
        ? await apiFetch<{ saved: number }>('/psa/psa/progressive/clients/save-selected', { method: 'POST', body: { mspCustomDomain, importJobId: importJobId ?? undefined, selectedClients: batch } })
        : await apiFetch<{ saved: number }>('/psa/psa/progressive/contacts/save-selected', { method: 'POST', query: { mspCustomDomain, jobId: importJobId ?? undefined }, body: batch });
    saved += result.saved;
    onProgress?.(saved);
  }
  return saved;
}
