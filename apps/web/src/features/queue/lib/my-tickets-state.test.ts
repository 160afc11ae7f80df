import { describe, expect, it } from 'vitest';
import { afterComplete, afterRequeue, clampPage, selectIndex } from './my-tickets-state';

const list = (...ids: string[]) => ids.map((id) => ({ id }));

describe('My Ticket selection (02 §4)', () => {
  it('ignores out-of-range switches (R-288, R-300)', () => {
    const state = { tickets: list('a', 'b'), activeIndex: 1 };
    expect(selectIndex(state, 2)).toBe(state);
    expect(selectIndex(state, -1)).toBe(state);
    expect(selectIndex(state, 0).activeIndex).toBe(0);
  });

  it('after completing: a removal before the active ticket moves the index down; the active one keeps the index, capped (R-322)', () => {
    expect(afterComplete({ tickets: list('a', 'b', 'c'), activeIndex: 2 }, 'a')).toEqual({ tickets: list('b', 'c'), activeIndex: 1 });
    expect(afterComplete({ tickets: list('a', 'b', 'c'), activeIndex: 1 }, 'b')).toEqual({ tickets: list('a', 'c'), activeIndex: 1 });
    expect(afterComplete({ tickets: list('a', 'b', 'c'), activeIndex: 2 }, 'c')).toEqual({ tickets: list('a', 'b'), activeIndex: 1 });
    expect(afterComplete({ tickets: list('a'), activeIndex: 0 }, 'a')).toEqual({ tickets: [], activeIndex: 0 });
  });

  it('after a requeue: the same index, or the last ticket (R-326)', () => {
    expect(afterRequeue({ tickets: list('a', 'b', 'c'), activeIndex: 0 }, 'a')).toEqual({ tickets: list('b', 'c'), activeIndex: 0 });
    expect(afterRequeue({ tickets: list('a', 'b'), activeIndex: 1 }, 'b')).toEqual({ tickets: list('a'), activeIndex: 0 });
  });

  it('keeps pages between 1 and ceil(count / 30) (R-289)', () => {
    expect(clampPage(0, 45, 30)).toBe(1);
    expect(clampPage(3, 45, 30)).toBe(2);
    expect(clampPage(5, 0, 30)).toBe(1);
  });
});
