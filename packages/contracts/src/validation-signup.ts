import { MESSAGES } from './messages';
import { customDomainProblem, isValidEmail, isValidPhone, NAME_PATTERN, passwordProblems, ZIP_PATTERN } from './validation';

// The sign-up forms' checks (MSP sign-up step 1, account sign-up, the provider completion): apart from validation.ts,
// whose checks the first load of the sign-in pages reads, so these and their messages stay out of it (bench:web).

/** Limits of the MSP sign-up's step 1 (ours; the spec gives none). */
export const MSP_NAME_MAX = 100;
export const WEBSITE_URL_MAX = 300;

/**
 * The website as stored: an http(s) address with a dotted host name; "acme.example" gains
 * "https://". Null when it is not a web address a person could open.
 */
export function normaliseWebsiteUrl(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > WEBSITE_URL_MAX || /\s/.test(trimmed)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(url.hostname)) return null;
  return withScheme;
}

export interface TMspInfoFields {
  customDomain: string;
  mspName: string;
  webSiteUrl: string;
  companyPhoneNumber: string;
}

/**
 * MSP sign-up step 1: the first problem in form order, or null. The browser checks it
 * before step 2 and the server again on A-082; availability of the domain is the server's.
 */
export function mspInfoFieldsProblem(fields: TMspInfoFields): string | null {
  const m = MESSAGES.mspSignup;
  if ([fields.customDomain, fields.mspName, fields.webSiteUrl, fields.companyPhoneNumber].some((value) => value.trim() === '')) return MESSAGES.emptyFields;
  const domainProblem = customDomainProblem(fields.customDomain.trim().toLowerCase());
  if (domainProblem === 'invalid') return MESSAGES.customDomainInvalid;
  if (domainProblem === 'reserved') return MESSAGES.customDomainReserved;
  if (fields.mspName.trim().length > MSP_NAME_MAX) return m.nameTooLong;
  if (normaliseWebsiteUrl(fields.webSiteUrl) === null) return m.websiteInvalid;
  if (fields.companyPhoneNumber.trim().length > 40 || !isValidPhone(fields.companyPhoneNumber)) return m.phoneInvalid;
  return null;
}


/** Account sign-up (01 §5): fields checked in the spec's order; the first failure is the message. */
export interface TAccountSignupFields {
  password: string;
  phoneNumber: string;
  email: string;
  firstName: string;
  lastName: string;
  companyName: string;
  companyAddress: { street: string; city: string; state: string; zipcode: string };
}

type TFieldCheck = [value: string, messages: { required: string; invalid: string }, isValid: (value: string) => boolean];

/** The business-detail checks of 01 §5 shared by the sign-up form and the provider completion. */
function businessDetailChecks(form: Omit<TAccountSignupFields, 'password' | 'email'>): TFieldCheck[] {
  const m = MESSAGES.signup;
  return [
    [form.firstName, m.firstName, (v) => NAME_PATTERN.test(v)],
    [form.lastName, m.lastName, (v) => NAME_PATTERN.test(v)],
    [form.companyName, m.companyName, (v) => NAME_PATTERN.test(v)],
    [form.companyAddress.street, m.street, (v) => /^[A-Za-z0-9 .,#'/-]+$/.test(v)],
    [form.companyAddress.city, m.city, (v) => /^[A-Za-z .'-]+$/.test(v)],
    [form.companyAddress.zipcode, m.zipcode, (v) => ZIP_PATTERN.test(v)],
    [form.companyAddress.state, m.state, (v) => /^[A-Za-z .'-]+$/.test(v)],
  ];
}

function firstProblem(checks: TFieldCheck[]): string | null {
  for (const [value, messages, isValid] of checks) {
    if (value.trim() === '') return messages.required;
    if (!isValid(value.trim())) return messages.invalid;
  }
  return null;
}

/**
 * The password check of the sign-up table: blank, then shorter than 8 ("Password should be at
 * least 8 characters."), then the rest of the one password rule (decisions #10) reported with the
 * first of the three "Password needs…" messages.
 */
function signupPasswordProblem(password: string): string | null {
  const m = MESSAGES.signup.password;
  if (password.trim() === '') return m.required;
  if (password.length < 8) return m.invalid;
  return passwordProblems(password)[0] ?? null;
}

export function validateAccountSignup(form: TAccountSignupFields): string | null {
  const m = MESSAGES.signup;
  return (
    signupPasswordProblem(form.password) ??
    firstProblem([
      [form.phoneNumber, m.phoneNumber, isValidPhone],
      [form.email, m.email, isValidEmail],
      ...businessDetailChecks(form),
    ])
  );
}

/** the provider already verified the email and there is no password; the rest is the sign-up order. */
export function validateProviderAccountDetails(form: Omit<TAccountSignupFields, 'password' | 'email'>): string | null {
  return firstProblem([[form.phoneNumber, MESSAGES.signup.phoneNumber, isValidPhone], ...businessDetailChecks(form)]);
}
