/**
 * Plain words for a schema check that failed, so no person ever reads a validator's own text
 * ("emailId: Too big: expected string to have <=254 characters"). The server's error handler turns
 * every zod issue into one of these; the browser shows them as they come. Kept free of zod so the
 * browser can load it anywhere.
 */

/** The parts of a zod issue the wording needs (zod 4's issue shape, read loosely). */
export interface TSchemaIssue {
  code: string;
  path: readonly PropertyKey[];
  /** zod's own message: read only to tell a missing value from a wrong one, never shown. */
  message?: string;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
  format?: unknown;
  values?: unknown;
  keys?: unknown;
}

/** Field names of the API whose readable label is not just the name split into words. */
const FIELD_LABELS: Record<string, string> = {
  emailId: 'Email',
  email: 'Email',
  mspCustomDomain: 'MSP custom domain',
  customDomain: 'Custom domain',
  mspName: 'MSP name',
  webSiteUrl: 'Website URL',
  psaUrl: 'PSA URL',
  companyPhoneNumber: 'Company phone number',
  phoneNumber: 'Phone number',
  zipcode: 'Zip code',
  id: 'Id',
  challengeId: 'Verification step',
  code: 'Verification code',
  psaMembersAutopilotDbId: 'PSA member',
  psaContactAutopilotDbId: 'PSA contact',
  psaCompanyId: 'PSA company',
  roleId: 'Role',
  tierLevel: 'Tier',
};

/** "companyName" → "Company name"; a list index names its list ("permissions.3" → "Permissions"). */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const named = [...path].reverse().find((segment): segment is string => typeof segment === 'string' && !/^\d+$/.test(segment));
  if (named === undefined) return 'The request';
  const known = FIELD_LABELS[named];
  if (known !== undefined) return known;
  const words = named
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? 'The request' : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a set of fields',
  date: 'a date',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid web address',
  uuid: 'a valid id',
  guid: 'a valid id',
  datetime: 'a valid date and time',
  date: 'a valid date',
};

const count = (value: unknown): string => (typeof value === 'number' || typeof value === 'bigint' ? value.toString() : String(value));
const plural = (value: unknown, word: string): string => `${count(value)} ${word}${value === 1 ? '' : 's'}`;

/** zod's default wording starts like this; anything else was written by us for people. */
const VALIDATOR_WORDING = /^(Invalid|Too (big|small)|Unrecognized key|Expected|Required)/;

/** One sentence, in plain words, for a failed check of one field. */
export function plainIssueMessage(issue: TSchemaIssue): string {
  // Our own messages (e.g. `.regex(pattern, 'Use a colour like #1c7ed6.')`) are kept as written.
  if (typeof issue.message === 'string' && issue.message.trim() !== '' && !VALIDATOR_WORDING.test(issue.message)) return issue.message;
  const label = fieldLabel(issue.path);
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return `${label} is too long (at most ${plural(issue.maximum, 'character')}).`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label} has too many entries (at most ${count(issue.maximum)}).`;
      if (issue.origin === 'file') return `${label} is too large.`;
      return `${label} must be at most ${count(issue.maximum)}.`;
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? `${label} is required.` : `${label} is too short (at least ${plural(issue.minimum, 'character')}).`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label} needs at least ${count(issue.minimum)} ${issue.minimum === 1 ? 'entry' : 'entries'}.`;
      return `${label} must be at least ${count(issue.minimum)}.`;
    case 'invalid_type': {
      if (issue.path.length === 0) return 'The request is missing its fields or is not in the expected form.';
      if (typeof issue.message === 'string' && /received undefined/.test(issue.message)) return `${label} is required.`;
      const expected = typeof issue.expected === 'string' ? TYPE_WORDS[issue.expected] : undefined;
      return expected === undefined ? `${label} is not valid.` : `${label} must be ${expected}.`;
    }
    case 'invalid_format': {
      const format = typeof issue.format === 'string' ? FORMAT_WORDS[issue.format] : undefined;
      return format === undefined ? `${label} contains characters that are not allowed.` : `${label} must be ${format}.`;
    }
    case 'invalid_value': {
      const values = Array.isArray(issue.values) ? issue.values.filter((value) => ['string', 'number', 'boolean'].includes(typeof value)).map(String) : [];
      return values.length > 0 && values.length <= 8 ? `${label} must be one of: ${values.join(', ')}.` : `${label} is not one of the allowed values.`;
    }
    case 'unrecognized_keys': {
      const keys = Array.isArray(issue.keys) ? issue.keys.map(String) : [];
      return keys.length > 0 ? `Unknown field${keys.length === 1 ? '' : 's'}: ${keys.join(', ')}.` : 'The request has unknown fields.';
    }
    default:
      return `${label} is not valid.`;
  }
}
