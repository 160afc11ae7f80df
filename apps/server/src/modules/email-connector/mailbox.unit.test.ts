import { describe, expect, it } from 'vitest';
import { EMAIL_CONNECTOR_MESSAGES } from '@switchboard/contracts';
import { mailboxErrorOf } from './mailbox';

/** A TLS failure as Node (and imapflow, which passes it on) reports it: the OpenSSL verify code in `code`. */
const tlsError = (code: string, message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), { code, ...extra });

// Review finding: a mail server whose certificate was expired, self-signed or for another name was reported as "could not
// be reached. Check the IMAP server and port", which sent the admin looking at the wrong thing.
describe('mailboxErrorOf: a certificate the mail server shows that cannot be trusted', () => {
  const certificateFailures: Array<[string, string]> = [
    ['CERT_HAS_EXPIRED', 'certificate has expired'],
    ['CERT_NOT_YET_VALID', 'certificate is not yet valid'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: Host: imap.northwind.test. is not in the cert's altnames: DNS:mail.other.test"],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'unable to get local issuer certificate'],
  ];

  it.each(certificateFailures)('says %s is a certificate problem, not an unreachable server', (code, message) => {
    const error = mailboxErrorOf(tlsError(code, message));
    expect(error.message).toBe(EMAIL_CONNECTOR_MESSAGES.certificateInvalid);
    expect(error.code).toBe('mail_server_unreachable');
  });

  it('says so too when the certificate fails after STARTTLS (imapflow marks the error tlsFailed)', () => {
    expect(mailboxErrorOf(tlsError('CERT_HAS_EXPIRED', 'certificate has expired', { tlsFailed: true })).message).toBe(EMAIL_CONNECTOR_MESSAGES.certificateInvalid);
  });

  it('keeps the other sentences: a server not there, one without STARTTLS, a refused sign-in', () => {
    expect(mailboxErrorOf(tlsError('ECONNREFUSED', 'connect ECONNREFUSED 203.0.113.7:993')).message).toBe(EMAIL_CONNECTOR_MESSAGES.unreachable);
    expect(mailboxErrorOf(tlsError('ENOTFOUND', 'getaddrinfo ENOTFOUND imap.nowhere.test')).message).toBe(EMAIL_CONNECTOR_MESSAGES.unreachable);
    expect(mailboxErrorOf(Object.assign(new Error('Server does not support STARTTLS'), { tlsFailed: true })).message).toBe(EMAIL_CONNECTOR_MESSAGES.notSecure);
    expect(mailboxErrorOf(Object.assign(new Error('Command failed'), { authenticationFailed: true })).message).toBe(EMAIL_CONNECTOR_MESSAGES.signInRefused);
  });
});
