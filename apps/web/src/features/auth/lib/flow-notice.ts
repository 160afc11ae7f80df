import { isLoginUserKind, type TLoginUserKind } from './user-kind';

/**
 * Router state carried to the MSP login page after a flow ends there: a one-line confirmation
 * ("your MSP was created, sign in") shown once and never in the URL, and which list the person
 * signs in from (R-092: after MSP sign-up the technician login is the one shown).
 */
export type TFlowNotice = { notice: string; userKind?: TLoginUserKind; email?: string };

/** `email`: who just finished the flow, so the login page does not ask them to type it again. */
export function noticeState(notice: string, userKind?: TLoginUserKind, email?: string): TFlowNotice {
  return { notice, ...(userKind === undefined ? {} : { userKind }), ...(email === undefined ? {} : { email }) };
}

function field(state: unknown, key: string): unknown {
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>)[key] : undefined;
}

/** The confirmation in router state, or null; anything else there is ignored. */
export function readNotice(state: unknown): string | null {
  const notice = field(state, 'notice');
  return typeof notice === 'string' && notice.length <= 300 ? notice : null;
}

/** The user kind the previous flow chose for the login page, or null. */
export function readUserKind(state: unknown): TLoginUserKind | null {
  const userKind = field(state, 'userKind');
  return isLoginUserKind(userKind) ? userKind : null;
}

/** The email the previous flow used, or null. */
export function readEmail(state: unknown): string | null {
  const email = field(state, 'email');
  return typeof email === 'string' && email.length <= 320 ? email : null;
}
