import { MESSAGES } from '@switchboard/contracts';
import { conflict } from '../../lib/app-error';
import type { TUserRow } from './auth.repository';

/**
 * An active MSP user without a password: only a technician imported from the PSA and not yet through an invitation
 * (decision 019; MSP users have no provider sign-in). Neither activation nor a reset may give them a password — an
 * imported person may hold any role — so every way in tells them to ask for an invitation (review s27 #1).
 */
export function isAwaitingInvitation(user: Pick<TUserRow, 'isActive' | 'passwordHash'> | undefined): boolean {
  return user !== undefined && user.isActive && user.passwordHash === null;
}

/** The 409 that sends someone awaiting an invitation to their administrator, with the page's flags. */
export function awaitingInvitationError(flags: Record<string, unknown>) {
  return conflict(MESSAGES.auth.askForInvitation, flags);
}
