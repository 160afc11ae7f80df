import type { TCreateMspResponse } from '@switchboard/contracts';
import type { TMspInfoForm } from './msp-signup-rules';

/**
 * An MSP created at step 1 whose first technician is not added yet: kept in sessionStorage until step 2 succeeds, so
 * a reload (or a lost answer followed by one) goes on with the same MSP and token instead of finding its own domain
 * "already in use". Dropped once the token has expired: the server then frees the domain for a new sign-up.
 * Checked by hand: the auth pages load without zod (issue #6 §5).
 */
export type TMspSignupState = { createdMsp: TCreateMspResponse; mspInfo: Omit<TMspInfoForm, 'logo'> };

const STORAGE_KEY = 'mspSignup';
const TEXT_FIELDS = ['customDomain', 'mspName', 'webSiteUrl', 'companyPhoneNumber'] as const;
const isShortText = (value: unknown): value is string => typeof value === 'string' && value.length <= 2000;

function isMspSignupState(value: unknown): value is TMspSignupState {
  if (typeof value !== 'object' || value === null) return false;
  const { createdMsp, mspInfo } = value as Record<string, unknown>;
  if (typeof createdMsp !== 'object' || createdMsp === null || typeof mspInfo !== 'object' || mspInfo === null) return false;
  const msp = createdMsp as Record<string, unknown>;
  const info = mspInfo as Record<string, unknown>;
  return (
    ['mspCustomDomain', 'mspName', 'bootstrapToken', 'bootstrapExpiresAt'].every((field) => isShortText(msp[field])) &&
    TEXT_FIELDS.every((field) => isShortText(info[field]))
  );
}

/** The sign-up in progress in this tab, or null (none, unreadable, or its token expired). */
export function loadMspSignupState(now: Date = new Date()): TMspSignupState | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const stored: unknown = JSON.parse(raw);
    if (!isMspSignupState(stored) || !(new Date(stored.createdMsp.bootstrapExpiresAt).getTime() > now.getTime())) {
      window.sessionStorage.removeItem(STORAGE_KEY);
      return null;
    }
    const { mspCustomDomain, mspName, bootstrapToken, bootstrapExpiresAt } = stored.createdMsp;
    const { customDomain, mspName: name, webSiteUrl, companyPhoneNumber } = stored.mspInfo;
    return { createdMsp: { mspCustomDomain, mspName, bootstrapToken, bootstrapExpiresAt }, mspInfo: { customDomain, mspName: name, webSiteUrl, companyPhoneNumber } };
  } catch {
    return null;
  }
}

export function saveMspSignupState(state: TMspSignupState): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Without sessionStorage the page still works until it reloads (the state is in React too).
  }
}

export function clearMspSignupState(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}
