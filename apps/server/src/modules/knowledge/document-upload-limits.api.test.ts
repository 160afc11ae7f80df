import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import JSZip from 'jszip';
import { MESSAGES, type TApplication, type TRagSearchResponse } from '@switchboard/contracts';
import { auditEvents, knowledgeDocuments, uploads } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { pdfOfObjects } from '../../../test/document-files';

// The review's findings on A-065 uploads: a small .docx that unpacks to a huge document.xml (a zip bomb), a control
// character in the file's name (a 500), and no bound on the text or passages a document may produce.

let t: TTestApp;
let msp: TTestMsp;
let technician: TestClient;
let client: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
  // The built-in Client role may upload documents for its company (clientDocuments): the bomb's likeliest sender.
  client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '701' }));
});
afterAll(async () => {
  await t.close();
});

function uploadForm(file: { bytes: Buffer | string; name: string }, description = 'Runbook'): FormData {
  const form = new FormData();
  form.set('mspCustomDomain', msp.customDomain);
  form.set('description', description);
  form.set('file', new Blob([typeof file.bytes === 'string' ? Buffer.from(file.bytes) : file.bytes], { type: 'application/octet-stream' }), file.name);
  return form;
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const PACKAGE_RELATIONSHIPS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/** A Word document whose body is these paragraphs' XML, deflated as Word does; `extra` entries go in beside it. */
async function docxWithBody(bodyXml: string, extra: Record<string, Buffer> = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', PACKAGE_RELATIONSHIPS);
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}</w:body></w:document>`);
  for (const [name, bytes] of Object.entries(extra)) zip.file(name, bytes);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** The zip with the sizes its headers declare for `entryName` replaced by `declared`: a package that lies about its content. */
function withDeclaredSize(zip: Buffer, entryName: string, declared: number): Buffer {
  const patched = Buffer.from(zip);
  for (let offset = 0; offset + 46 <= patched.length; offset += 1) {
    const signature = patched.readUInt32LE(offset);
    if (signature === 0x04034b50 && patched.toString('utf8', offset + 30, offset + 30 + patched.readUInt16LE(offset + 26)) === entryName) patched.writeUInt32LE(declared, offset + 22);
    if (signature === 0x02014b50 && patched.toString('utf8', offset + 46, offset + 46 + patched.readUInt16LE(offset + 28)) === entryName) patched.writeUInt32LE(declared, offset + 24);
  }
  return patched;
}

/** A PDF of `count` empty pages. */
function pdfWithPages(count: number): Buffer {
  const pageIds = Array.from({ length: count }, (_, index) => index + 3);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${count} >>`,
    ...pageIds.map(() => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>'),
  ];
  return pdfOfObjects(objects);
}

/** What an upload of this MSP left behind: stored files, document rows and upload audit events. */
async function storedOfMsp() {
  const db = t.deps.database.db;
  const files = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.mspId, msp.id));
  const documents = await db.select({ id: knowledgeDocuments.id }).from(knowledgeDocuments).where(and(eq(knowledgeDocuments.mspId, msp.id), eq(knowledgeDocuments.kind, 'document')));
  const events = await db.select({ id: auditEvents.id }).from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'document.upload')));
  return { files: files.length, documents: documents.length, uploadEvents: events.length };
}

/** Uploads the file and expects a refusal with this status and wording that stored nothing. */
async function expectRefused(sender: TestClient, file: { bytes: Buffer | string; name: string }, status: number, detail: string) {
  const before = await storedOfMsp();
  const response = await sender.post('/db/applications/upload', uploadForm(file));
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toContain('application/problem+json');
  expect(response.json()).toMatchObject({ detail });
  expect(await storedOfMsp()).toEqual(before);
  return response;
}

describe('a Word document that unpacks to too much (the review’s zip bomb)', () => {
  it('refuses a 30 MB document.xml packed into a few hundred KB at once, before reading it, and stores nothing', async () => {
    const sentence = 'The label printer in reception jams when the roll is loaded without lowering the tension lever first. ';
    const bomb = await docxWithBody(paragraph(sentence.repeat(10)).repeat(30_000));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    await expectRefused(client, { bytes: bomb, name: 'printer.docx' }, 413, MESSAGES.documents.unpackedTooLarge);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a package whose headers say its document.xml is small when it unpacks to far more', async () => {
    const liar = withDeclaredSize(await docxWithBody(paragraph('Restart the spooler service. '.repeat(40)).repeat(25_000)), 'word/document.xml', 4096);
    const started = Date.now();
    await expectRefused(client, { bytes: liar, name: 'spooler.docx' }, 413, MESSAGES.documents.unpackedTooLarge);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a document.xml that unpacks to over 100 times its packed size', async () => {
    // 8 MB of one repeated paragraph: under the 20 MB bound, but a real document never packs this tightly.
    const repetitive = await docxWithBody(paragraph('x').repeat(150_000));
    await expectRefused(technician, { bytes: repetitive, name: 'repetitive.docx' }, 413, MESSAGES.documents.packedTooTightly);
  });

  it('still reads a normal deflated Word document with a picture in it', async () => {
    const picture = Buffer.from(Array.from({ length: 64 * 1024 }, (_, index) => (index * 7919) % 251));
    const docx = await docxWithBody([paragraph('Kiwi scanner: hold the power button for ten seconds to reset it.'), paragraph('Then pair it again from the tablet.')].join(''), { 'word/media/image1.png': picture });
    const response = await technician.post('/db/applications/upload', uploadForm({ bytes: docx, name: 'kiwi-scanner.docx' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ application: TApplication }>().application).toMatchObject({ fileName: 'kiwi-scanner.docx', chunkCount: 1 });
    const found = (await technician.post('/gpt/rag/search', { query: 'kiwi scanner reset power button', mspCustomDomain: msp.customDomain, limit: 5, mode: 'exact' })).json<TRagSearchResponse>();
    expect(found.results[0]).toMatchObject({ reference: 'kiwi-scanner.docx' });
  });
});

describe('bounds on what any document may produce', () => {
  // Refused, not cut: a cut document would be searchable only in its first part with no sign of it in the list,
  // so the person is told to split it and every part they upload is searchable in full.
  it('refuses a text file with more than 2,000,000 characters of text, storing nothing', async () => {
    await expectRefused(technician, { bytes: 'word '.repeat(400_001), name: 'long.txt' }, 413, MESSAGES.documents.textTooLong);
  });

  it('refuses a Markdown file that would make more than 5,000 passages', async () => {
    const sections = Array.from({ length: 5001 }, (_, index) => `# Step ${index}\n\nDo step ${index}.`).join('\n\n');
    await expectRefused(technician, { bytes: sections, name: 'steps.md' }, 413, MESSAGES.documents.tooManyPassages);
  });

  it('refuses a PDF of more than 2,000 pages', async () => {
    await expectRefused(technician, { bytes: pdfWithPages(2001), name: 'pages.pdf' }, 413, MESSAGES.documents.tooManyPages);
  });
});

describe('the uploaded file’s name', () => {
  it('drops a NUL and other control characters from the name instead of failing (was a 500)', async () => {
    const response = await technician.post('/db/applications/upload', uploadForm({ bytes: 'Kea router: reboot from the web console.', name: 'kea\u0000-rou\u0007ter.txt' }));
    expect(response.statusCode, response.body).toBe(201);
    const { application } = response.json<{ application: TApplication }>();
    expect(application.fileName).toBe('kea-router.txt');
    const [event] = await t.deps.database.db.select({ details: auditEvents.details }).from(auditEvents).where(and(eq(auditEvents.action, 'document.upload'), eq(auditEvents.target, application.id)));
    expect(event?.details).toMatchObject({ fileName: 'kea-router.txt' });
  });

  it('refuses a name of nothing but control characters with a plain 400', async () => {
    await expectRefused(technician, { bytes: 'Notes', name: '\u0001\u0002' }, 400, MESSAGES.documents.fileNameMissing);
  });

  it('keeps only the last part of a name with a path; where the file is stored never depends on the name', async () => {
    const response = await technician.post('/db/applications/upload', uploadForm({ bytes: 'Takahe badge reader notes', name: '../../etc/takahe.md' }));
    expect(response.statusCode, response.body).toBe(201);
    const { application } = response.json<{ application: TApplication }>();
    expect(application.fileName).toBe('takahe.md');
    const [row] = await t.deps.database.db.select({ uploadName: knowledgeDocuments.uploadName }).from(knowledgeDocuments).where(eq(knowledgeDocuments.id, application.id));
    expect(row?.uploadName).toMatch(/^documents\/[0-9a-f-]{36}$/);
    const download = await technician.get(`/db/${msp.customDomain}/applications/${application.id}/file`);
    expect(download.body).toBe('Takahe badge reader notes');
  });
});
