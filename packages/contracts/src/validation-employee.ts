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
