import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PsaError, type PsaClient, type TPsaType } from '../src/index';
import { clientFor, firstBoardAndCompany, rawAutotask, rawConnectWise, startPsaSimulator, type TSimulator } from './sim-clients';

// Files attached to a ticket through the real adapters over HTTP (ConnectWise documents, Autotask ticket attachments),
// checked against the bytes the simulator kept; a send whose outcome is unknown, sent again, lands once.

const PSAS: TPsaType[] = ['connectwise', 'autotask'];
const UPLOAD_PATH: Record<TPsaType, (ticketId: number) => string> = {
  connectwise: () => '/v4_6_release/apis/3.0/system/documents',
  autotask: (ticketId) => `/ATServicesRest/V1.0/Tickets/${ticketId}/Attachments`,
};

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 600 }, (_, index) => (index * 37) % 256)]);
const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');

describe.each(PSAS)('%s ticket attachments against the simulator', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;
  let boardId: number;
  let companyId: number;

  async function newTicket(key: string): Promise<number> {
    return (await client.createTicket({ idempotencyKey: `${psaType}-attach-${key}`, summary: `Ticket ${key}`, description: 'Raised by the test.', boardId, companyId })).id;
  }

  const storedBytes = (ticketId: number, fileName: string) => sim.attachmentsOf(ticketId).filter((attachment) => attachment.fileName === fileName).map((attachment) => Buffer.from(attachment.data));

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor(psaType, sim);
    ({ boardId, companyId } = await firstBoardAndCompany(client));
  });
  afterEach(() => sim.faults.reset());
  afterAll(async () => sim.close());

  it('declares the capability', () => {
    expect(client.capabilities.ticketAttachments).toBe(true);
  });

  it('adds files to a ticket; the list gives the same names and sizes, and the PSA holds the very bytes', async () => {
    const ticketId = await newTicket('add');
    const first = await client.addAttachment(ticketId, { fileName: 'error.png', contentType: 'image/png', data: png });
    const second = await client.addAttachment(ticketId, { fileName: 'invoice.pdf', contentType: 'application/pdf', data: pdf });
    expect(first).toMatchObject({ fileName: 'error.png', size: png.byteLength });
    expect(second).toMatchObject({ fileName: 'invoice.pdf', size: pdf.byteLength });
    expect(await client.listAttachments(ticketId)).toEqual([first, second]);
    expect(storedBytes(ticketId, 'error.png')).toEqual([Buffer.from(png)]);
    expect(storedBytes(ticketId, 'invoice.pdf')).toEqual([Buffer.from(pdf)]);
    // As the PSA itself shows them, not only through the adapter that wrote them.
    const raw =
      psaType === 'connectwise'
        ? (await rawConnectWise(sim, `/system/documents?recordType=Ticket&recordId=${ticketId}`)) as { fileName: string; size: number }[]
        : ((await rawAutotask(sim, `/Tickets/${ticketId}/Attachments`)) as { items: { fullPath: string; fileSize: number }[] }).items.map((row) => ({ fileName: row.fullPath, size: row.fileSize }));
    expect(raw.map((row) => [row.fileName, row.size])).toEqual([
      ['error.png', png.byteLength],
      ['invoice.pdf', pdf.byteLength],
    ]);
    expect(await client.listAttachments(await newTicket('empty'))).toEqual([]);
  });

  it('lands once when the PSA stored the file but the answer was lost (500 after it), and the same file sent again finds it', async () => {
    const ticketId = await newTicket('lost-answer');
    sim.faults.failNext({ kind: 500, phase: 'after', method: 'POST', path: UPLOAD_PATH[psaType](ticketId) });
    const landed = await client.addAttachment(ticketId, { fileName: 'screen.png', contentType: 'image/png', data: png });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(storedBytes(ticketId, 'screen.png')).toHaveLength(1);
    // The outbox sends it again after a thrown error: the adapter looks it up first and answers the same attachment.
    const again = await client.addAttachment(ticketId, { fileName: 'screen.png', contentType: 'image/png', data: png });
    expect(again).toEqual(landed);
    expect(storedBytes(ticketId, 'screen.png')).toHaveLength(1);
  });

  it('lands once when a send threw with its outcome unknown (answer lost, the check failed too) and the outbox sends it again', async () => {
    const ticketId = await newTicket('thrown');
    // The network drops the check that follows the lost answer: the adapter cannot tell whether the file landed.
    let hasPosted = false;
    let isCheckDropped = false;
    const fetchOnce: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') hasPosted = true;
      else if (hasPosted && !isCheckDropped) {
        isCheckDropped = true;
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
      }
      return fetch(input, init);
    };
    const once = clientFor(psaType, sim, { fetch: fetchOnce, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1_000 } });
    sim.faults.failNext({ kind: 'drop', phase: 'after', method: 'POST', path: UPLOAD_PATH[psaType](ticketId) });
    const thrown = await once.addAttachment(ticketId, { fileName: 'log.txt', contentType: 'text/plain', data: pdf }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(PsaError);
    expect((thrown as PsaError).kind).toBe('unavailable');
    expect(isCheckDropped).toBe(true);
    expect(storedBytes(ticketId, 'log.txt')).toHaveLength(1);
    const sent = await once.addAttachment(ticketId, { fileName: 'log.txt', contentType: 'text/plain', data: pdf });
    expect(sent).toMatchObject({ fileName: 'log.txt', size: pdf.byteLength });
    expect(storedBytes(ticketId, 'log.txt')).toEqual([Buffer.from(pdf)]);
  });

  it('retries a rate-limited upload and a 500 before it was stored, landing once', async () => {
    const ticketId = await newTicket('retried');
    sim.faults.set({ retryAfterSeconds: 0.01 });
    sim.faults.failNext({ kind: 429, method: 'POST', path: UPLOAD_PATH[psaType](ticketId) });
    sim.faults.failNext({ kind: 500, method: 'POST', path: UPLOAD_PATH[psaType](ticketId) });
    await client.addAttachment(ticketId, { fileName: 'retry.png', contentType: 'image/png', data: png });
    expect(sim.faults.pendingCount()).toBe(0);
    expect(storedBytes(ticketId, 'retry.png')).toEqual([Buffer.from(png)]);
  });
});
