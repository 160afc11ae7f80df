import { LRUCache } from 'lru-cache';

/**
 * A bounded, short-lived, in-process cache (decision 011). Entries are kept for `ttlMs` by the app's
 * own clock (so tests move it with advanceClock) and the least recently used are dropped beyond
 * `maxEntries`. `ttlMs` 0 disables it: nothing is stored.
 *
 * Writers invalidate after their transaction commits. A read that started before an invalidation
 * must not store what it read (it may be the old state), so every read takes a `ticket()` first and
 * `set` drops the value when any invalidation happened since.
 */
export interface TShortLivedCache<TValue extends object> {
  readonly ttlMs: number;
  get(key: string): TValue | undefined;
  ticket(): number;
  set(key: string, value: TValue, ticket: number): void;
  delete(key: string): void;
  /** Drops every entry the predicate picks (rare writes: a role edit, a user edit). */
  deleteWhere(picks: (value: TValue) => boolean): void;
}

interface TEntry<TValue> {
  value: TValue;
  storedAtMs: number;
}

export function createShortLivedCache<TValue extends object>(options: { ttlMs: number; maxEntries: number; now: () => Date }): TShortLivedCache<TValue> {
  const { ttlMs, now } = options;
  const entries = new LRUCache<string, TEntry<TValue>>({ max: Math.max(1, options.maxEntries) });
  let invalidations = 0;

  return {
    ttlMs,
    get(key) {
      if (ttlMs <= 0) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      const age = now().getTime() - entry.storedAtMs;
      if (age >= ttlMs || age < 0) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    ticket: () => invalidations,
    set(key, value, ticket) {
      if (ttlMs <= 0 || ticket !== invalidations) return;
      entries.set(key, { value, storedAtMs: now().getTime() });
    },
    delete(key) {
      invalidations += 1;
      entries.delete(key);
    },
    deleteWhere(picks) {
      invalidations += 1;
      const picked = [...entries.entries()].filter(([, entry]) => picks(entry.value)).map(([key]) => key);
      for (const key of picked) entries.delete(key);
    },
  };
}
