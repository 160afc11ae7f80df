/** One page of a list: its rows and how to ask for the page after it (null on the last page). */
export interface TPage<TRef> {
  rows: readonly unknown[];
  next: TRef | null;
}

/**
 * Yields every row of a paged list, one page request at a time, in order. With `readAhead`, the next page's request
 * is sent as soon as a page has arrived — before its rows are handed on — so the PSA prepares that page while the
 * caller works through this one (parsing, mapping, writing). The PSA sees the same requests in the same order and
 * never two of them at once; only a caller that stops before the end has made one request more than it needed, so
 * read-ahead is for callers that read to the end (a batch sync), not for those that stop at a first match.
 */
export async function* streamPages<TRef>(first: TRef, fetchPage: (ref: TRef) => Promise<TPage<TRef>>, readAhead = false): AsyncGenerator<unknown> {
  let ahead: Promise<TPage<TRef>> | null = null;
  let ref: TRef | null = first;
  while (ahead !== null || ref !== null) {
    const page: TPage<TRef> = await (ahead ?? fetchPage(ref as TRef));
    ahead = null;
    ref = page.next;
    if (readAhead && ref !== null) {
      ahead = fetchPage(ref);
      // Its failure surfaces when it is awaited above; a caller that stopped early leaves it to end on its own.
      ahead.catch(() => undefined);
      ref = null;
    }
    yield* page.rows;
  }
}
