import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsaClient, TPsaType } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

const PSAS: TPsaType[] = ['connectwise', 'autotask'];

interface TDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl = '';
const deliveries: TDelivery[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function deliveryTo(path: string): Promise<TDelivery> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const delivery = deliveries.find((each) => each.path === path);
    if (delivery) return delivery;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no webhook delivery to ${path}`);
}

describe.each(PSAS)('%s lookups by e-mail against the simulator', (psaType) => {
  let sim: TSimulator;
  let client: PsaClient;
  let companyId: number;
  let companyName: string;

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor(psaType, sim);
    for await (const company of client.streamCompanies()) {
      companyId = company.id;
      companyName = company.name;
      break;
    }
  });
  afterAll(async () => sim.close());

  it('finds a member by e-mail whatever its case, with the phone', async () => {
    const [member] = await client.listMembers();
    if (!member?.email) throw new Error('the demo seed has no member with an e-mail');
    const found = await client.findMembersByEmail(`  ${member.email.toUpperCase()} `);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id: member.id, firstName: member.firstName, lastName: member.lastName, email: member.email, isActive: true });
    expect(found[0]?.phone).toMatch(/\d/);
  });

  it('finds a contact by e-mail with its company', async () => {
    const contact = await client.createContact({ idempotencyKey: `lookup-${psaType}`, companyId, firstName: 'Lou', lastName: 'Kup', email: 'lou.kup@example.com', phone: '3035550142' });
    const found = await client.findContactsByEmail('Lou.Kup@example.com');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ...contact, phone: '3035550142' });
    expect(found[0]?.company).toMatchObject({ id: companyId, name: companyName });
  });

  it('finds nobody for an unknown or empty address', async () => {
    expect(await client.findMembersByEmail('nobody-here@example.com')).toEqual([]);
    expect(await client.findContactsByEmail('nobody-here@example.com')).toEqual([]);
    const requestsBefore = client.requestCount();
    expect(await client.findContactsByEmail('   ')).toEqual([]);
    expect(await client.findMembersByEmail('')).toEqual([]);
    expect(client.requestCount()).toBe(requestsBefore);
  });

  it('treats a quote in the address as part of the value, never as filter syntax', async () => {
    const quoted = 'o"hara@example.com';
    const contact = await client.createContact({ idempotencyKey: `quote-${psaType}`, companyId, firstName: 'Ona', lastName: "O'Hara", email: quoted });
    expect((await client.findContactsByEmail(quoted)).map((each) => each.id)).toEqual([contact.id]);
    // Were the quote not escaped, this would close the string and match every member or contact.
    const injection = 'x" or id>0 or firstName!="';
    expect(await client.findMembersByEmail(injection)).toEqual([]);
    expect(await client.findContactsByEmail(injection)).toEqual([]);
  });
});

// ConnectWise callbacks are registered self-suppressed, so its own updates never call back; Autotask is the PSA that needed fields.
describe('Autotask ticket webhook registration', () => {
  const psaType: TPsaType = 'autotask';
  let sim: TSimulator;
  let client: PsaClient;

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor(psaType, sim);
  });
  afterAll(async () => sim.close());

  it('makes the PSA POST a signed event when a technician changes a ticket, and none for the adapter’s own update', async () => {
    const [board] = await client.listBoards();
    let companyId = 0;
    for await (const company of client.streamCompanies()) {
      companyId = company.id;
      break;
    }
    if (!board) throw new Error('the demo seed has no board');
    const ticket = await client.createTicket({ idempotencyKey: `webhook-${psaType}`, summary: 'Printer offline', description: 'Floor 2.', boardId: board.id, companyId });
    const path = `/hooks/${psaType}`;
    const secretKey = 'contract-webhook-secret';
    const registration = { url: `${receiverUrl}${path}`, description: 'Switchboard tickets', secretKey };
    const webhook = await client.registerTicketWebhook(registration);
    expect((await client.registerTicketWebhook(registration)).id).toBe(webhook.id);

    const priorities = await client.listPriorities();
    const otherPriority = priorities.find((priority) => priority.id !== ticket.priorityId);
    if (!otherPriority) throw new Error('the demo seed has a single priority');
    // The webhook excludes the API user's resource, so Switchboard's own change makes no callout.
    const deliveriesBefore = sim.stats().webhookDeliveries;
    await client.updateTicket(ticket.id, { priorityId: otherPriority.id });
    expect(sim.stats().webhookDeliveries).toBe(deliveriesBefore);

    const technicianEdit = await fetch(`${sim.url}/__sim/autotask/technician-ticket-edits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ resourceId: 1, ticket: { id: ticket.id, priority: ticket.priorityId } }),
    });
    expect(technicianEdit.status).toBe(200);
    const delivery = await deliveryTo(path);
    expect(delivery.headers['x-hook-signature']).toBe(`sha1=${createHmac('sha1', secretKey).update(delivery.body).digest('base64')}`);
    expect(JSON.parse(delivery.body)).toMatchObject({ Action: 'Update', EntityType: 'Ticket', Id: ticket.id, PersonID: 1, Fields: { priority: ticket.priorityId } });
  });

  it('subscribes each Autotask webhook field once, however often it registers', async () => {
    const registration = { url: `${receiverUrl}/hooks/again`, description: 'Switchboard tickets', secretKey: 'another-secret' };
    const webhook = await client.registerTicketWebhook(registration);
    await client.registerTicketWebhook(registration);
    const { username, secret, integrationCode } = sim.autotask;
    const response = await fetch(`${sim.url}/ATServicesRest/V1.0/TicketWebhooks/${webhook.id}/Fields`, {
      headers: { UserName: username, Secret: secret, ApiIntegrationCode: integrationCode },
    });
    const { items } = (await response.json()) as { items: { fieldID: number; isSubscribedField: boolean }[] };
    const fieldIds = items.map((item) => item.fieldID);
    expect(fieldIds.length).toBeGreaterThanOrEqual(5);
    expect(new Set(fieldIds).size).toBe(fieldIds.length);
    expect(items.every((item) => item.isSubscribedField)).toBe(true);
  });
});
