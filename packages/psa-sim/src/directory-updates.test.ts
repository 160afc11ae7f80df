import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPsaSimulator } from './index';
import type { TPsaSimulator } from './index';
import { asArray, asRecord, autotaskCall, connectWiseCall } from './test-support';

// Company and contact updates through either PSA show up in the other, since both front-ends share one store.

let sim: TPsaSimulator;

beforeAll(async () => {
  sim = await startPsaSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('company and contact updates', () => {
  it('patches a ConnectWise contact email and reads it back from Autotask', async () => {
    const patched = await connectWiseCall(sim, 'PATCH', '/company/contacts/1', [
      { op: 'replace', path: 'title', value: 'Owner' },
      { op: 'replace', path: 'communicationItems', value: [{ type: { id: 1, name: 'Email' }, value: 'helen@brightwaterdental.example', communicationType: 'Email', defaultFlag: true }] },
    ]);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Owner', communicationItems: [{ value: 'helen@brightwaterdental.example' }] });
    const item = asRecord(asRecord((await autotaskCall(sim, 'GET', '/Contacts/1')).body).item);
    expect(item).toMatchObject({ emailAddress: 'helen@brightwaterdental.example', phone: '', title: 'Owner' });
    const invalid = await connectWiseCall(sim, 'PATCH', '/company/contacts/1', [{ op: 'replace', path: 'firstName', value: '' }]);
    expect(asArray(asRecord(invalid.body).errors)[0]).toMatchObject({ code: 'MissingRequiredField', field: 'firstName' });
  });

  it('patches a ConnectWise company and rejects a duplicate identifier', async () => {
    const patched = await connectWiseCall(sim, 'PATCH', '/company/companies/2', [{ op: 'replace', path: 'phoneNumber', value: '3035550000' }]);
    expect(patched.body).toMatchObject({ id: 2, phoneNumber: '3035550000' });
    const duplicate = await connectWiseCall(sim, 'PATCH', '/company/companies/2', [{ op: 'replace', path: 'identifier', value: 'BWFD' }]);
    expect(asArray(asRecord(duplicate.body).errors)[0]).toMatchObject({ code: 'ObjectExists', field: 'identifier' });
  });

  it('updates Autotask contacts under their company and companies with PATCH {id, …}', async () => {
    const updated = await autotaskCall(sim, 'PATCH', '/Companies/1/Contacts', { id: 2, phone: '3035551234', isActive: 0 });
    expect(updated.body).toEqual({ itemId: 2 });
    const contact = asRecord((await connectWiseCall(sim, 'GET', '/company/contacts/2')).body);
    expect(contact).toMatchObject({ inactiveFlag: true, defaultPhoneNbr: '3035551234' });
    expect((await autotaskCall(sim, 'PATCH', '/Companies/2/Contacts', { id: 2, phone: 'x' })).status).toBe(500);
    const company = await autotaskCall(sim, 'PATCH', '/Companies', { id: 3, companyName: 'Renamed Co' });
    expect(company.body).toEqual({ itemId: 3 });
    expect(asRecord((await connectWiseCall(sim, 'GET', '/company/companies/3')).body).name).toBe('Renamed Co');
    expect((await autotaskCall(sim, 'PATCH', '/Companies', { id: 3, companyType: 999 })).status).toBe(500);
  });
});
