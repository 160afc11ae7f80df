import { z } from 'zod';

/**
 * What the three forgot-password steps hand on to each other. It lives in sessionStorage, not
 * the URL, so the reset code never lands in history or logs; it is per MSP.
 */
const ZForgotPasswordState = z.object({
  userKind: z.enum(['tech', 'client']),
  email: z.string().max(254),
  code: z.string().max(20).nullable(),
});
export type TForgotPasswordState = z.infer<typeof ZForgotPasswordState>;

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
    const parsed = ZForgotPasswordState.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
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
