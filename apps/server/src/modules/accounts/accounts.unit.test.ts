import { describe, expect, it } from 'vitest';
import { MESSAGES, validateAccountSignup, validateProviderAccountDetails } from '@switchboard/contracts';
import { isFresh, OIDC_PENDING_MS, safeReturnPath } from './oidc.service';

const form = {
  password: 'Str0ng!Pass',
  phoneNumber: '303 555 0142',
  email: 'dana@acme-it.example',
  firstName: 'Dana',
  lastName: 'Reyes',
  companyName: 'Acme Services 2',
  companyAddress: { street: '12 Main St.', city: 'Denver', state: 'Colorado', zipcode: '80202' },
};

describe('validateAccountSignup (01 §5)', () => {
  it('accepts a complete, valid form', () => {
    expect(validateAccountSignup(form)).toBeNull();
  });

  it('reports the password before everything else', () => {
    expect(validateAccountSignup({ ...form, password: '', email: '', firstName: '' })).toBe(MESSAGES.signup.password.required);
    expect(validateAccountSignup({ ...form, password: 'Sh0rt!', email: 'bad' })).toBe(MESSAGES.signup.password.invalid);
  });

  it('applies the rest of the one password rule after the length (decisions #10)', () => {
    expect(validateAccountSignup({ ...form, password: 'NoSpecial1' })).toBe(MESSAGES.passwordRules.special);
    expect(validateAccountSignup({ ...form, password: 'no-upper!1' })).toBe(MESSAGES.passwordRules.uppercase);
  });

  it('accepts 9- and 10-digit phones once non-digits are stripped, nothing else', () => {
    expect(validateAccountSignup({ ...form, phoneNumber: '303-555-014' })).toBeNull();
    expect(validateAccountSignup({ ...form, phoneNumber: '+1 303 555 0142' })).toBe(MESSAGES.signup.phoneNumber.invalid);
  });

  it('checks the email shape of 01 §5 (TLD of 2 to 7 letters)', () => {
    expect(validateAccountSignup({ ...form, email: 'dana.reyes-2@mail.acme.io' })).toBeNull();
    expect(validateAccountSignup({ ...form, email: 'dana@acme.c' })).toBe(MESSAGES.signup.email.invalid);
    expect(validateAccountSignup({ ...form, email: 'dana@acme.toolongtld' })).toBe(MESSAGES.signup.email.invalid);
  });
});

describe('validateProviderAccountDetails (A-067)', () => {
  const details = { firstName: 'Alex', lastName: 'Morgan', companyName: 'Contoso', phoneNumber: '3035550177', companyAddress: form.companyAddress };

  it('needs no password or email (the provider verified the email)', () => {
    expect(validateProviderAccountDetails(details)).toBeNull();
  });

  it('keeps the sign-up order for the remaining fields', () => {
    expect(validateProviderAccountDetails({ ...details, phoneNumber: '', firstName: '' })).toBe(MESSAGES.signup.phoneNumber.required);
    expect(validateProviderAccountDetails({ ...details, lastName: 'M0rgan!', companyName: '' })).toBe(MESSAGES.signup.lastName.invalid);
    expect(validateProviderAccountDetails({ ...details, companyAddress: { ...form.companyAddress, zipcode: '', state: '' } })).toBe(MESSAGES.signup.zipcode.required);
  });
});

describe('provider sign-in helpers', () => {
  it('follows only same-site return paths', () => {
    expect(safeReturnPath('/dashboard/settings?tab=1')).toBe('/dashboard/settings?tab=1');
    expect(safeReturnPath('//evil.example/x')).toBeNull();
    expect(safeReturnPath('/\\evil.example')).toBeNull();
    expect(safeReturnPath('https://evil.example/')).toBeNull();
    expect(safeReturnPath(undefined)).toBeNull();
  });

  it('keeps pending state for 10 minutes only', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    expect(isFresh(issuedAt, new Date(issuedAt + OIDC_PENDING_MS - 1))).toBe(true);
    expect(isFresh(issuedAt, new Date(issuedAt + OIDC_PENDING_MS))).toBe(false);
    expect(isFresh(issuedAt, new Date(issuedAt - 1000))).toBe(false);
  });
});
