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
    const origin = 'https://app.switchboard.test';
    expect(safeReturnPath('/dashboard/settings?tab=1', origin)).toBe('/dashboard/settings?tab=1');
    expect(safeReturnPath('//evil.example/x', origin)).toBeNull();
    expect(safeReturnPath('/\\evil.example', origin)).toBeNull();
    expect(safeReturnPath('https://evil.example/', origin)).toBeNull();
    expect(safeReturnPath(undefined, origin)).toBeNull();
  });

  // Security review: a browser drops tabs and newlines from a URL, so `/\t/evil.example/x` is `//evil.example/x`;
  // dot segments resolve to `//` too. Each is refused; a path on the app's own origin is kept as path, query and fragment.
  it.each(['/\t/evil.example/x', '/\n/evil.example/x', '/\r\n/evil.example', '/ /evil.example', '/\u00a0/evil.example', '/\u0000x', '/.//evil.example/x', '/a/..//evil.example', '/%2e//evil.example', 'http://app.switchboard.test:8443/x'])(
    'refuses the return path %j',
    (value) => expect(safeReturnPath(value, 'https://app.switchboard.test')).toBeNull(),
  );

  it('keeps a same-origin return address as its path, query and fragment', () => {
    expect(safeReturnPath('https://app.switchboard.test/dashboard?tab=2#keys', 'https://app.switchboard.test')).toBe('/dashboard?tab=2#keys');
    expect(safeReturnPath('/a/../dashboard', 'https://app.switchboard.test/')).toBe('/dashboard');
    expect(safeReturnPath('/%09/still-here', 'https://app.switchboard.test')).toBe('/%09/still-here');
  });

  it('keeps pending state for 10 minutes only', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    expect(isFresh(issuedAt, new Date(issuedAt + OIDC_PENDING_MS - 1))).toBe(true);
    expect(isFresh(issuedAt, new Date(issuedAt + OIDC_PENDING_MS))).toBe(false);
    expect(isFresh(issuedAt, new Date(issuedAt - 1000))).toBe(false);
  });
});
