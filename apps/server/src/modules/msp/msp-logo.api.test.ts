import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LOGO_MAX_BYTES, MESSAGES, type TMspProfile } from '@switchboard/contracts';
import { auditEvents, msps, uploads } from '@switchboard/db';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { buildMsp, buildUser, signedInClient, type TTestMsp } from '../../../test/factories';

let t: TTestApp;
let msp: TTestMsp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  msp = await buildMsp(t);
  admin = await signedInClient(t, await buildUser(t, msp, { role: 'Admin' }));
});
afterAll(async () => t.close());

const png = (fill: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, fill)]);
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#5f3dc4"/></svg>';

function logoForm(file?: { bytes: Buffer | string; type: string; name: string }): FormData {
  const form = new FormData();
  if (file) form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  return form;
}

const SVG_REFUSED = 'This SVG contains scripts, links, styles or entity declarations. Export it as PNG, or as a plain SVG.';

const path = () => `/db/${msp.customDomain}/branding/logo`;
const uploadNames = async () => (await t.deps.database.db.select({ name: uploads.name }).from(uploads).where(eq(uploads.mspId, msp.id))).map((row) => row.name);

// Bug: the brand logo could be set only at sign-up; an MSP could never change it afterwards.
describe('brand logo change (addition to R-090)', () => {
  it('replaces the logo: the profile names it at a new URL that serves the new image, and the old file is gone', async () => {
    const first = await admin.post(path(), logoForm({ bytes: png(1), type: 'image/png', name: 'first.png' }));
    expect(first.statusCode, first.body).toBe(200);
    const firstUrl = first.json<TMspProfile>().logoUrl ?? '';
    expect(firstUrl).toMatch(new RegExp(`^/db/msp/${msp.customDomain}/logo\\?v=\\d+$`));

    // The clock moves on, as between two real changes, so the second logo has its own version.
    t.advanceClock(60_000);
    const second = await admin.post(path(), logoForm({ bytes: SVG, type: 'image/svg+xml', name: 'second.svg' }));
    expect(second.statusCode, second.body).toBe(200);
    const profile = (await new TestClient(t.app).get(`/db/msp?customDomain=${msp.customDomain}`)).json<TMspProfile>();
    expect(profile.logoUrl).toBe(second.json<TMspProfile>().logoUrl);
    expect(profile.logoUrl).not.toBe(firstUrl);
    const served = await new TestClient(t.app).get(profile.logoUrl ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toContain('#5f3dc4');
    expect(await uploadNames()).toHaveLength(1);
    const events = await t.deps.database.db.select().from(auditEvents).where(and(eq(auditEvents.mspId, msp.id), eq(auditEvents.action, 'msp.logo.save')));
    expect(events.map((event) => event.target)).toEqual([msp.customDomain, msp.customDomain]);
  });

  // Review s29 #5: two files answered 413 "What was sent is too large.".
  it('refuses two files at once with "Upload one file at a time."', async () => {
    const form = logoForm({ bytes: png(3), type: 'image/png', name: 'one.png' });
    form.append('file', new Blob([png(4)], { type: 'image/png' }), 'two.png');
    const response = await admin.post(path(), form);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation', detail: MESSAGES.uploadOneFile });
  });

  it('refuses a missing, empty, too large or non-image file in plain words with the spec flags, and keeps the logo', async () => {
    const [before] = await t.deps.database.db.select({ logoPath: msps.logoPath }).from(msps).where(eq(msps.id, msp.id));
    const cases: Array<[FormData, number, string, Record<string, boolean>]> = [
      [logoForm(), 400, MESSAGES.fileMissing, { fileMissing: true }],
      [logoForm({ bytes: '', type: 'image/png', name: 'empty.png' }), 400, MESSAGES.fileMissing, { fileMissing: true }],
      [logoForm({ bytes: Buffer.concat([png(2), Buffer.alloc(LOGO_MAX_BYTES, 0)]), type: 'image/png', name: 'big.png' }), 413, MESSAGES.fileSize, { fileSize: true }],
      [logoForm({ bytes: 'not an image', type: 'text/plain', name: 'notes.txt' }), 415, MESSAGES.fileType, { fileType: true }],
      // Regression: an SVG refused for what it holds was told it was not a PNG, JPEG, GIF, SVG or WebP image.
      [logoForm({ bytes: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type: 'image/svg+xml', name: 'x.svg' }), 415, SVG_REFUSED, { fileType: true }],
      [logoForm({ bytes: '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(//x.example/a.css);</style></svg>', type: 'image/svg+xml', name: 'y.svg' }), 415, SVG_REFUSED, { fileType: true }],
      // Regression (review s28): a namespace prefix hid the script, so these were stored and served as the logo.
      [logoForm({ bytes: '<svg xmlns="http://www.w3.org/2000/svg"><x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script></svg>', type: 'image/svg+xml', name: 'p.svg' }), 415, MESSAGES.logoSvgRefused, { fileType: true }],
      [logoForm({ bytes: '<svg xmlns="http://www.w3.org/2000/svg"><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>', type: 'image/svg+xml', name: 'h.svg' }), 415, MESSAGES.logoSvgRefused, { fileType: true }],
    ];
    for (const [form, status, detail, flags] of cases) {
      const response = await admin.post(path(), form);
      expect(response.statusCode, detail).toBe(status);
      expect(response.json()).toMatchObject({ detail, flags });
      expect(response.json<{ flags: Record<string, unknown> }>().flags.mspSignup).toBeUndefined();
    }
    const [after] = await t.deps.database.db.select({ logoPath: msps.logoPath }).from(msps).where(eq(msps.id, msp.id));
    expect(after?.logoPath).toBe(before?.logoPath);
  });

  it('needs mspBranding, within the MSP', async () => {
    const technician = await signedInClient(t, await buildUser(t, msp, { role: 'Technician' }));
    expect((await technician.post(path(), logoForm({ bytes: png(3), type: 'image/png', name: 'x.png' }))).statusCode).toBe(403);
    const other = await buildMsp(t);
    expect((await admin.post(`/db/${other.customDomain}/branding/logo`, logoForm({ bytes: png(3), type: 'image/png', name: 'x.png' }))).statusCode).toBe(404);
  });
});
