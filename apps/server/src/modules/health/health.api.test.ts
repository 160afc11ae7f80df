import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TestClient, type TTestApp } from '../../../test/test-app';

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
    expect(ready.json()).toMatchObject({ status: 'ready', database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' });
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
