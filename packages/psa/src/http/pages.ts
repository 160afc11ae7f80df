/** One page of a list: its rows and how to ask for the page after it (null on the last page). */
export interface TPage<TRef> {
  rows: readonly unknown[];
  next: TRef | null;
}

/**
 * Yields every row of a paged list in order. Each page is requested once the page before it has arrived, so the PSA
 * never sees two requests of a list at once and sees the same requests in the same order whatever `readAhead` is.
 * `readAhead` is how many pages past the one the caller is reading may be requested already: 0 waits for the caller to
 * finish a page before asking for the next; 2 lets the PSA prepare the next two pages while the caller parses, maps and
 * writes this one. A caller that stops before the end has sent up to `readAhead` requests it did not need, so
 * read-ahead is for callers that read to the end (a batch sync), not for those that stop at a first match.
 */
export async function* streamPages<TRef>(first: TRef, fetchPage: (ref: TRef) => Promise<TPage<TRef>>, readAhead = 0): AsyncGenerator<unknown> {
  // Page k+1 is asked for when page k has arrived; a link after the last page resolves to null without a request.
  let last: Promise<TPage<TRef> | null> = fetchPage(first);
  const chain = [last];
  const extend = () => {
    last = last.then((page) => (page === null || page.next === null ? null : fetchPage(page.next)));
    // A failure surfaces when its page is awaited below; a caller that stopped early leaves it to end on its own.
    last.catch(() => undefined);
    chain.push(last);
  };
  for (let ahead = 0; ahead < readAhead; ahead += 1) extend();
  for (;;) {
    const page = await chain.shift();
    if (!page) return;
    yield* page.rows;
    extend();
  }
}
