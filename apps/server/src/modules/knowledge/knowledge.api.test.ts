import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, permissionMap, type TApplication, type TApplicationList, type TDeleteApplicationResponse, type TKnowledgeArticle, type TKnowledgeArticleList, type TRagSearchResponse } from '@switchboard/contracts';
import { auditEvents, knowledgeChunks, roles, uploads } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';
import { docxWithText, pdfWithText } from '../../../test/document-files';
import { upsertTicketCopies } from '../boards/ticket-copies.repository';
import { loadDemoKbArticles, seedKbArticles } from './kb-articles';

let t: TTestApp;
let msp: TTestMsp;
let technician: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
});
afterAll(async () => {
  await t.close();
});

function uploadForm(file: { bytes: Buffer | string; name: string; type?: string } | null, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([typeof file.bytes === 'string' ? Buffer.from(file.bytes) : file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}

async function upload(client: TestClient, file: { bytes: Buffer | string; name: string }, description = 'Runbook', fields: Record<string, string> = {}) {
  const response = await client.post('/db/applications/upload', uploadForm(file, { mspCustomDomain: msp.customDomain, description, ...fields }));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ application: TApplication }>().application;
}

async function search(client: TestClient, query: string, mspCustomDomain = msp.customDomain) {
  return client.post('/gpt/rag/search', { query, mspCustomDomain, limit: 5, mode: 'near' });
}

describe('A-065 upload and A-022 list of tools/documents', () => {
  it('stores a Markdown runbook, lists it with its description, and finds its text by search', async () => {
    const document = await upload(technician, { bytes: '# Zebra label printer\n\nIf the Zebra ZD420 prints blank labels, recalibrate: hold the feed button until it flashes twice.', name: 'zebra-printer.md' }, 'Label printer runbook');
    expect(document).toMatchObject({ fileName: 'zebra-printer.md', contentType: 'text/markdown', description: 'Label printer runbook', mspCustomDomain: msp.customDomain });
    expect(document.chunkCount).toBeGreaterThan(0);

    const list = await technician.get(`/db/applications/msp/${msp.customDomain}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<TApplicationList>().applications.map((application) => application.id)).toContain(document.id);

    const found = await search(technician, 'label printer prints blank labels');
    expect(found.statusCode).toBe(200);
    const [best] = found.json<TRagSearchResponse>().results;
    expect(best).toMatchObject({ kind: 'document', id: document.id, reference: 'zebra-printer.md' });
    expect(best?.snippet).toContain('recalibrate');
  });

  it('reads the text of a PDF and of a Word document', async () => {
    await upload(technician, { bytes: pdfWithText(['Sage 50 backup fails with error 1603', 'Close the company file on every workstation first']), name: 'sage.pdf' });
    await upload(technician, { bytes: await docxWithText(['Plotter HP DesignJet jams on roll paper', 'Lower the roll tension lever before loading']), name: 'plotter.docx' });
    const pdf = (await search(technician, 'Sage backup error 1603')).json<TRagSearchResponse>().results[0];
    expect(pdf).toMatchObject({ kind: 'document', reference: 'sage.pdf' });
    const docx = (await search(technician, 'DesignJet roll tension')).json<TRagSearchResponse>().results[0];
    expect(docx).toMatchObject({ kind: 'document', reference: 'plotter.docx' });
  });

  it('refuses a missing file, a file that is not a document, an empty one and a file over 10 MB', async () => {
    const missing = await technician.post('/db/applications/upload', uploadForm(null, { description: 'x' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'file_missing', detail: MESSAGES.documents.fileMissing });

    const png = await technician.post('/db/applications/upload', uploadForm({ bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), name: 'shot.pdf' }));
    expect(png.statusCode).toBe(415);
    expect(png.json()).toMatchObject({ code: 'file_type', detail: MESSAGES.documents.fileType });

    const zipNotDocx = await technician.post('/db/applications/upload', uploadForm({ bytes: await docxWithText(['x']), name: 'archive.zip' }));
    expect(zipNotDocx.statusCode).toBe(415);

    const blank = await technician.post('/db/applications/upload', uploadForm({ bytes: '   \n ', name: 'blank.txt' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ detail: MESSAGES.documents.noText });

    const huge = await technician.post('/db/applications/upload', uploadForm({ bytes: Buffer.alloc(10 * 1024 * 1024 + 10, 'a'), name: 'huge.txt' }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'file_size', detail: MESSAGES.documents.fileSize });
  });

  it('words an empty file, a broken Word document and a blank text file each for what it is (the empty file read "Please choose a file", the broken one had the scanned-PDF hint)', async () => {
    const empty = await technician.post('/db/applications/upload', uploadForm({ bytes: Buffer.alloc(0), name: 'empty.txt' }, { description: 'x' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ detail: MESSAGES.documents.fileEmpty });

    const brokenDocx = await technician.post('/db/applications/upload', uploadForm({ bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('not really a Word document')]), name: 'broken.docx' }));
    expect(brokenDocx.statusCode).toBe(400);
    expect(brokenDocx.json()).toMatchObject({ detail: MESSAGES.documents.cannotRead });

    const truncatedDocx = await technician.post('/db/applications/upload', uploadForm({ bytes: (await docxWithText(['Half a file'])).subarray(0, 200), name: 'truncated.docx' }));
    expect(truncatedDocx.statusCode).toBe(400);
    expect(truncatedDocx.json()).toMatchObject({ detail: MESSAGES.documents.cannotRead });

    const blank = await technician.post('/db/applications/upload', uploadForm({ bytes: '   \n ', name: 'blank.md' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ detail: MESSAGES.documents.noText });

    const scanned = await technician.post('/db/applications/upload', uploadForm({ bytes: pdfWithText([]), name: 'scan.pdf' }));
    expect(scanned.statusCode).toBe(400);
    expect(scanned.json()).toMatchObject({ detail: MESSAGES.documents.unreadable });
  });

  // Review s29 #3: headings alone were accepted ("Document uploaded.") with 0 searchable passages, so nothing could ever find them.
  it('makes a Markdown file of headings alone searchable by its headings', async () => {
    const document = await upload(technician, { bytes: '# Echidna switch\n\n## Bilby router firmware\n', name: 'outline.md' });
    expect(document.chunkCount).toBe(2);
    const [best] = (await search(technician, 'bilby router firmware')).json<TRagSearchResponse>().results;
    expect(best).toMatchObject({ kind: 'document', id: document.id });
    // Headings with no words in them make no passage: refused, not stored unfindable.
    const wordless = await technician.post('/db/applications/upload', uploadForm({ bytes: '# **\n\n## __\n', name: 'wordless.md' }));
    expect(wordless.statusCode).toBe(400);
    expect(wordless.json()).toMatchObject({ detail: MESSAGES.documents.noText });
  });

  it('gives a file named only ".md" a plain title (it was stored and cited with an empty one)', async () => {
    const document = await upload(technician, { bytes: 'Platypus modem: hold reset for ten seconds, then wait for the green light.', name: '.md' });
    expect(document.fileName).toBe('.md');
    const [best] = (await search(technician, 'platypus modem reset')).json<TRagSearchResponse>().results;
    expect(best).toMatchObject({ id: document.id, title: MESSAGES.documents.untitledDocument, reference: '.md' });
  });

  // Review s29 #5: a form with two files answered 413 "What was sent is too large." though nothing was large.
  it('refuses two files in one upload with "Upload one file at a time."', async () => {
    const form = uploadForm({ bytes: 'First runbook text.', name: 'one.txt' }, { mspCustomDomain: msp.customDomain });
    form.append('file', new Blob([Buffer.from('Second runbook text.')], { type: 'text/plain' }), 'two.txt');
    const response = await technician.post('/db/applications/upload', form);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: MESSAGES.uploadOneFile });
  });

  it('words a description that is too long', async () => {
    const response = await technician.post('/db/applications/upload', uploadForm({ bytes: 'text', name: 'a.txt' }, { description: 'd'.repeat(1001) }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: 'Description is too long (at most 1000 characters).' });
  });

  it('writes an audit event for an upload', async () => {
    const document = await upload(technician, { bytes: 'Audit me', name: 'audit.txt' });
    const events = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'document.upload'), eq(auditEvents.target, document.id)));
    expect(events).toHaveLength(1);
  });
});

describe('tenancy and access of documents and search', () => {
  it('keeps one MSP’s documents from another: 404 for its list, search and upload, no hits of its text', async () => {
    const other = await buildMsp(t);
    const outsider = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    await upload(technician, { bytes: 'Quokka VPN concentrator reboot procedure', name: 'quokka.txt' });
    expect((await outsider.get(`/db/applications/msp/${msp.customDomain}`)).statusCode).toBe(404);
    expect((await outsider.get(`/db/applications/msp/${msp.id}`)).statusCode).toBe(404);
    expect((await search(outsider, 'Quokka VPN', msp.customDomain)).statusCode).toBe(404);
    const own = await search(outsider, 'Quokka VPN concentrator', other.customDomain);
    expect(own.statusCode).toBe(200);
    expect(own.json<TRagSearchResponse>().results).toEqual([]);
    const upload403 = await outsider.post('/db/applications/upload', uploadForm({ bytes: 'x', name: 'x.txt' }, { mspCustomDomain: msp.customDomain }));
    expect(upload403.statusCode).toBe(404);
  });

  it('shows a client user only shared knowledge and their own company’s documents and resolutions', async () => {
    const clientA = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '501' }));
    const clientB = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '502' }));
    const documentOfA = await upload(clientA, { bytes: 'Wombat dental imaging bridge restart steps', name: 'wombat.txt' });
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [
      { externalId: 9001, summary: 'Wombat imaging bridge down', company: { id: 502, name: 'B Co' }, isClosed: true, resolution: 'Restarted the wombat bridge service for company B' },
    ]);

    const seenByB = (await search(clientB, 'wombat imaging bridge')).json<TRagSearchResponse>().results;
    expect(seenByB.map((result) => result.kind)).toEqual(['resolution']);
    expect(seenByB[0]?.snippet).toContain('company B');
    const seenByA = (await search(clientA, 'wombat imaging bridge')).json<TRagSearchResponse>().results;
    expect(seenByA.map((result) => result.id)).toEqual([documentOfA.id]);
    const listB = (await clientB.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications;
    expect(listB.map((application) => application.id)).not.toContain(documentOfA.id);
    // The technician sees both.
    const seenByTechnician = (await search(technician, 'wombat imaging bridge')).json<TRagSearchResponse>().results;
    expect(new Set(seenByTechnician.map((result) => result.kind))).toEqual(new Set(['document', 'resolution']));
  });

  it('keeps a technician’s upload for technicians unless they share it: a client user cannot list, find, download or chat with it (decision 034)', async () => {
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '701' }));
    const runbook = await upload(technician, { bytes: 'Quokka firewall: reset the admin password from the console cable.', name: 'quokka-runbook.txt' });
    expect(runbook.audience).toBe('technicians');
    const guide = await upload(technician, { bytes: 'Quokka guest Wi-Fi: join QuokkaGuest and accept the terms.', name: 'quokka-guide.txt' }, 'For staff', { audience: 'everyone' });
    expect(guide.audience).toBe('everyone');
    const ofClient = await upload(client, { bytes: 'Quokka label printer notes of our office', name: 'quokka-office.txt' }, 'Ours', { audience: 'technicians' });
    // A client user's upload is for their company's people: they cannot hide it from themselves.
    expect(ofClient.audience).toBe('everyone');

    const listed = (await client.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications.map((application) => application.id);
    expect(listed).toEqual(expect.arrayContaining([guide.id, ofClient.id]));
    expect(listed).not.toContain(runbook.id);
    const found = (await search(client, 'quokka firewall admin password guest wifi')).json<TRagSearchResponse>().results.map((result) => result.id);
    expect(found).toContain(guide.id);
    expect(found).not.toContain(runbook.id);
    expect((await client.get(`/db/${msp.customDomain}/applications/${runbook.id}/file`)).statusCode).toBe(404);
    const chat = await client.post('/docs/chat', { id: runbook.id, documentMessage: 'How do I reset the firewall password?' });
    expect(chat.statusCode).toBe(404);

    const seenByTechnician = (await search(technician, 'quokka firewall admin password guest wifi')).json<TRagSearchResponse>().results.map((result) => result.id);
    expect(seenByTechnician).toEqual(expect.arrayContaining([runbook.id, guide.id]));
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'document.upload'), eq(auditEvents.target, runbook.id)));
    expect(audit[0]?.details).toMatchObject({ audience: 'technicians' });
  });

  it('lets a technician change who reads a document; a client user may not, and a company’s own upload stays for its people', async () => {
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '711' }));
    const runbook = await upload(technician, { bytes: 'Wombat router: the guest network password is on the sign at reception.', name: 'wombat-guest.txt' });
    const readersOf = (id: string) => `/db/${msp.customDomain}/applications/${id}/readers`;
    const listedForClient = async () => (await client.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications.map((application) => application.id);
    expect(await listedForClient()).not.toContain(runbook.id);

    const shared = await technician.put(readersOf(runbook.id), { audience: 'everyone' });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json<{ application: TApplication }>().application.audience).toBe('everyone');
    expect(await listedForClient()).toContain(runbook.id);
    expect((await search(client, 'wombat guest network password')).json<TRagSearchResponse>().results.map((result) => result.id)).toContain(runbook.id);
    const audit = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'document.readers'), eq(auditEvents.target, runbook.id)));
    expect(audit[0]?.details).toMatchObject({ from: 'technicians', to: 'everyone' });

    expect((await client.put(readersOf(runbook.id), { audience: 'technicians' })).statusCode).toBe(403);
    const wrong = await technician.put(readersOf(runbook.id), { audience: 'nobody' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'validation', detail: 'Choose who can read the document: technicians only, or technicians and client users.' });
    const ofCompany = await upload(client, { bytes: 'Our own wombat notes', name: 'wombat-ours.txt' });
    const hidden = await technician.put(readersOf(ofCompany.id), { audience: 'technicians' });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json()).toMatchObject({ detail: MESSAGES.documents.companyUploadForEveryone });
    const outsider = await signedInClient(t, await buildUser(t, await buildMsp(t), { role: 'Technician' }));
    expect((await outsider.put(readersOf(runbook.id), { audience: 'technicians' })).statusCode).toBe(404);
    expect(await listedForClient()).toContain(runbook.id);
  });

  it('words an unknown audience and stores nothing', async () => {
    const response = await technician.post('/db/applications/upload', uploadForm({ bytes: 'Numbat notes', name: 'numbat.txt' }, { mspCustomDomain: msp.customDomain, audience: 'clients' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: 'Choose who can read the document: technicians only, or technicians and client users.' });
    const list = (await technician.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications;
    expect(list.map((application) => application.fileName)).not.toContain('numbat.txt');
  });

  it('answers 401 without a session, 403 without the CSRF header, 403 without a document permission', async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get(`/db/applications/msp/${msp.customDomain}`)).statusCode).toBe(401);
    expect((await anonymous.post('/gpt/rag/search', { query: 'x', mspCustomDomain: msp.customDomain })).statusCode).toBe(401);
    const noCsrf = await technician.post('/db/applications/upload', uploadForm({ bytes: 'x', name: 'x.txt' }), { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toMatchObject({ code: 'csrf' });
    const [bare] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'No documents', custom: true, permissions: permissionMap(['boardView']) }).returning();
    if (!bare) throw new Error('role not created');
    const boardOnly = await signedInClient(t, await buildUser(t, msp, { roleId: bare.id }));
    expect((await boardOnly.get(`/db/applications/msp/${msp.customDomain}`)).statusCode).toBe(403);
    expect((await boardOnly.post('/db/applications/upload', uploadForm({ bytes: 'x', name: 'x.txt' }))).statusCode).toBe(403);
  });

  it('lets a technician holding clientDocuments but not mspDocuments read, and act on client companies’ documents only: no MSP-wide upload or delete (review: they could share with everyone and delete MSP documents)', async () => {
    const [clientDocumentsOnly] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Client documents only', custom: true, permissions: permissionMap(['boardView', 'clientDocuments']) }).returning();
    if (!clientDocumentsOnly) throw new Error('role not created');
    const limited = await signedInClient(t, await buildUser(t, msp, { roleId: clientDocumentsOnly.id }));
    const client = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '881' }));
    const mspWide = await upload(technician, { bytes: 'Kiwi backup runbook for technicians', name: 'kiwi.txt' });
    const ofCompany = await upload(client, { bytes: 'Kiwi plotter notes of company 881', name: 'kiwi-company.txt' });

    const everyone = await limited.post('/db/applications/upload', uploadForm({ bytes: 'Shared with everyone', name: 'share.txt' }, { mspCustomDomain: msp.customDomain, audience: 'everyone' }));
    expect(everyone.statusCode).toBe(403);
    expect(everyone.json()).toMatchObject({ code: 'forbidden', detail: MESSAGES.documents.mspDocumentsNeeded });
    const technicians = await limited.post('/db/applications/upload', uploadForm({ bytes: 'For technicians', name: 'tech.txt' }, { mspCustomDomain: msp.customDomain }));
    expect(technicians.statusCode).toBe(403);

    const list = (await limited.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications;
    expect(list.find((application) => application.id === mspWide.id)?.canDelete).toBe(false);
    expect(list.find((application) => application.id === ofCompany.id)?.canDelete).toBe(true);
    expect(list.map((application) => application.fileName)).not.toContain('share.txt');
    expect(list.map((application) => application.fileName)).not.toContain('tech.txt');

    const deleteMspWide = await limited.delete(`/db/${msp.customDomain}/applications/${mspWide.id}`);
    expect(deleteMspWide.statusCode).toBe(403);
    expect(deleteMspWide.json()).toMatchObject({ code: 'forbidden', detail: MESSAGES.documents.mspDocumentsNeeded });
    expect((await limited.put(`/db/${msp.customDomain}/applications/${mspWide.id}/readers`, { audience: 'everyone' })).statusCode).toBe(403);
    expect((await limited.get(`/db/${msp.customDomain}/applications/${mspWide.id}/file`)).statusCode).toBe(200);
    expect((await limited.delete(`/db/${msp.customDomain}/applications/${ofCompany.id}`)).statusCode).toBe(200);
    expect((await technician.get(`/db/${msp.customDomain}/applications/${mspWide.id}/file`)).statusCode).toBe(200);
  });

  it('searches past resolutions only with sources "resolutions", and refuses an unknown source', async () => {
    await upload(technician, { bytes: 'Numbat scanner driver reinstall guide for the numbat scanner', name: 'numbat.txt' });
    await upsertTicketCopies(t.deps.database.db, msp.id, 'CONNECTWISE', [
      { externalId: 9101, summary: 'Numbat scanner not detected', isClosed: true, resolution: 'Replaced the numbat scanner USB cable' },
    ]);
    const everything = (await search(technician, 'numbat scanner')).json<TRagSearchResponse>().results;
    expect(new Set(everything.map((result) => result.kind))).toEqual(new Set(['document', 'resolution']));
    const response = await technician.post('/gpt/rag/search', { query: 'numbat scanner', mspCustomDomain: msp.customDomain, limit: 5, mode: 'near', sources: 'resolutions', ticketId: '9102' });
    expect(response.statusCode).toBe(200);
    const body = response.json<TRagSearchResponse>();
    expect(body.ticketId).toBe('9102');
    expect(body.results.map((result) => result.kind)).toEqual(['resolution']);
    expect(body.results[0]?.snippet).toContain('USB cable');
    const unknown = await technician.post('/gpt/rag/search', { query: 'numbat', mspCustomDomain: msp.customDomain, sources: 'everything' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation' });
  });

  it('refuses an empty query with a plain message', async () => {
    const response = await technician.post('/gpt/rag/search', { query: '  ', mspCustomDomain: msp.customDomain });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: 'Query is required.' });
  });
});

describe('download and delete of an uploaded document', () => {
  const fileUrl = (id: string, domain = msp.customDomain) => `/db/${domain}/applications/${id}/file`;
  const documentUrl = (id: string, domain = msp.customDomain) => `/db/${domain}/applications/${id}`;

  it('downloads the file exactly as uploaded, with its name and type, as an attachment', async () => {
    const pdf = pdfWithText(['Emu firewall failover checklist']);
    const document = await upload(technician, { bytes: pdf, name: 'Émeu firewall.pdf' });
    const response = await technician.get(fileUrl(document.id));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="_meu firewall.pdf"; filename*=UTF-8''%C3%89meu%20firewall.pdf`);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.rawPayload.equals(pdf)).toBe(true);
  });

  it('deletes a document: it leaves the list, its passages leave the search, its file goes, and an audit event says who', async () => {
    const document = await upload(technician, { bytes: 'Platypus badge reader resync: hold the reset pin for ten seconds.', name: 'platypus.txt' });
    expect((await search(technician, 'platypus badge reader')).json<TRagSearchResponse>().results.map((result) => result.id)).toContain(document.id);

    const response = await technician.delete(documentUrl(document.id));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TDeleteApplicationResponse>()).toMatchObject({ deleted: true, application: { id: document.id, fileName: 'platypus.txt' } });

    const list = (await technician.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications;
    expect(list.map((application) => application.id)).not.toContain(document.id);
    expect((await search(technician, 'platypus badge reader')).json<TRagSearchResponse>().results.map((result) => result.id)).not.toContain(document.id);
    const db = t.deps.database.db;
    expect(await db.select().from(knowledgeChunks).where(and(eq(knowledgeChunks.mspId, msp.id), eq(knowledgeChunks.documentId, document.id)))).toEqual([]);
    expect((await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.mspId, msp.id))).length).toBeGreaterThan(0);
    const download = await technician.get(fileUrl(document.id));
    expect(download.statusCode).toBe(404);
    expect(download.json()).toMatchObject({ code: 'not_found', detail: MESSAGES.documents.notFound });
    const events = await db.select().from(auditEvents).where(and(eq(auditEvents.action, 'document.delete'), eq(auditEvents.target, document.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ mspId: msp.id, actorKind: 'user', outcome: 'success' });

    const again = await technician.delete(documentUrl(document.id));
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ detail: MESSAGES.documents.notFound });
  });

  it('removes the stored bytes with the document', async () => {
    const document = await upload(technician, { bytes: 'Koala kiosk reboot', name: 'koala.txt' });
    const db = t.deps.database.db;
    const before = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.mspId, msp.id));
    expect((await technician.delete(documentUrl(document.id))).statusCode).toBe(200);
    const after = await db.select({ name: uploads.name }).from(uploads).where(eq(uploads.mspId, msp.id));
    expect(after.length).toBe(before.length - 1);
  });

  it('answers 404 to another MSP (its domain or ours) and leaves the document in place', async () => {
    const document = await upload(technician, { bytes: 'Dingo NAS snapshot restore', name: 'dingo.txt' });
    const other = await buildMsp(t);
    const outsider = await signedInClient(t, await buildUser(t, other, { role: 'Admin' }));
    expect((await outsider.get(fileUrl(document.id))).statusCode).toBe(404);
    expect((await outsider.delete(documentUrl(document.id))).statusCode).toBe(404);
    const ownDomain = await outsider.delete(documentUrl(document.id, other.customDomain));
    expect(ownDomain.statusCode).toBe(404);
    expect(ownDomain.json()).toMatchObject({ detail: MESSAGES.documents.notFound });
    expect((await outsider.get(fileUrl(document.id, other.customDomain))).statusCode).toBe(404);
    expect((await technician.get(fileUrl(document.id))).statusCode).toBe(200);
  });

  it('lets a client user download and delete their company’s documents, download the shared ones but not delete them, and not see another company’s', async () => {
    const clientA = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '601' }));
    const clientB = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '602' }));
    const ofA = await upload(clientA, { bytes: 'Bilby plotter driver for company A', name: 'bilby.txt' });
    const shared = await upload(technician, { bytes: 'Shared Echidna Wi-Fi guide', name: 'echidna.txt' }, 'Guide', { audience: 'everyone' });

    const listA = (await clientA.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications;
    expect(listA.find((application) => application.id === ofA.id)?.canDelete).toBe(true);
    expect(listA.find((application) => application.id === shared.id)?.canDelete).toBe(false);
    expect(ofA.canDelete).toBe(true);
    expect(shared.canDelete).toBe(true);

    expect((await clientB.get(fileUrl(ofA.id))).statusCode).toBe(404);
    const deleteByB = await clientB.delete(documentUrl(ofA.id));
    expect(deleteByB.statusCode).toBe(404);
    expect((await clientB.get(fileUrl(shared.id))).statusCode).toBe(200);
    const sharedDelete = await clientB.delete(documentUrl(shared.id));
    expect(sharedDelete.statusCode).toBe(403);
    expect(sharedDelete.json()).toMatchObject({ code: 'forbidden', detail: MESSAGES.documents.sharedNotYours });

    expect((await clientA.get(fileUrl(ofA.id))).body).toBe('Bilby plotter driver for company A');
    expect((await clientA.delete(documentUrl(ofA.id))).statusCode).toBe(200);
    expect((await technician.get(fileUrl(shared.id))).statusCode).toBe(200);
  });

  it('answers 401 without a session, 403 without the CSRF header or a document permission, and words a bad id', async () => {
    const document = await upload(technician, { bytes: 'Wallaby switch stack', name: 'wallaby.txt' });
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get(fileUrl(document.id))).statusCode).toBe(401);
    expect((await anonymous.delete(documentUrl(document.id))).statusCode).toBe(401);
    const noCsrf = await technician.delete(documentUrl(document.id), { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toMatchObject({ code: 'csrf' });
    const [bare] = await t.deps.database.db.insert(roles).values({ mspId: msp.id, name: 'Board only', custom: true, permissions: permissionMap(['boardView']) }).returning();
    if (!bare) throw new Error('role not created');
    const boardOnly = await signedInClient(t, await buildUser(t, msp, { roleId: bare.id }));
    expect((await boardOnly.get(fileUrl(document.id))).statusCode).toBe(403);
    expect((await boardOnly.delete(documentUrl(document.id))).statusCode).toBe(403);
    const badId = await technician.delete(documentUrl('not-a-uuid'));
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ code: 'validation' });
    expect((await technician.get(fileUrl(document.id))).statusCode).toBe(200);
  });
});

describe('the demo knowledge base', () => {
  it('seeds the articles once and finds the password-reset article with its steps', async () => {
    const seeded = await buildMsp(t);
    const articles = loadDemoKbArticles();
    expect(await seedKbArticles(t.deps.database.db, seeded.id, articles)).toBe(articles.length);
    expect(await seedKbArticles(t.deps.database.db, seeded.id, articles)).toBe(0);
    const reader = await signedInClient(t, await buildUser(t, seeded, { role: 'Technician' }));
    const response = await search(reader, 'user forgot password needs a reset', seeded.customDomain);
    const results = response.json<TRagSearchResponse>().results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(5);
    expect(results[0]).toMatchObject({ kind: 'article' });
    expect(results[0]?.title.toLowerCase()).toContain('password');
  });

  it('lets client users read the articles written for them, and keeps the technician runbooks from them (decision 034)', async () => {
    const seeded = await buildMsp(t);
    await seedKbArticles(t.deps.database.db, seeded.id, loadDemoKbArticles());
    const reader = await signedInClient(t, await buildUser(t, seeded, { kind: 'client', psaCompanyId: '801' }));
    const titles = (await search(reader, 'forgot my password reset locked out account', seeded.customDomain)).json<TRagSearchResponse>().results.map((result) => result.title);
    expect(titles.some((title) => title.startsWith('Self-service password reset (SSPR)'))).toBe(true);
    expect(titles.some((title) => title.startsWith('Finding the source of repeated account lockouts'))).toBe(false);
    expect(titles.some((title) => title.startsWith("Resetting a user's password (identity verification required)"))).toBe(false);
    const technicianTitles = (await search(await signedInClient(t, await buildUser(t, seeded, { role: 'Technician' })), 'repeated account lockouts source', seeded.customDomain)).json<TRagSearchResponse>().results.map((result) => result.title);
    expect(technicianTitles.some((title) => title.startsWith('Finding the source of repeated account lockouts'))).toBe(true);
  });
});

describe('reading the knowledge-base articles (docs/api-additions.md)', () => {
  const SSPR = 'Self-service password reset (SSPR): set it up once, use it any time';
  const LOCKOUTS = 'Finding the source of repeated account lockouts';
  const brightwaterOnly = { id: 9001, title: 'Brightwater imaging bridge: restarting it yourself', type: 'Software', subType: null, companyId: 801, tags: ['end user'], body: '**Audience:** end users at Brightwater.\n\n## Restart\n1. Open Services and restart **Imaging Bridge**.' };

  async function seededMsp() {
    const seeded = await buildMsp(t);
    await seedKbArticles(t.deps.database.db, seeded.id, [...loadDemoKbArticles(), brightwaterOnly]);
    return seeded;
  }
  const articlesOf = async (client: TestClient, domain: string) => {
    const response = await client.get(`/db/${domain}/knowledge/articles`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TKnowledgeArticleList>().articles;
  };

  it('lists every article to a technician by category and reads one whole, its headings and steps as written', async () => {
    const seeded = await seededMsp();
    const reader = await signedInClient(t, await buildUser(t, seeded, { role: 'Technician' }));
    const articles = await articlesOf(reader, seeded.customDomain);
    expect(articles).toHaveLength(loadDemoKbArticles().length + 1);
    // By category: each category's articles come together, in one run.
    const runs = articles.map((article) => article.typeName).filter((name, index, names) => index === 0 || name !== names[index - 1]);
    expect(runs).toEqual([...new Set(runs)]);
    const sspr = articles.find((article) => article.title === SSPR);
    expect(sspr).toMatchObject({ typeName: 'Accounts & Access', subTypeName: 'Password Reset' });

    const read = await reader.get(`/db/${seeded.customDomain}/knowledge/articles/${sspr?.id}`);
    expect(read.statusCode, read.body).toBe(200);
    const article = read.json<TKnowledgeArticle>();
    expect(article).toMatchObject({ id: sspr?.id, title: SSPR });
    expect(article.body.startsWith('**Audience:** end users.')).toBe(true);
    expect(article.body).toContain('### Register (takes 3 minutes, do it today)\n\n1. On your work computer, open **https://aka.ms/sspr-setup**');
    expect(article.body).toContain('### Reset a forgotten password');
    // The same article a search cites is the one read.
    const cited = (await search(reader, 'forgot my password self-service reset', seeded.customDomain)).json<TRagSearchResponse>().results.find((result) => result.kind === 'article' && result.title.startsWith(SSPR));
    expect(cited?.id).toBe(sspr?.id);
  });

  it('gives a client user only the articles written for everyone, shared or their company’s: 404 for a runbook and another company’s article', async () => {
    const seeded = await seededMsp();
    const technicianReader = await signedInClient(t, await buildUser(t, seeded, { role: 'Technician' }));
    const all = await articlesOf(technicianReader, seeded.customDomain);
    const idOf = (title: string) => all.find((article) => article.title.startsWith(title))?.id;

    const brightwater = await signedInClient(t, await buildUser(t, seeded, { kind: 'client', psaCompanyId: '801' }));
    const titles = (await articlesOf(brightwater, seeded.customDomain)).map((article) => article.title);
    expect(titles).toContain(SSPR);
    expect(titles).toContain(brightwaterOnly.title);
    expect(titles.some((title) => title.startsWith(LOCKOUTS))).toBe(false);
    const runbook = await brightwater.get(`/db/${seeded.customDomain}/knowledge/articles/${idOf(LOCKOUTS)}`);
    expect(runbook.statusCode).toBe(404);
    expect(runbook.json()).toMatchObject({ detail: MESSAGES.documents.articleNotFound });

    const otherCompany = await signedInClient(t, await buildUser(t, seeded, { kind: 'client', psaCompanyId: '802' }));
    expect((await articlesOf(otherCompany, seeded.customDomain)).map((article) => article.title)).not.toContain(brightwaterOnly.title);
    expect((await otherCompany.get(`/db/${seeded.customDomain}/knowledge/articles/${idOf(brightwaterOnly.title)}`)).statusCode).toBe(404);
    expect((await otherCompany.get(`/db/${seeded.customDomain}/knowledge/articles/${idOf(SSPR)}`)).statusCode).toBe(200);
  });

  it('answers 404 to another MSP and for an uploaded document’s id, 401 without a session, and words a bad id', async () => {
    const seeded = await seededMsp();
    const reader = await signedInClient(t, await buildUser(t, seeded, { role: 'Technician' }));
    const [first] = await articlesOf(reader, seeded.customDomain);
    const outsider = await signedInClient(t, await buildUser(t, await buildMsp(t), { role: 'Admin' }));
    expect((await outsider.get(`/db/${seeded.customDomain}/knowledge/articles`)).statusCode).toBe(404);
    expect((await outsider.get(`/db/${seeded.customDomain}/knowledge/articles/${first?.id}`)).statusCode).toBe(404);

    const document = await upload(technician, { bytes: 'Numbat printer driver notes', name: 'numbat.txt' });
    expect((await technician.get(`/db/${msp.customDomain}/knowledge/articles/${document.id}`)).statusCode).toBe(404);

    expect((await new TestClient(t.app).get(`/db/${seeded.customDomain}/knowledge/articles`)).statusCode).toBe(401);
    const bad = await reader.get(`/db/${seeded.customDomain}/knowledge/articles/not-an-id`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).not.toMatch(/uuid|zod/i);
  });
});

describe('word forms, abbreviations and IT synonyms (issue #9)', () => {
  async function freshMsp() {
    const own = await buildMsp(t);
    return { own, reader: await signedInClient(t, await buildUser(t, own, { role: 'Technician' })) };
  }
  const titlesOf = (response: { json: <T>() => T }) => response.json<TRagSearchResponse>().results.map((result) => result.title);

  it('finds the lockouts article for "my account is locked" and the password articles for "forgot my pw"', async () => {
    const { own, reader } = await freshMsp();
    await seedKbArticles(t.deps.database.db, own.id, loadDemoKbArticles());
    const locked = titlesOf(await search(reader, 'my account is locked', own.customDomain));
    expect(locked.slice(0, 3).some((title) => title.startsWith('Finding the source of repeated account lockouts'))).toBe(true);
    const pw = titlesOf(await search(reader, 'forgot my pw', own.customDomain));
    expect(pw[0]?.toLowerCase()).toContain('password');
    const twoFactor = titlesOf(await search(reader, '2fa code not coming to my phone', own.customDomain));
    expect(twoFactor.slice(0, 3).some((title) => title.startsWith('Authenticator notifications not arriving') || title.startsWith('MFA re-registration'))).toBe(true);
  });

  it('meets "printing" and "printer", "emails" and "mail", "synced" and "syncing"', async () => {
    const { own, reader } = await freshMsp();
    const printer = await upload(reader, { bytes: 'Printer queue stuck: restart the spooler service on the print server.', name: 'spooler.txt' }, 'Spooler', { mspCustomDomain: own.customDomain });
    const mail = await upload(reader, { bytes: 'External mail held by the transport rule: release it from quarantine.', name: 'quarantine.txt' }, 'Quarantine', { mspCustomDomain: own.customDomain });
    await upsertTicketCopies(t.deps.database.db, own.id, 'CONNECTWISE', [{ externalId: 9301, summary: 'OneDrive stuck syncing', isClosed: true, resolution: 'Reset the OneDrive client; syncing resumed.' }]);

    const printing = (await search(reader, 'printing stopped', own.customDomain)).json<TRagSearchResponse>().results;
    expect(printing.map((result) => result.id)).toEqual([printer.id]);
    const emails = (await search(reader, 'emails never arrive', own.customDomain)).json<TRagSearchResponse>().results;
    expect(emails.map((result) => result.id)).toEqual([mail.id]);
    const synced = await reader.post('/gpt/rag/search', { query: 'files not synced', mspCustomDomain: own.customDomain, limit: 5, mode: 'near', sources: 'resolutions' });
    expect(synced.json<TRagSearchResponse>().results.map((result) => result.snippet)).toEqual(['Reset the OneDrive client; syncing resumed.']);
  });

  it('still finds words with accents and in other scripts as written', async () => {
    const { own, reader } = await freshMsp();
    const zurich = await upload(reader, { bytes: 'Büro Zürich: Drucker neu starten. Принтер в офисе: перезапустить.', name: 'zurich.txt' }, 'Zürich', { mspCustomDomain: own.customDomain });
    expect((await search(reader, 'Zürich Drucker', own.customDomain)).json<TRagSearchResponse>().results.map((result) => result.id)).toEqual([zurich.id]);
    expect((await search(reader, 'принтер', own.customDomain)).json<TRagSearchResponse>().results.map((result) => result.id)).toEqual([zurich.id]);
  });

  it('ranks the word as written above its synonyms: "pc slow" finds the slow PC before the laptop that is not slow', async () => {
    const { own, reader } = await freshMsp();
    await upsertTicketCopies(t.deps.database.db, own.id, 'CONNECTWISE', [
      { externalId: 9401, summary: 'Laptop screen cracked', isClosed: true, resolution: 'Replaced the laptop screen.' },
      { externalId: 9402, summary: 'PC very slow at startup', isClosed: true, resolution: 'Removed startup apps; the PC starts in a minute.' },
    ]);
    const results = (await search(reader, 'pc slow', own.customDomain)).json<TRagSearchResponse>().results;
    expect(results[0]?.title).toBe('PC very slow at startup');
  });

  it('weighs a rare word above common ones: for "Chrome opening gambling sites" the fix about gambling comes before the texts about opening sites', async () => {
    const { own, reader } = await freshMsp();
    await upsertTicketCopies(t.deps.database.db, own.id, 'CONNECTWISE', [
      // The same summary; the words of this one stand closer together.
      { externalId: 9601, summary: 'Browser problem', isClosed: true, resolution: 'Chrome opening extension removed.' },
      { externalId: 9602, summary: 'Browser problem', isClosed: true, resolution: 'Chrome, the gambling extension removed.' },
      // "opening" and "sites" are in most of the MSP's past tickets; "gambling" in one.
      ...['Vendor', 'Bank', 'Payroll', 'Supplier', 'Portal', 'Training', 'Benefits', 'Insurer', 'Courier', 'Council'].map((name, index) => ({
        externalId: 9610 + index,
        summary: `Opening the ${name.toLowerCase()} sites is slow`,
        isClosed: true,
        resolution: 'Cleared the cache.',
      })),
    ]);
    const snippets = (await search(reader, 'Chrome opening gambling sites', own.customDomain)).json<TRagSearchResponse>().results.map((result) => result.snippet);
    expect(snippets[0]).toBe('Chrome, the gambling extension removed.');
  });

  it('keeps the company filter: a synonym never reaches another company’s resolution', async () => {
    const { own } = await freshMsp();
    const clientA = await signedInClient(t, await buildUser(t, own, { kind: 'client', psaCompanyId: '701' }));
    await upsertTicketCopies(t.deps.database.db, own.id, 'CONNECTWISE', [
      { externalId: 9501, summary: 'Password expired', company: { id: 701, name: 'A Co' }, isClosed: true, resolution: 'Reset the password for company A' },
      { externalId: 9502, summary: 'Password expired', company: { id: 702, name: 'B Co' }, isClosed: true, resolution: 'Reset the password for company B' },
    ]);
    const seen = (await search(clientA, 'my pwd', own.customDomain)).json<TRagSearchResponse>().results;
    expect(seen.map((result) => result.snippet)).toEqual(['Reset the password for company A']);
  });
});
