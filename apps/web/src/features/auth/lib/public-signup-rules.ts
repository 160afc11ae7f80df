import { CORE_MESSAGES, MESSAGES, isValidEmail, passwordProblems } from '@switchboard/contracts';

export interface TPublicSignupForm {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  emailId: string;
  password: string;
}

/** every field required, then a valid email, then a strong password; the first failure stops the form. */
export function publicSignupProblem(form: TPublicSignupForm): string | null {
  if ([form.firstName, form.lastName, form.phoneNumber, form.emailId, form.password].some((value) => value.trim() === '')) {
    return MESSAGES.emptyFields;
  }
  if (!isValidEmail(form.emailId)) return CORE_MESSAGES.validEmailRequired;
  return passwordProblems(form.password)[0] ?? null;
}
