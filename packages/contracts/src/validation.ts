import { CORE_MESSAGES } from './messages-core';

/** 01 §5: word characters and hyphens with dots, @, a dotted domain, a 2–7 letter TLD. */
export const EMAIL_PATTERN = /^[\w-]+(\.[\w-]+)*@([\w-]+\.)+[a-zA-Z]{2,7}$/;
/** 01 §5: letters, digits and spaces only. */
export const NAME_PATTERN = /^[A-Za-z0-9 ]+$/;
export const PASSWORD_SPECIALS = /[!@#$%^&*(),.?":{}|<>]/;
export const ZIP_PATTERN = /^[A-Za-z0-9 -]{3,10}$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** 9 or 10 digits once non-digits are stripped (01 §5). */
export function isValidPhone(value: string): boolean {
  const digits = value.replace(/\D/g, '');
  return digits.length === 9 || digits.length === 10;
}

/** The one password rule (decisions #10): the list of unmet rules, empty when strong. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 8) problems.push(CORE_MESSAGES.passwordRules.length);
  if (!PASSWORD_SPECIALS.test(password)) problems.push(CORE_MESSAGES.passwordRules.special);
  if (!/[A-Z]/.test(password)) problems.push(CORE_MESSAGES.passwordRules.uppercase);
  return problems;
}

export const isStrongPassword = (password: string): boolean => passwordProblems(password).length === 0;

/** decisions.md #4: words that are route segments can never be MSP custom domains. */
export const RESERVED_CUSTOM_DOMAINS = new Set([
  'api', 'auth', 'public', 'admin', 'dashboard', 'db', 'psa', 'gpt', 'docs', 'rewst', 'assets', 'static',
  'health', 'ready', 'openapi', 'openapi.json', 'msp', 'technicianusers', 'clientusers', 'conversations',
  'supporttickets', 'applications', 'default-et7-board-template', 'dev', 'outbox', 'login', 'signup',
  'logout', 'activate', 'forgot', 'favicon.ico', 'robots.txt', 'getagents', 'getmessages', 'softdeleteagent',
  'updatefeedback', 'www', 'mail',
]);
export const CUSTOM_DOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

export type TCustomDomainProblem = 'invalid' | 'reserved' | null;
export function customDomainProblem(value: string): TCustomDomainProblem {
  if (!CUSTOM_DOMAIN_PATTERN.test(value)) return 'invalid';
  if (RESERVED_CUSTOM_DOMAINS.has(value.toLowerCase())) return 'reserved';
  return null;
}

/** C0 controls and DEL: never part of a name, address or domain (and PostgreSQL text cannot hold NUL). */
export function hasControlCharacters(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

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
  const m = CORE_MESSAGES.mspSignup;
  if ([fields.customDomain, fields.mspName, fields.webSiteUrl, fields.companyPhoneNumber].some((value) => value.trim() === '')) return CORE_MESSAGES.emptyFields;
  const domainProblem = customDomainProblem(fields.customDomain.trim().toLowerCase());
  if (domainProblem === 'invalid') return CORE_MESSAGES.customDomainInvalid;
  if (domainProblem === 'reserved') return CORE_MESSAGES.customDomainReserved;
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
  const m = CORE_MESSAGES.signup;
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
  const m = CORE_MESSAGES.signup.password;
  if (password.trim() === '') return m.required;
  if (password.length < 8) return m.invalid;
  return passwordProblems(password)[0] ?? null;
}

export function validateAccountSignup(form: TAccountSignupFields): string | null {
  const m = CORE_MESSAGES.signup;
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
  return firstProblem([[form.phoneNumber, CORE_MESSAGES.signup.phoneNumber, isValidPhone], ...businessDetailChecks(form)]);
}
