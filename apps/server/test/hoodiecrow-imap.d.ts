/** The few parts of hoodiecrow-imap (an in-memory IMAP server, CommonJS without types) the tests use. */
declare module 'hoodiecrow-imap' {
  import type { Server } from 'node:net';

  interface THoodiecrowMessage {
    raw: string;
    flags: string[];
    uid?: number;
    internaldate?: string | Date;
  }
  interface THoodiecrowMailbox {
    messages: THoodiecrowMessage[];
  }
  type TCommandHandler = (connection: { send(response: object, description: string, parsed: object, data: unknown): void }, parsed: { tag: string }, data: unknown, callback: () => void) => void;
  interface THoodiecrowServer {
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback?: () => void): void;
    getMailbox(path: string): THoodiecrowMailbox;
    appendMessage(mailbox: string, flags: string[], internaldate: Date | string, raw: string): { message: THoodiecrowMessage };
    getCommandHandler(command: string): TCommandHandler;
    setCommandHandler(command: string, handler: TCommandHandler): void;
  }
  function hoodiecrow(options: { plugins?: string[]; users?: Record<string, { password: string }>; storage?: Record<string, unknown> }): THoodiecrowServer;
  export = hoodiecrow;
}
