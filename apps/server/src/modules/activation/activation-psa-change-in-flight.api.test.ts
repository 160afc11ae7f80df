import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { MESSAGES } from '@switchboard/contracts';
import { psaCompanies, psaContacts, psaMembers, users } from '@switchboard/db';
import type { PsaClient, TPsaCompany } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withTwoSiteApp, type TTwoSiteApp } from '../../../test/psa-simulator';
import { newClient } from '../auth/auth-test-helpers';
import { requireMsp } from '../auth/auth-request';
import { activationPsaLookupFor, createLiveLookupBudget, type TActivationPsaLookup } from './activation-psa-lookup';
import { createActivationService } from './activation.service';

// Regression (decision 042, "Work in flight"): activation asks the MSP's PSA for the activating person's member or
// contact, copies the answer into the synchronized copies and links the new account to it, without checking that the MSP
// was still connected to that PSA. Keys for another ConnectWise site saved in between (or within the minute a live
// answer is reused) put site A's member or contact, and accounts linked to its ids, into the data of site B.

const PASSWORD = 'Activ8-Me!';
let t: TTestApp;
let siteA: TPsaSimulator;
let siteB: TPsaSimulator;
let connectSiteB: TTwoSiteApp['connectSiteB'];
let sequence = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}@example.com`;
withTwoSiteApp((ready) => ({ t, siteA, siteB, connectSiteB } = ready));

const db = () => t.deps.database.db;

/** The app's activation lookup, except that site A answers `method` and then the admin switches to site B, before the answer is written. */
function lookupSwitchingAfter(method: 'findMembersByEmail' | 'findContactsByEmail', midway: () => Promise<void>): TActivationPsaLookup {
  const lookup = activationPsaLookupFor(t.deps, createLiveLookupBudget(t.deps.now), { warn: () => undefined });
  return {
    ...lookup,
    async clientFor(mspId) {
      const client = await lookup.clientFor(mspId);
      if (!client) return null;
      return new Proxy(client, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (property === method) {
            return async (email: string) => {
              const answer = await target[method](email);
              await midway();
              return answer;
            };
          }
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

async function countOf(table: typeof psaMembers | typeof psaContacts | typeof psaCompanies | typeof users, mspId: string): Promise<number> {
  const [row] = await db().select({ value: count() }).from(table).where(eq(table.mspId, mspId));
  return row?.value ?? 0;
}

async function firstCompany(client: PsaClient): Promise<TPsaCompany> {
  for await (const company of client.streamCompanies()) return company;
  throw new Error('the demo seed has no company');
}

describe('activation when keys for another PSA are saved meanwhile (decision 042)', () => {
  it('a technician’s look-up answered by site A is not copied after site B is connected: 409 in plain words, no member copy', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const [member] = (await simulatorPsaClient(siteA, 'connectwise', 'activation-in-flight').listMembers()).filter((each) => each.email);
    if (!member?.email) throw new Error('the demo PSA needs a member with an e-mail');
    const activation = createActivationService(t.deps);

    const looking = activation.lookUpActivationRecords(lookupSwitchingAfter('findMembersByEmail', () => connectSiteB(admin, msp)), await requireMsp(t.deps, msp.customDomain), 'technician', member.email);
    await expect(looking).rejects.toMatchObject({ statusCode: 409, detail: MESSAGES.imports.activationConnectionChanged, extra: { flags: { techEmailCheck: true } } });
    expect(await countOf(psaMembers, msp.id)).toBe(0);
  }, 60_000);

  it('a client activating against site A while site B is connected gets 409 in plain words: no account, no contact or company copy', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const psa = simulatorPsaClient(siteA, 'connectwise', 'activation-in-flight-client');
    const company = await firstCompany(psa);
    const email = uniqueEmail('paula');
    await psa.createContact({ idempotencyKey: email, companyId: company.id, firstName: 'Paula', lastName: 'SiteA', email, phone: '3035550177' });
    const lookup = await newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email)}`);
    expect(lookup.statusCode, lookup.body).toBe(200);
    const rowId = lookup.json<{ records: Array<{ psaContactAutopilotDbId: string }> }>().records[0]?.psaContactAutopilotDbId ?? '';
    const activation = createActivationService(t.deps);

    const activating = activation.activateAccount(
      lookupSwitchingAfter('findContactsByEmail', () => connectSiteB(admin, msp)),
      await requireMsp(t.deps, msp.customDomain),
      'client',
      { email, password: PASSWORD, psaRecordRowId: rowId, psaCompanyId: String(company.id) },
      { ip: '127.0.0.1', requestId: 'activation-in-flight' },
      { baseUrl: 'https://desk.example.com', onMailError: () => undefined },
    );
    await expect(activating).rejects.toMatchObject({ statusCode: 409, detail: MESSAGES.imports.activationConnectionChanged, extra: { flags: { clientSignup: true } } });
    expect(await countOf(psaContacts, msp.id)).toBe(0);
    expect(await countOf(psaCompanies, msp.id)).toBe(0);
    expect(await countOf(users, msp.id)).toBe(1);
  }, 60_000);

  it('site A’s answer of the last minute is not reused once site B is connected: site B is asked, nothing of site A is copied or linked', async () => {
    const { msp, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const psa = simulatorPsaClient(siteA, 'connectwise', 'activation-in-flight-cache');
    const company = await firstCompany(psa);
    const email = uniqueEmail('only-on-site-a');
    await psa.createContact({ idempotencyKey: email, companyId: company.id, firstName: 'Olga', lastName: 'SiteA', email, phone: '3035550178' });
    const lookUp = () => newClient(t).get(`/db/${msp.customDomain}/clientUsers/signup?email=${encodeURIComponent(email)}`);
    expect((await lookUp()).statusCode).toBe(200);

    await connectSiteB(admin, msp);
    const siteBRequests = siteB.stats().requests;
    const again = await lookUp();
    expect(again.statusCode, again.body).toBe(404);
    expect(again.json()).toMatchObject({ detail: MESSAGES.accountDoesNotExist });
    expect(siteB.stats().requests).toBeGreaterThan(siteBRequests);
    expect(await countOf(psaContacts, msp.id)).toBe(0);
    const created = await newClient(t).post(`/db/${msp.customDomain}/clientUsers/createAccount?psaCompanyId=${company.id}`, { email, password: PASSWORD, psaContactAutopilotDbId: '00000000-0000-4000-8000-000000000000' });
    expect(created.statusCode, created.body).toBe(404);
    expect(await countOf(users, msp.id)).toBe(1);
    expect(await countOf(psaContacts, msp.id)).toBe(0);
  }, 60_000);
});
