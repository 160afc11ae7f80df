// Review s29: the product's own mail (sign-in codes, SLA alerts) came back into a help-desk mailbox as client mail. It
// now says it is automatic (RFC 3834), which the mail connector — and any mail program's auto-reply — respects.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TDatabase } from '@switchboard/db';
import { createMailer } from './mailer';

/** The least SMTP server nodemailer talks to: accepts every mail and keeps its raw text. */
async function startSmtpSink(): Promise<{ port: number; messages: string[]; server: Server }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let isData = false;
    let buffered = '';
    let message = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      let newline = buffered.indexOf('\r\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 2);
        newline = buffered.indexOf('\r\n');
        if (isData) {
          if (line === '.') {
            isData = false;
            messages.push(message);
            message = '';
            socket.write('250 OK\r\n');
          } else message += `${line}\r\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 sink\r\n');
        else if (/^DATA/i.test(line)) {
          isData = true;
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP sink has no port');
  return { port: address.port, messages, server };
}

let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
afterEach(async () => {
  await new Promise((resolve) => sink?.server.close(resolve) ?? resolve(undefined));
});

describe('the mailer', () => {
  it('marks every mail it sends Auto-Submitted: auto-generated', async () => {
    sink = await startSmtpSink();
    const mailer = createMailer({ db: {} as TDatabase, smtpUrl: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true`, from: 'Switchboard <no-reply@switchboard.local>', keepCopies: false });
    await mailer.send({ to: 'tech@msp.test', subject: 'Your Switchboard verification code', text: '483920' });
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]).toMatch(/^Auto-Submitted: auto-generated\r$/m);
  });
});
