import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldLabel, plainIssueMessage } from './issue-messages';

/** The plain message of the first issue a schema reports for `input`. */
function firstMessage(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  const [issue] = result.error.issues;
  if (!issue) throw new Error('no issue');
  return plainIssueMessage(issue);
}

describe('plain words for failed schema checks (issue #6 §6)', () => {
  const body = z.object({
    emailId: z.string().trim().max(254),
    firstName: z.string().trim().min(1).max(100),
    companyName: z.string().min(3),
    tierLevel: z.enum(['Tier1', 'Tier2']),
    id: z.uuid(),
    permissions: z.array(z.boolean()).max(2),
    colour: z.string().regex(/^#[0-9a-f]{6}$/, 'Use a colour like #1c7ed6.'),
  });
  const valid = { emailId: 'a@b.example', firstName: 'Ada', companyName: 'Acme', tierLevel: 'Tier1', id: '7d7c1f36-3c3a-4a55-9a55-0d3b4f0f2a11', permissions: [], colour: '#aabbcc' };

  it('says what is wrong with the field by its label, never in the validator\'s words', () => {
    expect(firstMessage(body, { ...valid, emailId: 'x'.repeat(255) })).toBe('Email is too long (at most 254 characters).');
    expect(firstMessage(body, { ...valid, firstName: '' })).toBe('First name is required.');
    expect(firstMessage(body, { ...valid, companyName: 'AB' })).toBe('Company name is too short (at least 3 characters).');
    expect(firstMessage(body, { ...valid, firstName: undefined })).toBe('First name is required.');
    expect(firstMessage(body, { ...valid, firstName: 42 })).toBe('First name must be text.');
    expect(firstMessage(body, { ...valid, tierLevel: 'Tier9' })).toBe('Tier must be one of: Tier1, Tier2.');
    expect(firstMessage(body, { ...valid, id: 'nope' })).toBe('Id must be a valid id.');
    expect(firstMessage(body, { ...valid, permissions: [true, true, true] })).toBe('Permissions has too many entries (at most 2).');
    expect(firstMessage(body, null)).toBe('The request is missing its fields or is not in the expected form.');
    expect(firstMessage(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe('Unknown field: b.');
  });

  it('keeps a message we wrote ourselves', () => {
    expect(firstMessage(body, { ...valid, colour: 'red' })).toBe('Use a colour like #1c7ed6.');
  });

  it('labels fields in plain words', () => {
    expect(fieldLabel(['companyAddress', 'zipcode'])).toBe('Zip code');
    expect(fieldLabel(['mspCustomDomain'])).toBe('MSP custom domain');
    expect(fieldLabel(['primaryButtonColour'])).toBe('Primary button colour');
    expect(fieldLabel(['permissions', 3])).toBe('Permissions');
    expect(fieldLabel([])).toBe('The request');
  });

  it('never leaks zod wording for any issue code', () => {
    const samples: unknown[] = [{}, { ...valid, emailId: 5 }, { ...valid, permissions: 'x' }, { ...valid, id: 1 }];
    for (const sample of samples) {
      const result = body.safeParse(sample);
      if (result.success) continue;
      for (const issue of result.error.issues) expect(plainIssueMessage(issue)).not.toMatch(/Invalid input|Too big|Too small|expected|received/);
    }
  });
});
