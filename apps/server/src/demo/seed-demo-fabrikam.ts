import { eq } from 'drizzle-orm';
import { DEMO_CREDENTIALS } from '@switchboard/psa-sim';
import { integrations, msps, users } from '@switchboard/db';
import type { TAppDeps } from '../app-deps';
import { encryptSecret, hashPassword } from '../lib/crypto';
import type { TIntegrationSecrets } from '../modules/integrations/integrations.schemas';
import { ensureBuiltInRoles } from '../modules/roles/built-in-roles';
import { DEMO_PASSWORD, type TDemoSignIn } from './seed-demo';

/**
 * The second demo MSP (issue #7 "The demo"): on Autotask, connected to the simulator but not onboarded, so a person
 * can walk the setup wizard themselves. Only its admin exists; technicians, teams, clients and contacts come in
 * through the wizard.
 */
export const FABRIKAM_MSP = {
  customDomain: 'fabrikam',
  name: 'Fabrikam Managed Services',
  phone: '3035550142',
  websiteUrl: 'https://www.fabrikam-ms.example',
} as const;

const FABRIKAM_ADMIN = { firstName: 'Morgan', lastName: 'Reyes', email: 'morgan.reyes@fabrikam-ms.example', phone: '3035550143' } as const;

export const FABRIKAM_SIGN_INS: TDemoSignIn[] = [{ role: 'Admin (Autotask, not onboarded)', email: FABRIKAM_ADMIN.email, kind: 'technician', mspCustomDomain: FABRIKAM_MSP.customDomain }];

/** Seeds fabrikam; idempotent (a second run only follows a changed simulator URL). Returns its MSP id. */
export async function seedFabrikamMsp(deps: Pick<TAppDeps, 'database' | 'config' | 'audit'>, options: { simulatorUrl: string }): Promise<string> {
  const db = deps.database.db;
  const [existingMsp] = await db.select({ id: msps.id }).from(msps).where(eq(msps.customDomain, FABRIKAM_MSP.customDomain)).limit(1);
  const passwordHash = existingMsp ? null : await hashPassword(DEMO_PASSWORD);
  const zoneDiscoveryUrl = `${options.simulatorUrl}/atservicesrest/v1.0/zoneInformation`;
  return db.transaction(async (tx) => {
    const [inserted] = await tx.insert(msps).values(FABRIKAM_MSP).onConflictDoNothing({ target: msps.customDomain }).returning({ id: msps.id });
    const mspId = inserted?.id ?? existingMsp?.id;
    if (!mspId) throw new Error('Fabrikam demo MSP neither inserted nor found');
    const roleIds = await ensureBuiltInRoles(tx, mspId);
    if (passwordHash) {
      await tx
        .insert(users)
        .values({ mspId, kind: 'technician', roleId: roleIds.Admin, ...FABRIKAM_ADMIN, passwordHash, tierLevel: 'Tier3' })
        .onConflictDoNothing();
    }
    const [integration] = await tx.select().from(integrations).where(eq(integrations.mspId, mspId)).limit(1);
    if (!integration) {
      const { username, secret, integrationCode } = DEMO_CREDENTIALS.autotask;
      await tx.insert(integrations).values({
        mspId,
        psaType: 'AUTOTASK',
        settings: { username, zoneDiscoveryUrl },
        secretCiphertext: encryptSecret(deps.config.encryptionKey, JSON.stringify({ psaType: 'AUTOTASK', secret, integrationCode } satisfies TIntegrationSecrets)),
        keyHint: `••••${secret.slice(-4)}`,
        connectWiseManageIntegrator: true,
      });
      await deps.audit.record(tx, { mspId, actorKind: 'system', action: 'demo.seed', target: FABRIKAM_MSP.customDomain, outcome: 'success', details: { psaType: 'AUTOTASK' } });
    } else if (integration.psaType === 'AUTOTASK' && integration.settings.zoneDiscoveryUrl !== zoneDiscoveryUrl) {
      // The simulator may listen on another port than last time.
      await tx.update(integrations).set({ settings: { ...integration.settings, zoneDiscoveryUrl }, updatedAt: new Date() }).where(eq(integrations.mspId, mspId));
    }
    return mspId;
  });
}
