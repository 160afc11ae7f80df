import { CORE_MESSAGES, passwordProblems } from '@switchboard/contracts';

/** The message that stops the new-password step (R-106, R-107, decisions #10), or null. */
export function newPasswordProblem(newPassword: string, verifyPassword: string): string | null {
  // the spec reuses the email message for a missing password, on purpose kept verbatim.
  if (newPassword === '' || verifyPassword === '') return CORE_MESSAGES.validEmailRequired;
  if (newPassword !== verifyPassword) return CORE_MESSAGES.passwordsDoNotMatch;
  return passwordProblems(newPassword)[0] ?? null;
}
