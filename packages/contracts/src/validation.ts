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
