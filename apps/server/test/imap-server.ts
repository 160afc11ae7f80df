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
  /**
   * Delivers a message to INBOX (unseen unless flags say otherwise). With `attachments` it is multipart/mixed, each file
   * base64-encoded; a file with a `contentId` is an inline image of an HTML part (multipart/related, `<img src="cid:…">`).
   */
  deliver(message: { from: string; subject?: string; text: string; messageId?: string; to?: string; headers?: Record<string, string>; flags?: string[]; attachments?: TImapAttachment[] }): void;
  /** The flags of the INBOX message with this Message-ID (e.g. ['\\Seen']), or null when there is none. */
  flagsOf(messageId: string): string[] | null;
  /** A person reads the INBOX message with this Message-ID in their mail program (\Seen added). */
  markSeen(messageId: string): void;
  /** While on, every UID STORE (marking \Seen) is refused with NO. */
  refuseFlagChanges(isRefused: boolean): void;
  close(): Promise<void>;
}

export interface TImapAttachment {
  fileName: string;
  contentType: string;
  data: Buffer;
  /** Makes it an inline image referenced from the HTML part by `cid:`. */
  contentId?: string;
}

/** A file as a MIME part: base64 in 76-character lines. */
function filePart(file: TImapAttachment): string {
  const disposition = file.contentId ? 'inline' : 'attachment';
  const headers = [`Content-Type: ${file.contentType}; name="${file.fileName}"`, `Content-Disposition: ${disposition}; filename="${file.fileName}"`, 'Content-Transfer-Encoding: base64'];
  if (file.contentId) headers.push(`Content-ID: <${file.contentId}>`);
  return `${headers.join('\r\n')}\r\n\r\n${(file.data.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')}`;
}

/** The body of a mail with files: the text (with an HTML twin holding the inline images when there are some), then the files. */
function multipartBody(text: string, files: readonly TImapAttachment[]): { contentType: string; body: string } {
  const mixed = 'mixed-boundary-7f3a';
  const textPart = `Content-Type: text/plain; charset=utf-8\r\n\r\n${text}`;
  const inline = files.filter((file) => file.contentId);
  let first = textPart;
  if (inline.length > 0) {
    const related = 'related-boundary-91c2';
    const alternative = 'alternative-boundary-2d5e';
    const html = `Content-Type: text/html; charset=utf-8\r\n\r\n<p>${text}</p>${inline.map((file) => `<img src="cid:${file.contentId ?? ''}">`).join('')}`;
    const htmlWithImages = [`--${related}`, html, ...inline.flatMap((file) => [`--${related}`, filePart(file)]), `--${related}--`].join('\r\n');
    first = [`Content-Type: multipart/alternative; boundary="${alternative}"\r\n`, `--${alternative}`, textPart, `--${alternative}`, `Content-Type: multipart/related; boundary="${related}"\r\n`, htmlWithImages, `--${alternative}--`].join('\r\n');
  }
  const attached = files.filter((file) => !file.contentId);
  const body = [`--${mixed}`, first, ...attached.flatMap((file) => [`--${mixed}`, filePart(file)]), `--${mixed}--`, ''].join('\r\n');
  return { contentType: `multipart/mixed; boundary="${mixed}"`, body };
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
        'MIME-Version': '1.0',
        'Content-Type': 'text/plain; charset=utf-8',
        ...message.headers,
      };
      const text = message.text.replace(/\r?\n/g, '\r\n');
      const multipart = message.attachments?.length ? multipartBody(text, message.attachments) : null;
      if (multipart) headers['Content-Type'] = multipart.contentType;
      const raw = `${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n${multipart?.body ?? text}`;
      server.appendMessage('INBOX', message.flags ?? [], new Date(), raw);
    },
    flagsOf(messageId) {
      return inbox().messages.find((message) => headerOf(message.raw, 'Message-ID') === messageId)?.flags ?? null;
    },
    markSeen(messageId) {
      const message = inbox().messages.find((candidate) => headerOf(candidate.raw, 'Message-ID') === messageId);
      if (!message) throw new Error(`no message ${messageId} in INBOX`);
      if (!message.flags.includes('\\Seen')) message.flags.push('\\Seen');
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
