import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { EMAIL_CONNECTOR_MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { assertOutboundUrlAllowed, isForbiddenAddress } from '../../lib/ssrf-guard';

/** Where and as whom the connector signs in. */
export interface TMailboxAccount {
  address: string;
  password: string;
  host: string;
  port: number;
}

const IMAP_FIELD = { name: 'imapHost', label: 'IMAP server' };
const CONNECT_TIMEOUT_MS = 15_000;
/** A message larger than this is not fetched whole (its files would arrive cut): its ticket is made from its headers and text, and names its files as left in the mailbox (`readMessage`). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const isAllowListed = (allowList: readonly string[], host: string, port: number) =>
  allowList.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted === `${host.toLowerCase()}:${port}` || wanted === `[${host.toLowerCase()}]:${port}`;
  });

/**
 * The connection options for a tenant's mail server (DESIGN §4, as for PSA and model addresses): the host
 * passes the SSRF guard, and the connection goes to the very address the guard checked (the name is kept
 * for TLS), so a DNS answer that changes afterwards cannot point it at a private address. The password
 * never crosses the wire in clear: port 993 is TLS from the start, any other port must upgrade with
 * STARTTLS. Only a server on the operator's allow-list (a local test server) may be plain.
 */
export async function connectionOptionsFor(account: TMailboxAccount, allowList: readonly string[]): Promise<ImapFlowOptions> {
  const host = account.host.replace(/^\[|\]$/g, '');
  const common: ImapFlowOptions = {
    port: account.port,
    auth: { user: account.address, pass: account.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: 60_000,
  };
  if (isAllowListed(allowList, host, account.port)) return { ...common, host, secure: false };
  let checked: string[] = [];
  await assertOutboundUrlAllowed(`https://${isIP(host) === 6 ? `[${host}]` : host}:${account.port}`, {
    allowList,
    field: IMAP_FIELD,
    resolveHost: async (name) => {
      checked = (await lookup(name, { all: true, verbatim: true })).map((entry) => entry.address);
      return checked;
    },
  });
  // The guard refused any answer holding a forbidden address, so every address left is one it allowed.
  const address = isIP(host) !== 0 ? host : checked.find((candidate) => !isForbiddenAddress(candidate));
  if (!address) throw new AppError('mail_server_unreachable', EMAIL_CONNECTOR_MESSAGES.unreachable);
  const isTls = account.port === 993;
  return { ...common, host: address, servername: isIP(host) === 0 ? host : undefined, secure: isTls, doSTARTTLS: isTls ? undefined : true };
}

/**
 * Node's codes for a TLS certificate it will not trust (OpenSSL's verify codes, and the name check's); imapflow passes the
 * socket's error on with its code.
 */
const CERTIFICATE_ERROR_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** An imapflow failure as the sentence the admin reads: a refused sign-in, a certificate not to trust, no TLS, or a server that is not there. */
export function mailboxErrorOf(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const failure = error as { authenticationFailed?: boolean; code?: string; message?: string } | null;
  if (failure?.authenticationFailed) {
    return new AppError('validation', EMAIL_CONNECTOR_MESSAGES.signInRefused, { invalidParams: [{ name: 'appPassword', reason: EMAIL_CONNECTOR_MESSAGES.signInRefused }] });
  }
  // Before the STARTTLS check: a certificate refused after STARTTLS is a certificate problem, not a server without TLS.
  if (failure?.code !== undefined && CERTIFICATE_ERROR_CODES.has(failure.code)) return new AppError('mail_server_unreachable', EMAIL_CONNECTOR_MESSAGES.certificateInvalid);
  if (failure?.code === 'STARTTLS_REQUIRED' || /starttls/i.test(failure?.message ?? '')) return new AppError('mail_server_unreachable', EMAIL_CONNECTOR_MESSAGES.notSecure);
  return new AppError('mail_server_unreachable', EMAIL_CONNECTOR_MESSAGES.unreachable);
}

/** Signs in to the mailbox and opens it; throws `mailboxErrorOf` sentences. The caller logs out. */
export async function openMailbox(account: TMailboxAccount, allowList: readonly string[]): Promise<ImapFlow> {
  const options = await connectionOptionsFor(account, allowList);
  const client = new ImapFlow(options);
  // A dropped connection is reported through the pending command; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.close();
    throw mailboxErrorOf(error);
  }
}

/** Proves the address and password open the mailbox (the save's check): signs in, selects INBOX, signs out. */
export async function verifyMailbox(account: TMailboxAccount, allowList: readonly string[]): Promise<void> {
  const client = await openMailbox(account, allowList);
  try {
    await client.mailboxOpen('INBOX', { readOnly: true });
  } catch (error) {
    throw mailboxErrorOf(error);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
