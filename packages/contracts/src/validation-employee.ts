import { MESSAGES } from './messages';
import { isStrongPassword, isValidEmail, isValidPhone } from './validation';

// Apart from validation.ts, whose checks the sign-in pages load first: this form's messages are not among theirs.
/** The new-employee form (01 §5): each failed check with the spec's message; empty when the form may be sent. */
export interface TNewEmployeeFields {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  password: string;
}
export type TNewEmployeeProblems = Partial<Record<'names' | 'email' | 'phoneNumber' | 'password', string>>;
export function newEmployeeProblems(form: TNewEmployeeFields): TNewEmployeeProblems {
  const problems: TNewEmployeeProblems = {};
  if (form.firstName.trim() === '' || form.lastName.trim() === '') problems.names = MESSAGES.employee.names;
  if (!isValidEmail(form.email)) problems.email = MESSAGES.employee.email;
  if (!isValidPhone(form.phoneNumber)) problems.phoneNumber = MESSAGES.employee.phone;
  if (!isStrongPassword(form.password)) problems.password = MESSAGES.employee.password;
  return problems;
}

/**
 * Profile edits (A-036/A-037; ours, review s25 #2): letters of any language, digits, spaces, periods, apostrophes and
 * hyphens, as PSA records hold names ("Seán O'Brien"). 01 §5's NAME_PATTERN stays the sign-up rule. Kept out of
 * validation.ts, which the sign-in pages load first (bench:web).
 */
export const PROFILE_NAME_PATTERN = /^[\p{L}\p{M}0-9 .'’-]+$/u;
