import { isLoginUserKind, type TLoginUserKind } from './user-kind';

/**
 * What the three forgot-password steps hand on to each other. It lives in sessionStorage, not
 * the URL, so the reset code never lands in history or logs; it is per MSP. Checked by hand: the
 * auth pages load without zod (issue #6 §5).
 */
export type TForgotPasswordState = { userKind: TLoginUserKind; email: string; code: string | null };

function isForgotPasswordState(value: unknown): value is TForgotPasswordState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    isLoginUserKind(state.userKind) &&
    typeof state.email === 'string' &&
    state.email.length <= 254 &&
    (state.code === null || (typeof state.code === 'string' && state.code.length <= 20))
  );
}

const storageKey = (msp: string) => `forgotPassword:${msp}`;
// Used when sessionStorage is disabled, so the steps still work until the page reloads.
const memoryFallback = new Map<string, string>();

function readRaw(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key) ?? memoryFallback.get(key) ?? null;
  } catch {
    return memoryFallback.get(key) ?? null;
  }
}

export function loadForgotPasswordState(msp: string): TForgotPasswordState | null {
  const raw = readRaw(storageKey(msp));
  if (raw === null) return null;
  try {
    const stored: unknown = JSON.parse(raw);
    return isForgotPasswordState(stored) ? { userKind: stored.userKind, email: stored.email, code: stored.code } : null;
  } catch {
    return null;
  }
}

export function saveForgotPasswordState(msp: string, state: TForgotPasswordState): void {
  const raw = JSON.stringify(state);
  memoryFallback.set(storageKey(msp), raw);
  try {
    window.sessionStorage.setItem(storageKey(msp), raw);
  } catch {
    // The in-memory copy above carries the steps.
  }
}

export function clearForgotPasswordState(msp: string): void {
  memoryFallback.delete(storageKey(msp));
  try {
    window.sessionStorage.removeItem(storageKey(msp));
  } catch {
    // Only the in-memory copy existed.
  }
}
