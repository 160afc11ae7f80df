import { describe, expect, it } from 'vitest';
import { and, count, eq, isNotNull } from 'drizzle-orm';
import { ALL_PERMISSIONS, MESSAGES } from '@switchboard/contracts';
import { psaMembers, users } from '@switchboard/db';
import type { TPsaMember } from '@switchboard/psa';
import type { TPsaSimulator } from '@switchboard/psa-sim';
import type { TTestApp } from '../../../test/test-app';
import { buildConnectedMsp, simulatorPsaClient, withTwoSiteApp, type TTwoSiteApp } from '../../../test/psa-simulator';
import type { TTestMsp, TTestUser } from '../../../test/factories';
import type { TActor } from '../../plugins/access';
import type { TPsaClientProvider } from '../integrations/psa-client-for-msp';
import { createEmployeesService } from './employees.service';

// Regression (decision 042, "Work in flight"): the PSA member import (A-006 list, A-046 import) read the members from the
// PSA and then wrote them, and the technicians linked to them, without checking that the MSP was still connected to that
// PSA. Keys for another ConnectWise site saved in between started the data over, and the import then wrote site A's
// members (and technicians linked to site A's member ids) into the data of site B.

let t: TTestApp;
let siteA: TPsaSimulator;
let connectSiteB: TTwoSiteApp['connectSiteB'];
withTwoSiteApp((ready) => ({ t, siteA, connectSiteB } = ready));

const db = () => t.deps.database.db;

/** The app's PSA clients, except that `listMembers` has site A answer and then the admin switches to site B, before the answer is written. */
function clientsSwitchingAfterListMembers(midway: () => Promise<void>): Pick<TPsaClientProvider, 'forMsp'> {
  return {
    async forMsp(mspId) {
      const client = await t.deps.psaClients.forMsp(mspId);
      return new Proxy(client, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (property === 'listMembers') {
            return async (): Promise<TPsaMember[]> => {
              const members = await target.listMembers();
              await midway();
              return members;
            };
          }
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

const actorOf = (msp: TTestMsp, user: TTestUser): TActor => ({ mspId: msp.id, mspCustomDomain: msp.customDomain, userId: user.id, userKind: 'technician', permissions: ALL_PERMISSIONS, ip: '127.0.0.1', requestId: 'employees-in-flight' });

async function memberCopiesOf(mspId: string): Promise<number> {
  const [row] = await db().select({ value: count() }).from(psaMembers).where(eq(psaMembers.mspId, mspId));
  return row?.value ?? 0;
}

async function techniciansOf(mspId: string): Promise<{ all: number; linked: number }> {
  const [all] = await db().select({ value: count() }).from(users).where(eq(users.mspId, mspId));
  const [linked] = await db().select({ value: count() }).from(users).where(and(eq(users.mspId, mspId), isNotNull(users.psaMemberId)));
  return { all: all?.value ?? 0, linked: linked?.value ?? 0 };
}

describe('the PSA member import when keys for another PSA are saved meanwhile (decision 042)', () => {
  it('A-046: members read from site A are not imported after site B is connected: 409 in plain words, nothing of site A written', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const [member] = (await simulatorPsaClient(siteA, 'connectwise', 'employees-in-flight').listMembers()).filter((each) => each.email);
    if (!member) throw new Error('the demo PSA needs a member with an e-mail');
    const employees = createEmployeesService({ ...t.deps, psaClients: { ...t.deps.psaClients, ...clientsSwitchingAfterListMembers(() => connectSiteB(admin, msp)) } });

    await expect(employees.importPsaMembers(actorOf(msp, adminUser), { members: [{ psaMemberId: String(member.id) }] })).rejects.toMatchObject({
      statusCode: 409,
      detail: MESSAGES.imports.connectionChanged,
    });
    expect(await memberCopiesOf(msp.id)).toBe(0);
    expect(await techniciansOf(msp.id)).toEqual({ all: 1, linked: 0 });
  }, 60_000);

  it('A-006: the candidates read from site A are not copied after site B is connected: 409 in plain words, no member copy', async () => {
    const { msp, adminUser, admin } = await buildConnectedMsp(t, siteA, 'connectwise');
    const employees = createEmployeesService({ ...t.deps, psaClients: { ...t.deps.psaClients, ...clientsSwitchingAfterListMembers(() => connectSiteB(admin, msp)) } });

    await expect(employees.listImportCandidates(actorOf(msp, adminUser))).rejects.toMatchObject({ statusCode: 409, detail: MESSAGES.imports.connectionChanged });
    expect(await memberCopiesOf(msp.id)).toBe(0);
    // Site B's own members are listed once the admin opens the list again.
    expect((await admin.get(`/db/${msp.customDomain}/psaMembers`)).statusCode).toBe(200);
    expect(await memberCopiesOf(msp.id)).toBeGreaterThan(0);
  }, 60_000);
});
