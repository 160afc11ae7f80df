import { describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import { generateScale } from './scale';
import { seedDemoData, seedReferenceData } from './seed';
import { SimStore } from './store';
import { asArray, asRecord, autotaskCall, connectWiseCall, parseLinkHeader } from './test-support';

function scaledStore(seed?: number): SimStore {
  const store = new SimStore(() => Date.UTC(2026, 0, 1));
  seedReferenceData(store);
  seedDemoData(store);
  return generateScale({ companies: 50, contacts: 500, tickets: 1000, seed }, store);
}

describe('generateScale', () => {
  it('is deterministic for a seed and continues the demo ids', () => {
    const first = scaledStore();
    const second = scaledStore();
    expect([...first.contacts.all()]).toEqual([...second.contacts.all()]);
    expect([...first.tickets.all()]).toEqual([...second.tickets.all()]);
    expect(first.companies.get(25)?.identifier).toBe('SC25');
    expect(first.contacts.get(179)?.companyId).toBe(25);
    expect(first.tickets.get(100521)?.boardId).toBe(1);
    expect([...scaledStore(7).contacts.all()]).not.toEqual([...first.contacts.all()]);
  });

  it('a scenario adds one named company with its contacts after the demo rows, served over two ConnectWise pages', async () => {
    const sim = await startPsaSimulator({ seed: 'demo' });
    try {
      const before = asRecord((await connectWiseCall(sim, 'GET', '/company/contacts/count')).body).count;
      const { companyId } = sim.addCompanyWithContacts({ name: 'Tailspin Imports', contacts: 1_100 });
      expect(companyId).toBe(25);
      const company = asRecord((await connectWiseCall(sim, 'GET', `/company/companies/${companyId}`)).body);
      expect(company.name).toBe('Tailspin Imports');
      expect(asRecord((await connectWiseCall(sim, 'GET', '/company/contacts/count')).body).count).toBe(Number(before) + 1_100);
      const ofCompany = asRecord((await connectWiseCall(sim, 'GET', `/company/contacts/count?conditions=${encodeURIComponent(`company/id=${companyId}`)}`)).body);
      expect(ofCompany.count).toBe(1_100);
      const second = await connectWiseCall(sim, 'GET', '/company/contacts?pageSize=1000&page=2&fields=id');
      expect(asArray(second.body)).toHaveLength(Number(before) + 100);
    } finally {
      await sim.close();
    }
  });

  it('builds its own store with the reference data when given only counts', () => {
    const store = generateScale({ companies: 3, contacts: 6, tickets: 9 });
    expect([store.companies.size, store.contacts.size, store.tickets.size]).toEqual([3, 6, 9]);
    expect(store.boards.size).toBe(1);
  });

  it('serves 50,000 contacts through both PSAs with paging, within memory', async () => {
    const sim = await startPsaSimulator({ seed: 'empty', scale: { companies: 2000, contacts: 50_000, tickets: 20_000 } });
    try {
      const count = asRecord((await connectWiseCall(sim, 'GET', '/company/contacts/count')).body);
      expect(count.count).toBe(50_000);
      const page = await connectWiseCall(sim, 'GET', '/company/contacts?pageSize=1000&page=50&fields=id');
      expect(asArray(page.body).map((row) => row.id)).toHaveLength(1000);
      expect(parseLinkHeader(page.headers.get('link')).next).toBeUndefined();
      const atPage = asRecord((await autotaskCall(sim, 'POST', '/Contacts/query', { filter: [{ op: 'gt', field: 'id', value: 49_900 }] })).body);
      expect(asArray(atPage.items)).toHaveLength(100);
      expect(process.memoryUsage().rss).toBeLessThan(600 * 1024 * 1024);
    } finally {
      await sim.close();
    }
  });
});
