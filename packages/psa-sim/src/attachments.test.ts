import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, connectWiseCall, connectWiseHeaders } from './test-support';

// Files on a ticket, as each vendor's API takes and shows them: ConnectWise documents (multipart upload) and Autotask
// ticket attachments (base64 JSON); the simulator keeps the bytes, and write faults strike these endpoints too.

let sim: TPsaSimulator;
const TICKET = 100001;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 250, 251, 252, 253]);

beforeAll(async () => {
  sim = await startPsaSimulator();
});
afterEach(() => sim.faults.reset());
afterAll(async () => {
  await sim.close();
});

/** A multipart upload as a ConnectWise client sends it (fetch writes the boundary). */
async function uploadDocument(fields: Record<string, string>, file: { name: string; type: string; data: Buffer } | null) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const { 'Content-Type': _json, ...headers } = connectWiseHeaders(sim);
  const response = await fetch(`${sim.url}/v4_6_release/apis/3.0/system/documents`, { method: 'POST', headers, body: form });
  return { status: response.status, body: (await response.json()) };
}

describe('ConnectWise system/documents', () => {
  it('stores a multipart upload on the ticket with its bytes, and lists it by recordType and recordId', async () => {
    const created = await uploadDocument({ recordType: 'Ticket', recordId: String(TICKET), title: 'error.png' }, { name: 'error.png', type: 'image/png', data: PNG });
    expect(created.status).toBe(201);
    const document = asRecord(created.body);
    expect(document).toMatchObject({ title: 'error.png', fileName: 'error.png', size: PNG.length, imageFlag: true });
    const listed = asArray((await connectWiseCall(sim, 'GET', `/system/documents?recordType=Ticket&recordId=${TICKET}`)).body);
    expect(listed.map((row) => row.id)).toContain(document.id);
    expect(asArray((await connectWiseCall(sim, 'GET', '/system/documents?recordType=Ticket&recordId=100002')).body).map((row) => row.id)).not.toContain(document.id);
    const stored = sim.attachmentsOf(TICKET).find((attachment) => attachment.id === document.id);
    expect(stored && Buffer.from(stored.data).equals(PNG)).toBe(true);
    expect(stored?.contentType).toBe('image/png');
  });

  it('binds the form fields without regard to case, and refuses JSON (415), an unknown ticket and a missing file', async () => {
    const capitalised = await uploadDocument({ RecordType: 'Ticket', RecordId: String(TICKET), Title: 'log.txt' }, { name: 'log.txt', type: 'text/plain', data: Buffer.from('line one\n') });
    expect(capitalised.status).toBe(201);
    expect((await connectWiseCall(sim, 'POST', '/system/documents', { recordType: 'Ticket', recordId: TICKET, title: 'x' })).status).toBe(415);
    const refused = await uploadDocument({ recordType: 'Ticket', recordId: '999999', title: 'x' }, null);
    expect(refused.status).toBe(400);
    expect(asArray(asRecord(refused.body).errors).map((error) => error.field)).toEqual(['recordId', 'file']);
  });

  it('lands an upload whose answer is lost (a fault after it was stored): the list shows it once', async () => {
    const before = sim.attachmentsOf(TICKET).length;
    sim.faults.failNext({ kind: 500, phase: 'after', method: 'POST', path: '/v4_6_release/apis/3.0/system/documents' });
    const failed = await uploadDocument({ recordType: 'Ticket', recordId: String(TICKET), title: 'lost.pdf' }, { name: 'lost.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4') });
    expect(failed.status).toBe(500);
    expect(sim.faults.pendingCount()).toBe(0);
    expect(sim.attachmentsOf(TICKET).map((attachment) => attachment.fileName).filter((name) => name === 'lost.pdf')).toHaveLength(1);
    expect(sim.attachmentsOf(TICKET)).toHaveLength(before + 1);
  });
});

describe('Autotask Tickets/{id}/Attachments', () => {
  const body = (data: Buffer, name = 'error.png') => ({ id: 0, parentID: TICKET, attachmentType: 'FILE_ATTACHMENT', fullPath: name, title: name, data: data.toString('base64'), publish: 1 });

  it('stores a base64 attachment with its bytes; the list names it without data, the item carries the bytes', async () => {
    const created = await autotaskCall(sim, 'POST', `/Tickets/${TICKET}/Attachments`, body(PNG));
    expect(created.status).toBe(200);
    const id = asRecord(created.body).itemId;
    const listed = asArray(asRecord((await autotaskCall(sim, 'GET', `/Tickets/${TICKET}/Attachments`)).body).items);
    const row = listed.find((candidate) => candidate.id === id);
    expect(row).toMatchObject({ parentID: TICKET, fullPath: 'error.png', title: 'error.png', fileSize: PNG.length, contentType: 'image/png', attachmentType: 'FILE_ATTACHMENT' });
    expect(row?.data).toBeUndefined();
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', `/Tickets/${TICKET}/Attachments/${String(id)}`)).body).item);
    expect(Buffer.from(String(item.data), 'base64').equals(PNG)).toBe(true);
    const stored = sim.attachmentsOf(TICKET).find((attachment) => attachment.id === id);
    expect(stored && Buffer.from(stored.data).equals(PNG)).toBe(true);
  });

  it('refuses a file over 7 MB, a missing title and an unknown ticket with Autotask’s 500 and messages', async () => {
    const tooLarge = await autotaskCall(sim, 'POST', `/Tickets/${TICKET}/Attachments`, body(Buffer.alloc(7 * 1024 * 1024 + 1), 'big.bin'));
    expect(tooLarge.status).toBe(500);
    expect(JSON.stringify(tooLarge.body)).toMatch(/exceeds/);
    expect((await autotaskCall(sim, 'POST', `/Tickets/${TICKET}/Attachments`, { ...body(PNG), title: '' })).status).toBe(500);
    expect((await autotaskCall(sim, 'POST', '/Tickets/999999/Attachments', body(PNG))).status).toBe(500);
  });

  it('lands an attachment whose answer is lost (a fault after it was stored) once', async () => {
    const before = sim.attachmentsOf(TICKET).length;
    sim.faults.failNext({ kind: 'drop', phase: 'after', method: 'POST', path: `/ATServicesRest/V1.0/Tickets/${TICKET}/Attachments` });
    await expect(autotaskCall(sim, 'POST', `/Tickets/${TICKET}/Attachments`, body(Buffer.from('%PDF-1.4'), 'lost.pdf'))).rejects.toThrow();
    expect(sim.attachmentsOf(TICKET)).toHaveLength(before + 1);
  });
});
