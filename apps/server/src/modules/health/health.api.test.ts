import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';
import { createMailer } from '../../lib/mailer';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('health and readiness', () => {
  it('reports the process up and the database ready', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/health')).json()).toEqual({ status: 'ok' });
    const ready = await client.get('/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', mail: 'outbox' });
  });

  it('turns /ready 503 as soon as shutdown begins, while the app still answers', async () => {
    const stopping = await createTestApp();
    try {
      stopping.deps.lifecycle.beginShutdown();
      const ready = await new TestClient(stopping.app).get('/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'shutting_down' });
      expect((await new TestClient(stopping.app).get('/health')).statusCode).toBe(200);
    } finally {
      await stopping.close();
    }
  });

  it('reports an SMTP server that does not answer as degraded, not ready', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
      });
    });
    const degraded = await createTestApp();
    try {
      degraded.deps.mailer = createMailer({ db: degraded.deps.database.db, smtpUrl: `smtp://127.0.0.1:${port}`, from: 'test@switchboard.local', keepCopies: true });
      const ready = await new TestClient(degraded.app).get('/ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'degraded', mail: 'unreachable' });
    } finally {
      await degraded.close();
    }
  });

  it('answers unknown paths with problem+json carrying a request id', async () => {
    const response = await new TestClient(t.app).get('/db/nowhere/at-all');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, code: 'not_found', requestId: response.headers['x-request-id'] });
  });

  it('sends a content security policy', async () => {
    const response = await new TestClient(t.app).get('/health');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves the generated OpenAPI document', async () => {
    const response = await new TestClient(t.app).get('/openapi.json');
    expect(response.json()).toMatchObject({ openapi: '3.1.0', paths: { '/health': {} } });
  });
});
