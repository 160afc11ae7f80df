import type { TSessionUser } from '@switchboard/contracts';
import { loadSchemas } from './api-client';

/** The four browser-storage items of spec 02 §3. */
export const STORAGE_KEYS = {
  lastActiveUser: 'lastActiveUser',
  lastUiState: 'lastUiState',
  lastConversationIndex: 'lastConversationIndex',
  lastActiveUserType: 'lastActiveUserType',
} as const;

export const TOP_LEVEL_TABS = ['admin', 'iTAgent'] as const;
export type TTopLevelTab = (typeof TOP_LEVEL_TABS)[number];

export type TLastUiState = {
  currentOption: string | null;
  navOption: string | null;
  activeTab: TTopLevelTab;
  introScreen: boolean;
};

export type TLastActiveUserType = 'tech' | 'client';

// The small stored values are checked by hand: this module is on every page's first load, zod is not (issue #6 §5).
const isOptionName = (value: unknown): value is string | null => value === null || (typeof value === 'string' && value.length <= 100);

function isLastUiState(value: unknown): value is TLastUiState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    isOptionName(state.currentOption) &&
    isOptionName(state.navOption) &&
    (TOP_LEVEL_TABS as readonly unknown[]).includes(state.activeTab) &&
    typeof state.introScreen === 'boolean'
  );
}

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

/** The stored user, checked against the session-user schema (loaded on first use). */
export async function loadLastActiveUser(): Promise<TSessionUser | null> {
  const { ZSessionUser } = await loadSchemas();
  const parsed = ZSessionUser.safeParse(readJson(STORAGE_KEYS.lastActiveUser));
  return parsed.success ? parsed.data : null;
}

export function saveLastUiState(state: TLastUiState): void {
  writeJson(STORAGE_KEYS.lastUiState, state);
}

export function loadLastUiState(): TLastUiState | null {
  const stored = readJson(STORAGE_KEYS.lastUiState);
  if (!isLastUiState(stored)) return null;
  return { currentOption: stored.currentOption, navOption: stored.navOption, activeTab: stored.activeTab, introScreen: stored.introScreen };
}

export function saveLastConversationIndex(index: number): void {
  writeJson(STORAGE_KEYS.lastConversationIndex, index);
}

export function loadLastConversationIndex(): number | null {
  const stored = readJson(STORAGE_KEYS.lastConversationIndex);
  return typeof stored === 'number' && Number.isInteger(stored) && stored >= 0 ? stored : null;
}

export function saveLastActiveUserType(userType: TLastActiveUserType): void {
  writeJson(STORAGE_KEYS.lastActiveUserType, userType);
}

/** Spec 02 §3: defaults to 'client' when nothing valid is stored. */
export function loadLastActiveUserType(): TLastActiveUserType {
  const stored = readJson(STORAGE_KEYS.lastActiveUserType);
  return stored === 'tech' || stored === 'client' ? stored : 'client';
}
