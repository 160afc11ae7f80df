import { LOGO_MAX_BYTES, LOGO_TYPES, CORE_MESSAGES, MESSAGES, isValidEmail, isValidPhone, mspInfoFieldsProblem, passwordProblems } from '@switchboard/contracts';

export interface TMspInfoForm {
  customDomain: string;
  mspName: string;
  webSiteUrl: string;
  companyPhoneNumber: string;
  logo: File | null;
}

export interface TFirstTechnicianForm {
  firstName: string;
  lastName: string;
  phoneNumber: string;
  email: string;
  password: string;
}

const isBlank = (value: string) => value.trim() === '';
const isLogoType = (type: string): boolean => (LOGO_TYPES as readonly string[]).includes(type);

/**
 * MSP sign-up step 1: the message that stops the step, or null to go on — the
 * server's own field rule (website, phone, name length), then the logo. Whether the domain is
 * free is asked of the server before step 2 opens.
 */
export function mspInfoProblem(form: TMspInfoForm): string | null {
  const fieldProblem = mspInfoFieldsProblem(form);
  if (fieldProblem !== null) return fieldProblem;
  if (form.logo) {
    if (form.logo.size === 0) return MESSAGES.fileMissing;
    if (form.logo.size > LOGO_MAX_BYTES) return MESSAGES.fileSize;
    if (!isLogoType(form.logo.type)) return MESSAGES.fileType;
  }
  return null;
}

/**
 * MSP sign-up step 2 (R-089, R-094): every field required, a valid email, a valid phone and a strong password, in
 * the server's order (A-035). The phone is checked here too: the server refused it only after step 1's MSP was
 * created (review s25 #5).
 */
export function firstTechnicianProblem(form: TFirstTechnicianForm): string | null {
  if ([form.firstName, form.lastName, form.phoneNumber, form.email, form.password].some(isBlank)) return MESSAGES.emptyFields;
  if (!isValidEmail(form.email)) return CORE_MESSAGES.validEmailRequired;
  if (!isValidPhone(form.phoneNumber)) return MESSAGES.signup.phoneNumber.invalid;
  return passwordProblems(form.password)[0] ?? null;
}
