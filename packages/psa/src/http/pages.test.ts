import { describe, expect, it } from 'vitest';
import { streamPages, type TPage } from './pages';

/** A list of `pages` pages of two rows each, answered after a tick; records what was asked for and how many at once. */
function pagedList(pages: number, failAt?: number) {
  const asked: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const fetchPage = async (page: number): Promise<TPage<number>> => {
    asked.push(page);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
    if (page === failAt) throw new Error(`page ${page} failed`);
    return { rows: [`${page}a`, `${page}b`], next: page < pages ? page + 1 : null };
  };
  return { asked, fetchPage, mostInFlight: () => mostInFlight };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('streamPages', () => {
  it.each([0, 1, 2, 5])('yields every row in order with the same requests, one at a time (read-ahead %i)', async (readAhead) => {
    const list = pagedList(4);
    const rows: unknown[] = [];
    for await (const row of streamPages(1, list.fetchPage, readAhead)) rows.push(row);
    expect(rows).toEqual(['1a', '1b', '2a', '2b', '3a', '3b', '4a', '4b']);
    expect(list.asked).toEqual([1, 2, 3, 4]);
    expect(list.mostInFlight()).toBe(1);
  });

  it('asks for the next page only when the caller has read this one without read-ahead, and up to N pages ahead with it', async () => {
    for (const [readAhead, expected] of [
      [0, [1]],
      [1, [1, 2]],
      [2, [1, 2, 3]],
    ] as const) {
      const list = pagedList(6);
      const rows = streamPages(1, list.fetchPage, readAhead);
      expect((await rows.next()).value).toBe('1a');
      await settle();
      expect(list.asked).toEqual(expected);
      // A caller that stops early has sent only what read-ahead allowed, and nothing more after it stopped.
      await rows.return(undefined);
      await settle();
      expect(list.asked).toEqual(expected);
    }
  });

  it('hands on the rows before a failed page, then the failure, with or without read-ahead', async () => {
    for (const readAhead of [0, 2]) {
      const list = pagedList(5, 3);
      const rows: unknown[] = [];
      await expect(
        (async () => {
          for await (const row of streamPages(1, list.fetchPage, readAhead)) rows.push(row);
        })(),
      ).rejects.toThrow('page 3 failed');
      expect(rows).toEqual(['1a', '1b', '2a', '2b']);
      expect(list.asked).toEqual([1, 2, 3]);
    }
  });
});
