import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utils } from 'connectwise-rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_USER_RESOURCE_ID, TICKET_FIELDS } from './autotask/entities';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, autotaskHeaders, connectWiseCall } from './test-support';

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

describe('Autotask webhook excluded resources', () => {
  const path = '/at-excluding';
  const personIds = (): unknown[] => received.filter((entry) => entry.path === path).map((entry) => asRecord(JSON.parse(entry.body)).PersonID);

  it('serves TicketWebhooks/{id}/ExcludedResources and validates its resourceID', async () => {
    const created = await autotaskCall(sim, 'POST', '/TicketWebhooks', { name: 'Excluding', webhookUrl: `${receiverUrl}${path}`, deactivationUrl: `${receiverUrl}/at-off`, secretKey: 'hook-secret-2', isActive: true, isSubscribedToUpdateEvents: true });
    const webhookId = String(asRecord(created.body).itemId);
    const titleFieldId = TICKET_FIELDS.findIndex((field) => field.name === 'title') + 1;
    await autotaskCall(sim, 'POST', `/TicketWebhooks/${webhookId}/Fields`, { fieldID: titleFieldId, isSubscribedField: true });
    const resources = asRecord((await autotaskCall(sim, 'POST', '/Resources/query', { filter: [{ op: 'eq', field: 'userName', value: sim.autotask.username }] })).body);
    expect(asArray(resources.items)).toEqual([expect.objectContaining({ id: API_USER_RESOURCE_ID, email: sim.autotask.username, isActive: true })]);

    const excluded = await autotaskCall(sim, 'POST', `/TicketWebhooks/${webhookId}/ExcludedResources`, { resourceID: API_USER_RESOURCE_ID });
    expect(excluded.status).toBe(200);
    const duplicate = await autotaskCall(sim, 'POST', `/TicketWebhooks/${webhookId}/ExcludedResources`, { resourceID: API_USER_RESOURCE_ID });
    expect(duplicate.status).toBe(500);
    const unknown = await autotaskCall(sim, 'POST', `/TicketWebhooks/${webhookId}/ExcludedResources`, { resourceID: 999_999 });
    expect(asRecord(unknown.body).errors).toEqual(['Value does not reference an existing entity for resourceID .']);
    const list = asRecord((await autotaskCall(sim, 'GET', `/TicketWebhooks/${webhookId}/ExcludedResources`)).body);
    expect(asArray(list.items)).toEqual([{ id: asRecord(excluded.body).itemId, webhookID: Number(webhookId), resourceID: API_USER_RESOURCE_ID }]);
    const fields = asRecord((await autotaskCall(sim, 'GET', '/TicketWebhookExcludedResources/entityInformation/fields')).body);
    expect(asArray(fields.fields).map((field) => field.name)).toEqual(['id', 'webhookID', 'resourceID']);
  });

  it('makes no callout for changes attributed to an excluded resource, and one for anyone else', async () => {
    const [webhook] = asArray(asRecord((await autotaskCall(sim, 'POST', '/TicketWebhooks/query', { filter: [{ op: 'eq', field: 'name', value: 'Excluding' }] })).body).items);
    const webhookId = String(webhook?.id);
    await autotaskCall(sim, 'PATCH', '/Tickets', { id: 100004, title: 'Changed by the API user' });
    const impersonated = await autotaskCall(sim, 'PATCH', '/Tickets', { id: 100004, title: 'Changed as Marcus' }, { ...autotaskHeaders(sim), ImpersonationResourceId: '3' });
    expect(impersonated.status).toBe(200);
    const technicianEdit = await fetch(`${sim.url}/__sim/autotask/technician-ticket-edits`, { method: 'POST', body: JSON.stringify({ resourceId: 2, ticket: { id: 100004, title: 'Changed by Priya in the UI' } }) });
    expect(technicianEdit.status).toBe(200);
    const notATechnician = await fetch(`${sim.url}/__sim/autotask/technician-ticket-edits`, { method: 'POST', body: JSON.stringify({ resourceId: API_USER_RESOURCE_ID, ticket: { id: 100004, title: 'x' } }) });
    expect(notATechnician.status).toBe(400);
    await waitFor(() => personIds().length >= 2);
    expect(personIds().sort()).toEqual([2, 3]);

    const [exclusion] = asArray(asRecord((await autotaskCall(sim, 'GET', `/TicketWebhooks/${webhookId}/ExcludedResources`)).body).items);
    expect((await autotaskCall(sim, 'DELETE', `/TicketWebhooks/${webhookId}/ExcludedResources/${String(exclusion?.id)}`)).status).toBe(200);
    await autotaskCall(sim, 'PATCH', '/Tickets', { id: 100004, title: 'Changed by the API user again' });
    await waitFor(() => personIds().length >= 3);
    expect(personIds()).toContain(API_USER_RESOURCE_ID);
  });
});
