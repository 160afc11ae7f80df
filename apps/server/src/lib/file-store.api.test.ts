import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { msps, uploads } from '@switchboard/db';
import type { TCreateMspResponse } from '@switchboard/contracts';
import { buildApp } from '../app';
import { createAppJobQueue } from '../app-job-queue';
import { createTestApp, TestClient, type TTestApp } from '../../test/test-app';
import { startLocalS3, type TLocalS3 } from '../../test/s3-server';
import { loadConfig } from '../config/env';

const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);

let s3: TLocalS3;
let t: TTestApp;
beforeAll(async () => {
  s3 = await startLocalS3();
  const { uploads: uploadConfig } = loadConfig({
    NODE_ENV: 'test',
    UPLOADS_S3_BUCKET: s3.bucket,
    UPLOADS_S3_ENDPOINT: s3.url,
    UPLOADS_S3_ACCESS_KEY_ID: s3.accessKeyId,
    UPLOADS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    UPLOADS_S3_PREFIX: 'sb/',
  });
  t = await createTestApp({ config: { uploads: uploadConfig } });
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

let counter = 0;
async function signUpWithLogo(domain = `s3-${Date.now().toString(36)}-${counter++}`) {
  const form = new FormData();
  form.set('mspName', 'Bucket IT');
  form.set('customDomain', domain);
  form.set('companyPhoneNumber', '3035550100');
  form.set('webSiteUrl', 'https://bucket.example');
  form.set('file', new Blob([PNG_BYTES], { type: 'image/png' }), 'logo.png');
  return new TestClient(t.app, `10.9.0.${counter + 1}`).post('/db/msp', form);
}

describe('uploads in an S3-compatible bucket (UPLOADS_S3_*, issue #11)', () => {
  it('reads the bucket settings, with path-style addressing for an endpoint, and refuses half a key pair', () => {
    const config = loadConfig({ NODE_ENV: 'test', UPLOADS_S3_BUCKET: 'files', UPLOADS_S3_ENDPOINT: 'http://minio.internal:9000' });
    expect(config.uploads).toMatchObject({ kind: 's3', bucket: 'files', forcePathStyle: true, region: 'us-east-1', prefix: '' });
    expect(loadConfig({ NODE_ENV: 'test' }).uploads).toEqual({ kind: 'database' });
    expect(() => loadConfig({ NODE_ENV: 'test', UPLOADS_S3_BUCKET: 'files', UPLOADS_S3_ACCESS_KEY_ID: 'only-the-id' })).toThrow(/must be set together/);
  });

  it('stores a sign-up logo in the bucket under the MSP, not in PostgreSQL, and serves it from any replica', async () => {
    const response = await signUpWithLogo();
    expect(response.statusCode).toBe(201);
    const created = response.json<TCreateMspResponse>();
    const [msp] = await t.deps.database.db.select().from(msps).where(eq(msps.customDomain, created.mspCustomDomain));
    if (!msp?.logoPath) throw new Error('no logo path');
    const key = `sb/${msp.id}/${msp.logoPath}`;
    expect(s3.objects.get(key)?.bytes.equals(PNG_BYTES)).toBe(true);
    expect(s3.objects.get(key)?.contentType).toBe('image/png');
    expect(await t.deps.database.db.select().from(uploads).where(eq(uploads.mspId, msp.id))).toHaveLength(0);

    // Another replica: its own job queue, so closing it leaves this file's app working.
    const replica = await buildApp({ ...t.deps, jobQueue: createAppJobQueue(t.deps) });
    try {
      const logo = await replica.inject({ method: 'GET', url: `/db/msp/${created.mspCustomDomain}/logo` });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.rawPayload.equals(PNG_BYTES)).toBe(true);
    } finally {
      await replica.close();
    }
  });

  it('rides out a bucket that answers 503 SlowDown once (the SDK retries)', async () => {
    s3.failNext(1);
    const response = await signUpWithLogo();
    expect(response.statusCode).toBe(201);
  });

  it('removes the object again when the change it belongs to fails, so nothing is left behind', async () => {
    const [msp] = await t.deps.database.db.select().from(msps).limit(1);
    if (!msp) throw new Error('no MSP');
    const file = { mspId: msp.id, name: 'uploads/documents/rolled-back.txt', contentType: 'text/plain', bytes: Buffer.from('never referenced') };
    await expect(
      t.deps.files.storeWith(t.deps.database.db, [file], async () => {
        expect(s3.objects.has(`sb/${msp.id}/${file.name}`)).toBe(true);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(s3.objects.has(`sb/${msp.id}/${file.name}`)).toBe(false);
    expect(await t.deps.files.get(t.deps.database.db, msp.id, file.name)).toBeNull();
  });

  it('removes the object only after the change commits, and keeps it when the change fails', async () => {
    const [msp] = await t.deps.database.db.select().from(msps).limit(1);
    if (!msp) throw new Error('no MSP');
    const file = { mspId: msp.id, name: 'uploads/documents/to-remove.txt', contentType: 'text/plain', bytes: Buffer.from('remove me') };
    const key = `sb/${msp.id}/${file.name}`;
    await t.deps.files.put(t.deps.database.db, file);
    await expect(
      t.deps.files.removeWith(t.deps.database.db, [file], async () => {
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(s3.objects.has(key)).toBe(true);
    await t.deps.files.removeWith(t.deps.database.db, [file], async () => {
      expect(s3.objects.has(key)).toBe(true);
    });
    expect(s3.objects.has(key)).toBe(false);
  });

  it('answers 404 for a logo the bucket does not have', async () => {
    const response = await signUpWithLogo();
    const created = response.json<TCreateMspResponse>();
    s3.objects.clear();
    const logo = await new TestClient(t.app).get(`/db/msp/${created.mspCustomDomain}/logo`);
    expect(logo.statusCode).toBe(404);
  });
});
