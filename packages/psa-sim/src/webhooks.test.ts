import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utils } from 'connectwise-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_FIELDS } from './autotask/entities';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asRecord, autotaskCall, connectWiseCall } from './test-support';

interface TReceived {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let sim: TPsaSimulator;
let receiver: Server;
let receiverUrl = '';
const received: TReceived[] = [];

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100 && !predicate(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!predicate()) throw new Error('Timed out waiting for a webhook delivery');
}

beforeAll(async () => {
  sim = await startPsaSimulator();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sim.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('Autotask ticket webhooks', () => {
  it('POSTs a signed Update when a subscribed field changes, and nothing for unsubscribed fields', async () => {
    const secretKey = 'hook-secret-1';
    const created = await autotaskCall(sim, 'POST', '/TicketWebhooks', { name: 'Switchboard', webhookUrl: `${receiverUrl}/at`, deactivationUrl: `${receiverUrl}/at-off`, secretKey, isActive: true, isSubscribedToUpdateEvents: true });
    const webhookId = asRecord(created.body).itemId;
    const statusFieldId = TICKET_FIELDS.findIndex((field) => field.name === 'status') + 1;
    const titleFieldId = TICKET_FIELDS.findIndex((field) => field.name === 'title') + 1;
    await autotaskCall(sim, 'POST', `/TicketWebhooks/${String(webhookId)}/Fields`, { fieldID: statusFieldId, isSubscribedField: true });
    await autotaskCall(sim, 'POST', `/TicketWebhooks/${String(webhookId)}/Fields`, { fieldID: titleFieldId, isDisplayAlwaysField: true });
    await autotaskCall(sim, 'PATCH', '/Tickets', { id: 100002, description: 'only the description' });
    await autotaskCall(sim, 'PATCH', '/Tickets', { id: 100002, status: 1 });
    await waitFor(() => received.some((entry) => entry.path === '/at'));
    const deliveries = received.filter((entry) => entry.path === '/at');
    expect(deliveries).toHaveLength(1);
    const delivery = deliveries[0];
    if (!delivery) throw new Error('no delivery');
    const expectedSignature = `sha1=${createHmac('sha1', secretKey).update(delivery.body).digest('base64')}`;
    expect(delivery.headers['x-hook-signature']).toBe(expectedSignature);
    const payload = asRecord(JSON.parse(delivery.body));
    expect(payload).toMatchObject({ Action: 'Update', EntityType: 'Ticket', Id: 100002, Fields: { status: 1, title: 'dock not charging, monitors flaky' } });
    expect(delivery.body).not.toMatch(/[&<>'+]/);
  });
});

describe('Autotask webhook without its own secretKey', () => {
  it('signs Create events with the simulator webhookSecret', async () => {
    const created = await autotaskCall(sim, 'POST', '/TicketWebhooks', { name: 'No secret', webhookUrl: `${receiverUrl}/at-create`, deactivationUrl: `${receiverUrl}/at-off`, isActive: true, isSubscribedToCreateEvents: true });
    const webhookId = asRecord(created.body).itemId;
    const titleFieldId = TICKET_FIELDS.findIndex((field) => field.name === 'title') + 1;
    await autotaskCall(sim, 'POST', `/TicketWebhooks/${String(webhookId)}/Fields`, { fieldID: titleFieldId, isSubscribedField: true });
    const ticket = asRecord((await autotaskCall(sim, 'POST', '/Tickets', { companyID: 1, title: 'Café <b> & co', status: 1, priority: 2 })).body);
    await waitFor(() => received.some((entry) => entry.path === '/at-create'));
    const delivery = received.find((entry) => entry.path === '/at-create');
    if (!delivery) throw new Error('no delivery');
    expect(delivery.headers['x-hook-signature']).toBe(`sha1=${createHmac('sha1', 'SimWebhookSecret1').update(delivery.body).digest('base64')}`);
    expect(delivery.body).toContain('Caf\\u00e9 \\u003cb\\u003e \\u0026 co');
    expect(asRecord(JSON.parse(delivery.body))).toMatchObject({ Action: 'Create', Id: ticket.itemId, Fields: { title: 'Café <b> & co' } });
  });
});

describe('ConnectWise callbacks', () => {
  it('POSTs added/updated envelopes to owner-level ticket callbacks, signed with the key at key_url', async () => {
    const registered = await connectWiseCall(sim, 'POST', '/system/callbacks', { url: `${receiverUrl}/cw`, objectId: 1, type: 'ticket', level: 'owner', description: 'switchboard' });
    expect(registered.status).toBe(201);
    const ticket = asRecord((await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Callback me', company: { id: 1 } })).body);
    await waitFor(() => received.some((entry) => entry.path === '/cw'));
    const delivery = received.find((entry) => entry.path === '/cw');
    if (!delivery) throw new Error('no delivery');
    const payload = asRecord(JSON.parse(delivery.body));
    expect(payload).toMatchObject({ Action: 'added', Type: 'ticket', ID: ticket.id });
    expect(asRecord(JSON.parse(String(payload.Entity)))).toMatchObject({ summary: 'Callback me' });
    const keyDocument: unknown = await (await fetch(String(asRecord(payload.Metadata).key_url))).json();
    const key = createHash('sha256').update(String(asRecord(JSON.parse(String(keyDocument))).signing_key)).digest();
    expect(delivery.headers['x-content-signature']).toBe(createHmac('sha256', key).update(delivery.body).digest('base64'));
    // connectwise-rest's own verifier fetches key_url and checks the signature the same way.
    const signature = delivery.headers['x-content-signature'];
    expect(await utils.Callback.verifyCallback(payload as unknown as Parameters<typeof utils.Callback.verifyCallback>[0], String(signature))).toBe(true);
  });

  it('honours skipCallback and lists and deletes callbacks', async () => {
    const before = received.filter((entry) => entry.path === '/cw').length;
    await connectWiseCall(sim, 'POST', '/service/tickets', { summary: 'Quiet', company: { id: 1 }, skipCallback: true });
    await connectWiseCall(sim, 'PATCH', '/service/tickets/100003', [{ op: 'replace', path: 'summary', value: 'Loud' }]);
    await waitFor(() => received.filter((entry) => entry.path === '/cw').length > before);
    const after = received.filter((entry) => entry.path === '/cw').slice(before);
    expect(after.map((entry) => asRecord(JSON.parse(entry.body)).ID)).toEqual([100003]);
    const callbacks = (await connectWiseCall(sim, 'GET', '/system/callbacks')).body;
    expect(callbacks).toEqual([expect.objectContaining({ type: 'ticket', level: 'owner' })]);
    expect((await connectWiseCall(sim, 'DELETE', '/system/callbacks/1')).status).toBe(204);
  });
});
