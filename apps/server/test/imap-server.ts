import type { AddressInfo } from 'node:net';
import hoodiecrow from 'hoodiecrow-imap';

/**
 * A local IMAP server for the email connector's tests (a true boundary, like the PSA simulator): the
 * in-memory hoodiecrow-imap, speaking the protocol to the real imapflow client. One mailbox (INBOX);
 * `users` are the addresses and passwords it accepts.
 */
export interface TImapServer {
  host: string;
  port: number;
  /** `host:port`, for the test app's outbound allow-list. */
  hostPort: string;
  /** Delivers a message to INBOX (unseen unless flags say otherwise). */
  deliver(message: { from: string; subject?: string; text: string; messageId?: string; to?: string; headers?: Record<string, string>; flags?: string[] }): void;
  /** The flags of the INBOX message with this Message-ID (e.g. ['\\Seen']), or null when there is none. */
  flagsOf(messageId: string): string[] | null;
  /** While on, every UID STORE (marking \Seen) is refused with NO. */
  refuseFlagChanges(isRefused: boolean): void;
  close(): Promise<void>;
}

export async function startImapServer(users: Record<string, string>, options: { port?: number } = {}): Promise<TImapServer> {
  const server = hoodiecrow({
    plugins: ['ID', 'UNSELECT', 'ENABLE', 'LITERALPLUS', 'SASL-IR', 'AUTH-PLAIN'],
    users: Object.fromEntries(Object.entries(users).map(([user, password]) => [user, { password }])),
    storage: { INBOX: { messages: [] }, '': { separator: '/' } },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const storeHandler = server.getCommandHandler('UID STORE');
  const inbox = () => server.getMailbox('INBOX');
  const headerOf = (raw: string, name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(raw)?.[1]?.trim() ?? null;
  return {
    host: '127.0.0.1',
    port,
    hostPort: `127.0.0.1:${port}`,
    deliver(message) {
      const headers = {
        From: message.from,
        To: message.to ?? 'help@msp.test',
        ...(message.subject !== undefined ? { Subject: message.subject } : {}),
        ...(message.messageId ? { 'Message-ID': message.messageId } : {}),
        Date: new Date().toUTCString(),
        'Content-Type': 'text/plain; charset=utf-8',
        ...message.headers,
      };
      const raw = `${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}`;
      server.appendMessage('INBOX', message.flags ?? [], new Date(), raw);
    },
    flagsOf(messageId) {
      return inbox().messages.find((message) => headerOf(message.raw, 'Message-ID') === messageId)?.flags ?? null;
    },
    refuseFlagChanges(isRefused) {
      server.setCommandHandler(
        'UID STORE',
        isRefused
          ? (connection, parsed, data, callback) => {
              connection.send({ tag: parsed.tag, command: 'NO', attributes: [{ type: 'TEXT', value: 'STORE refused for the test' }] }, 'UID STORE', parsed, data);
              callback();
            }
          : storeHandler,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
