import { z } from 'zod';
import { ZSessionUser } from '@switchboard/contracts';
import type { TSessionUser } from '@switchboard/contracts';

/** The four browser-storage items of spec 02 §3. */
export const STORAGE_KEYS = {
  lastActiveUser: 'lastActiveUser',
  lastUiState: 'lastUiState',
  lastConversationIndex: 'lastConversationIndex',
  lastActiveUserType: 'lastActiveUserType',
} as const;

export const TOP_LEVEL_TABS = ['admin', 'iTAgent'] as const;
export type TTopLevelTab = (typeof TOP_LEVEL_TABS)[number];

export const ZLastUiState = z.object({
  currentOption: z.string().max(100).nullable(),
  navOption: z.string().max(100).nullable(),
  activeTab: z.enum(TOP_LEVEL_TABS),
  introScreen: z.boolean(),
});
export type TLastUiState = z.infer<typeof ZLastUiState>;

export const ZLastActiveUserType = z.enum(['tech', 'client']);
export type TLastActiveUserType = z.infer<typeof ZLastActiveUserType>;

function readJson(key: string): unknown {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage can be full or disabled (private mode); the app works without it.
  }
}

/** Removes any password-like field, however the object reached us, before it touches storage. */
function withoutSecrets(user: TSessionUser): TSessionUser {
  const copy: Record<string, unknown> = { ...user };
  for (const key of Object.keys(copy)) {
    if (/password|hash|secret/i.test(key)) delete copy[key];
  }
  return copy as TSessionUser;
}

export function saveLastActiveUser(user: TSessionUser): void {
  writeJson(STORAGE_KEYS.lastActiveUser, withoutSecrets(user));
}

export function loadLastActiveUser(): TSessionUser | null {
  const parsed = ZSessionUser.safeParse(readJson(STORAGE_KEYS.lastActiveUser));
  return parsed.success ? parsed.data : null;
}

export function saveLastUiState(state: TLastUiState): void {
  writeJson(STORAGE_KEYS.lastUiState, state);
}

export function loadLastUiState(): TLastUiState | null {
  const parsed = ZLastUiState.safeParse(readJson(STORAGE_KEYS.lastUiState));
  return parsed.success ? parsed.data : null;
}

export function saveLastConversationIndex(index: number): void {
  writeJson(STORAGE_KEYS.lastConversationIndex, index);
}

export function loadLastConversationIndex(): number | null {
  const parsed = z.number().int().min(0).safeParse(readJson(STORAGE_KEYS.lastConversationIndex));
  return parsed.success ? parsed.data : null;
}

export function saveLastActiveUserType(userType: TLastActiveUserType): void {
  writeJson(STORAGE_KEYS.lastActiveUserType, userType);
}

/** Spec 02 §3: defaults to 'client' when nothing valid is stored. */
export function loadLastActiveUserType(): TLastActiveUserType {
  const parsed = ZLastActiveUserType.safeParse(readJson(STORAGE_KEYS.lastActiveUserType));
  return parsed.success ? parsed.data : 'client';
}

/** Expires every cookie JavaScript can see, on this path and its parents (HttpOnly ones are the server's job). */
export function clearScriptVisibleCookies(): void {
  const names = document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
  const segments = window.location.pathname.split('/').filter((segment) => segment !== '');
  const paths = ['/', ...segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}`)];
  for (const name of names) {
    for (const path of paths) {
      document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
    }
  }
}

/** Spec 02 §4 logout: clears local storage, session storage and script-visible cookies. */
export function clearAllClientState(): void {
  try {
    window.localStorage.clear();
  } catch {
    // Storage may be disabled; nothing to clear then.
  }
  try {
    window.sessionStorage.clear();
  } catch {
    // As above.
  }
  clearScriptVisibleCookies();
}
