import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PsaClient } from '../src/index';
import { clientFor, startPsaSimulator, type TSimulator } from './sim-clients';

interface TDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const secretKey = 'echo-webhook-secret';
/** A closed demo ticket and a demo technician (Priya Raman) of the simulator's seed. */
const ticketId = 100002;
const technicianResourceId = 2;

describe('autotask webhook excludes the API user’s own changes', () => {
  let sim: TSimulator;
  let client: PsaClient;
  let receiver: Server;
  let hookUrl = '';
  const deliveries: TDelivery[] = [];

  /** Reads a webhook child list straight from the simulated Autotask API, as the API user. */
  async function autotaskList(path: string): Promise<Record<string, unknown>[]> {
    const response = await fetch(`${sim.url}/ATServicesRest/V1.0${path}`, {
      headers: { ApiIntegrationCode: sim.autotask.integrationCode, UserName: sim.autotask.username, Secret: sim.autotask.secret },
    });
    const body = (await response.json()) as { items: Record<string, unknown>[] };
    return body.items;
  }

  async function waitForDeliveries(count: number): Promise<void> {
    for (let attempt = 0; attempt < 100 && deliveries.length < count; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    if (deliveries.length < count) throw new Error(`expected ${count} webhook deliveries, got ${deliveries.length}`);
  }

  beforeAll(async () => {
    sim = await startPsaSimulator({ port: 0, seed: 'demo', rateLimit: false });
    client = clientFor('autotask', sim);
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/autotask-tickets`;
  });

  afterAll(async () => {
    await sim.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('registers the API user’s resource as excluded once, however often the webhook is registered', async () => {
    const [apiUser] = (await autotaskList('/Resources/query?search=' + encodeURIComponent(JSON.stringify({ filter: [{ op: 'eq', field: 'userName', value: sim.autotask.username }] })))) ?? [];
    if (!apiUser) throw new Error('the simulator serves no resource for the API user');
    const resourceQueries = () => Object.entries(sim.stats().byPath).reduce((sum, [path, count]) => (path.toLowerCase().endsWith('/resources/query') ? sum + count : sum), 0);
    const queriesBefore = resourceQueries();
    const first = await client.registerTicketWebhook({ url: hookUrl, description: 'Switchboard tickets', secretKey });
    const again = await client.registerTicketWebhook({ url: hookUrl, description: 'Switchboard tickets', secretKey });
    expect(again.id).toBe(first.id);
    // The API user's resource is looked up once per client, not on every registration.
    expect(resourceQueries() - queriesBefore).toBe(1);
    expect(await autotaskList(`/TicketWebhooks/${first.id}/ExcludedResources`)).toEqual([expect.objectContaining({ webhookID: first.id, resourceID: apiUser.id })]);
    expect((await client.listMembers()).map((member) => member.id)).not.toContain(apiUser.id);
  });

  it('delivers a technician’s change with a valid signature but not the change Switchboard made through the API', async () => {
    const deliveriesBefore = sim.stats().webhookDeliveries;
    const updated = await client.updateTicket(ticketId, { summary: 'Changed by Switchboard through the API' });
    expect(updated.summary).toBe('Changed by Switchboard through the API');
    // The simulator decides on callouts while it handles the write, so the count is final once the update returns.
    expect(sim.stats().webhookDeliveries).toBe(deliveriesBefore);

    const edit = await fetch(`${sim.url}/__sim/autotask/technician-ticket-edits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ resourceId: technicianResourceId, ticket: { id: ticketId, title: 'Changed by a technician in Autotask' } }),
    });
    expect(edit.status).toBe(200);
    expect(sim.stats().webhookDeliveries).toBe(deliveriesBefore + 1);
    await waitForDeliveries(1);

    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    if (!delivery) throw new Error('no delivery');
    expect(delivery.headers['x-hook-signature']).toBe(`sha1=${createHmac('sha1', secretKey).update(delivery.body, 'utf8').digest('base64')}`);
    expect(JSON.parse(delivery.body)).toMatchObject({ Action: 'Update', EntityType: 'Ticket', Id: ticketId, PersonID: technicianResourceId, Fields: { title: 'Changed by a technician in Autotask' } });
  });
});
