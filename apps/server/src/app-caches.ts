import type { TConfig } from './config/env';
import { createShortLivedCache, type TShortLivedCache } from './lib/short-lived-cache';
import type { TSessionCache } from './plugins/auth-context';
import type { TRoleRow } from './modules/roles/roles.repository';

/** Most sessions (and MSPs) one process keeps; beyond it the least recently used are dropped. */
const MAX_CACHED_SESSIONS = 10_000;
const MAX_CACHED_ROLE_LISTS = 2_000;

/**
 * Short-lived per-process caches of the hottest reads (decision 011): the resolved session behind
 * every signed-in request and each MSP's roles list. One set per app; AUTH_CACHE_TTL_MS=0 disables them.
 */
export interface TAppCaches {
  sessions: TSessionCache;
  /** Keyed by MSP id. */
  roleLists: TShortLivedCache<TRoleRow[]>;
}

export function createAppCaches(config: Pick<TConfig, 'authCacheTtlMs'>, now: () => Date): TAppCaches {
  return {
    sessions: createShortLivedCache({ ttlMs: config.authCacheTtlMs, maxEntries: MAX_CACHED_SESSIONS, now }),
    roleLists: createShortLivedCache({ ttlMs: config.authCacheTtlMs, maxEntries: MAX_CACHED_ROLE_LISTS, now }),
  };
}
