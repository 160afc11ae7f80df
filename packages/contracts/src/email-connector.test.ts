import { describe, expect, it } from 'vitest';
import { defaultImapServerOf } from './email-connector';
import { ZSaveEmailConnectorBody } from './schemas/email-connector';

describe('defaultImapServerOf', () => {
  it('finds the IMAP server of Microsoft 365, Outlook.com and Gmail addresses by their domain', () => {
    for (const address of ['desk@outlook.com', 'Desk@Hotmail.com', 'desk@live.com', 'desk@contoso.onmicrosoft.com']) {
      expect(defaultImapServerOf(address), address).toEqual({ host: 'outlook.office365.com', port: 993 });
    }
    for (const address of ['desk@gmail.com', 'desk@googlemail.com']) expect(defaultImapServerOf(address), address).toEqual({ host: 'imap.gmail.com', port: 993 });
  });

  it('finds nothing for any other domain, nor for look-alikes', () => {
    for (const address of ['help@msp.test', 'help@gmail.com.evil.test', 'help@notoutlook.com', 'help@onmicrosoft.com', 'no-at-sign']) {
      expect(defaultImapServerOf(address), address).toBeNull();
    }
  });
});

describe('ZSaveEmailConnectorBody', () => {
  it('takes a host name or address literal, not a URL or a host with a port', () => {
    const parse = (imapHost: string) => ZSaveEmailConnectorBody.safeParse({ address: 'help@msp.test', appPassword: 'x', imapHost }).success;
    expect(parse('imap.msp.test')).toBe(true);
    expect(parse('[2001:db8::1]')).toBe(true);
    expect(parse('')).toBe(true);
    expect(parse('https://imap.msp.test')).toBe(false);
    expect(parse('imap.msp.test:993')).toBe(false);
    expect(parse('imap msp.test')).toBe(false);
  });
});
