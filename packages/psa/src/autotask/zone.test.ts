import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../http/fake-clock';
import { AutotaskClient } from './autotask-adapter';

const config = { psaType: 'autotask' as const, username: 'api@msp.example', secret: 'the-secret-value', integrationCode: 'CODE', zoneDiscoveryUrl: 'https://zones.example/zoneInformation' };

/** A fake Autotask: the zone lookup answers each zone in turn; only the current zone accepts calls. */
function movingTenant(zones: string[], currentZone: string) {
  const calls: string[] = [];
  let lookups = 0;
  const fetchImpl: typeof fetch = (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    calls.push(url);
    if (url.startsWith(config.zoneDiscoveryUrl)) {
      const zone = zones[Math.min(lookups, zones.length - 1)] ?? '';
      lookups += 1;
      return Promise.resolve(Response.json({ zoneName: 'zone', url: zone }));
    }
    if (!url.startsWith(currentZone)) return Promise.resolve(Response.json({ errors: ['Unauthorized'] }, { status: 401 }));
    return Promise.resolve(Response.json({ items: [{ id: 1, name: 'Service Desk' }], pageDetails: { nextPageUrl: null } }));
  };
  return { fetchImpl, calls };
}

describe('Autotask zone discovery', () => {
  it('asks for the zone again after a 401 and retries on the new zone', async () => {
    const { fetchImpl, calls } = movingTenant(['https://ws5.example/ATServicesRest/', 'https://ws14.example/ATServicesRest/'], 'https://ws14.example/');
    const client = new AutotaskClient(config, { tenantKey: 'msp', fetch: fetchImpl, clock: createFakeClock() });
    expect(await client.listDepartments()).toEqual([{ id: 1, name: 'Service Desk' }]);
    expect(calls).toEqual([
      'https://zones.example/zoneInformation?user=api%40msp.example',
      'https://ws5.example/ATServicesRest/V1.0/Departments/query',
      'https://zones.example/zoneInformation?user=api%40msp.example',
      'https://ws14.example/ATServicesRest/V1.0/Departments/query',
    ]);
  });

  it('reports bad keys when the zone has not changed', async () => {
    const { fetchImpl, calls } = movingTenant(['https://ws5.example/ATServicesRest/'], 'https://elsewhere.example/');
    const client = new AutotaskClient(config, { tenantKey: 'msp', fetch: fetchImpl, clock: createFakeClock() });
    await expect(client.listDepartments()).rejects.toMatchObject({ kind: 'bad_keys', status: 401 });
    expect(calls).toHaveLength(3);
  });

  it('refuses a zone the URL guard does not allow, before sending the secret there', async () => {
    const { fetchImpl, calls } = movingTenant(['http://10.0.0.5/ATServicesRest/'], 'http://10.0.0.5/');
    const assertUrlAllowed = (url: string) => (url.includes('10.0.0.5') ? Promise.reject(new Error('private address')) : Promise.resolve());
    const client = new AutotaskClient(config, { tenantKey: 'msp', fetch: fetchImpl, clock: createFakeClock(), assertUrlAllowed });
    await expect(client.listDepartments()).rejects.toThrow('private address');
    expect(calls).toEqual(['https://zones.example/zoneInformation?user=api%40msp.example']);
  });
});
