import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { TApplication, TApplicationList, TRagSearchResponse } from '@switchboard/contracts';
import { auditEvents } from '@switchboard/db';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TestClient, TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, withTwoSiteApp, type TTwoSiteApp } from '../../../test/psa-simulator';
import { buildUser, signedInClient } from '../../../test/factories';

// Regression (review s29 #1): a client company's uploads were tagged with the bare PSA company id only, and another PSA
// (decision 042) kept them. A client of the new PSA's company with the same id then listed, downloaded, chatted with and
// deleted another company's documents. The start-over now retires them: kept for the technicians, no client reads them.

let t: TTestApp;
let siteA: TPsaSimulator;
let connectSiteB: TTwoSiteApp['connectSiteB'];
withTwoSiteApp((ready) => ({ t, siteA, connectSiteB } = ready));

async function upload(client: TestClient, mspCustomDomain: string, text: string, name: string): Promise<TApplication> {
  const form = new FormData();
  form.set('mspCustomDomain', mspCustomDomain);
  form.set('description', 'Our office notes');
  form.set('file', new Blob([Buffer.from(text)], { type: 'text/plain' }), name);
  const response = await client.post('/db/applications/upload', form);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ application: TApplication }>().application;
}

describe('another PSA and a client company’s documents (decision 042)', () => {
  it('retires them: a client of the new PSA’s company with the same id cannot list, download, chat with or delete them; technicians still can read them', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    const clientOfA = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '250' }));
    const document = await upload(clientOfA, msp.customDomain, 'Numbat payroll server: the backup key is in the red binder.', 'numbat-payroll.txt');
    const chatBody = { id: document.id, documentMessage: 'Where is the numbat payroll backup key?' };
    expect((await clientOfA.post('/docs/chat', chatBody)).statusCode).toBe(200);

    await connectSiteB(admin, msp);
    // Another company of the new PSA that happens to have the same id.
    const clientOfB = await signedInClient(t, await buildUser(t, msp, { kind: 'client', psaCompanyId: '250' }));

    const listed = await clientOfB.get(`/db/applications/msp/${msp.customDomain}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<TApplicationList>().applications.map((application) => application.id)).not.toContain(document.id);
    expect((await clientOfB.get(`/db/${msp.customDomain}/applications/${document.id}/file`)).statusCode).toBe(404);
    expect((await clientOfB.post('/docs/chat', chatBody)).statusCode).toBe(404);
    const found = await clientOfB.post('/gpt/rag/search', { query: 'numbat payroll backup key', mspCustomDomain: msp.customDomain, limit: 5, mode: 'near' });
    expect(found.json<TRagSearchResponse>().results.map((result) => result.id)).not.toContain(document.id);
    expect((await clientOfB.delete(`/db/${msp.customDomain}/applications/${document.id}`)).statusCode).toBe(404);

    // Kept for the record: the technicians still read it, for technicians only.
    const ofTechnicians = (await technician.get(`/db/applications/msp/${msp.customDomain}`)).json<TApplicationList>().applications.find((application) => application.id === document.id);
    expect(ofTechnicians).toMatchObject({ audience: 'technicians' });
    const foundByTechnician = await technician.post('/gpt/rag/search', { query: 'numbat payroll backup key', mspCustomDomain: msp.customDomain, limit: 5, mode: 'near' });
    expect(foundByTechnician.json<TRagSearchResponse>().results.map((result) => result.id)).toContain(document.id);
    const [reset] = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'integrations.psa_data.reset')));
    expect(reset?.details).toMatchObject({ removed: { companyDocumentsRetired: 1 } });
  });
});
