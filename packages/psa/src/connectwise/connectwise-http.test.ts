import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../http/budget';
import { createFakeClock } from '../http/fake-clock';
import { HttpTransport } from '../http/request';
import { defaultRetryPolicy } from '../http/retry';
import { Condition, eq } from './conditions';
import { mapConnectWiseError, streamConnectWiseRows, type TConnectWiseListQuery } from './connectwise-http';
import { connectWiseMaxPageSize } from './paging';

type TAnswer = { ids: number[]; link?: string };

/** A ConnectWise list answering `answers` in turn; records each request's query parameters. */
function scriptedList(answers: TAnswer[]) {
  const asked: URLSearchParams[] = [];
  const fetchImpl: typeof fetch = (input) => {
    asked.push(new URL(input instanceof Request ? input.url : input.toString()).searchParams);
    const answer = answers.shift() ?? { ids: [] };
    const headers: Record<string, string> = answer.link === undefined ? {} : { Link: answer.link };
    return Promise.resolve(new Response(JSON.stringify(answer.ids.map((id) => ({ id }))), { status: 200, headers }));
  };
  const clock = createFakeClock();
  const transport = new HttpTransport({
    fetch: fetchImpl,
    clock,
    timeoutMs: 1000,
    retry: defaultRetryPolicy,
    budget: new RequestBudget({ requestsPerWindow: 1000, windowMs: 1000, concurrentPerEndpoint: 3 }, clock),
    tenantKey: 'msp-1',
    secrets: [],
    authHeaders: () => ({}),
    mapError: mapConnectWiseError,
  });
  return { transport, asked };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

async function idsOf(transport: HttpTransport, query: TConnectWiseListQuery, readAhead = 0): Promise<number[]> {
  const ids: number[] = [];
  for await (const row of streamConnectWiseRows(transport, 'https://psa.test/v4_6_release/apis/3.0', '/service/tickets', query, readAhead)) ids.push((row as { id: number }).id);
  return ids;
}

describe('streamConnectWiseRows', () => {
  it('asks for each next page as the same conditions and id > the last id received, page 1, with or without read-ahead', async () => {
    for (const readAhead of [0, 2]) {
      const { transport, asked } = scriptedList([{ ids: range(1, connectWiseMaxPageSize) }, { ids: range(2001, connectWiseMaxPageSize) }, { ids: [5000, 5001] }]);
      const ids = await idsOf(transport, { conditions: Condition.in('board/id', [5]) }, readAhead);
      expect(ids).toHaveLength(2 * connectWiseMaxPageSize + 2);
      expect(asked.map((params) => params.get('conditions'))).toEqual(['board/id in (5)', '(board/id in (5)) and (id>1000)', '(board/id in (5)) and (id>3000)']);
      expect(asked.every((params) => params.get('page') === '1' && params.get('orderBy') === 'id asc' && params.get('pageSize') === '1000')).toBe(true);
    }
  });

  it('pages a list without conditions by id alone', async () => {
    const { transport, asked } = scriptedList([{ ids: range(1, connectWiseMaxPageSize) }, { ids: [] }]);
    expect(await idsOf(transport, {})).toHaveLength(connectWiseMaxPageSize);
    expect(asked.map((params) => params.get('conditions'))).toEqual([null, 'id>1000']);
  });

  it('ends where the Link header has no rel="next", even on a full page, and goes on where it has one, even on a short page', async () => {
    const last = '<https://psa.test/x?page=1>; rel="first"';
    const { transport, asked } = scriptedList([{ ids: range(1, 10), link: '<https://elsewhere.test/x?page=2>; rel="next"' }, { ids: range(11, connectWiseMaxPageSize), link: last }]);
    expect(await idsOf(transport, {})).toHaveLength(connectWiseMaxPageSize + 10);
    // The link's own URL (here on another host) is never followed: the next page is `id > last`.
    expect(asked.map((params) => params.get('conditions'))).toEqual([null, 'id>10']);
  });

  it('stops with an error rather than loop when the server ignores the id condition', async () => {
    const page = range(1, connectWiseMaxPageSize);
    const { transport, asked } = scriptedList([{ ids: page }, { ids: page }, { ids: page }]);
    await expect(idsOf(transport, {})).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(idsOf(scriptedList([{ ids: page }, { ids: page }]).transport, {})).rejects.toThrow(/after id 1000 .* paging stopped/);
    expect(asked).toHaveLength(2);
  });

  it('keeps page numbers for a list in another order', async () => {
    const { transport, asked } = scriptedList([{ ids: range(1, connectWiseMaxPageSize) }, { ids: [7] }]);
    expect(await idsOf(transport, { conditions: eq('inactiveFlag', false), orderBy: 'sortOrder asc' })).toHaveLength(connectWiseMaxPageSize + 1);
    expect(asked.map((params) => [params.get('page'), params.get('conditions'), params.get('orderBy')])).toEqual([
      ['1', 'inactiveFlag=false', 'sortOrder asc'],
      ['2', 'inactiveFlag=false', 'sortOrder asc'],
    ]);
  });
});
