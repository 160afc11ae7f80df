import { randomUUID } from 'node:crypto';
import { type TBuiltInRoleName } from '@switchboard/contracts';
import { msps, users } from '@switchboard/db';
import { hashPassword } from '../src/lib/crypto';
import { ensureBuiltInRoles } from '../src/modules/roles/built-in-roles';
import { createSession } from '../src/modules/sessions/session.service';
import { TestClient, type TTestApp } from './test-app';

export const DEFAULT_TEST_PASSWORD = 'Passw0rd!';
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

export interface TTestMsp {
  id: string;
  customDomain: string;
  name: string;
  roleIds: Record<TBuiltInRoleName, string>;
}

/** A fresh tenant with its built-in roles; every test gets its own. */
export async function buildMsp(t: TTestApp, overrides: Partial<{ customDomain: string; name: string }> = {}): Promise<TTestMsp> {
  const customDomain = overrides.customDomain ?? `msp-${unique()}`;
  const [msp] = await t.deps.database.db
    .insert(msps)
    .values({ customDomain, name: overrides.name ?? `MSP ${customDomain}`, phone: '3035550100', websiteUrl: 'https://example.com' })
    .returning();
  if (!msp) throw new Error('msp not created');
  const roleIds = await ensureBuiltInRoles(t.deps.database.db, msp.id);
  return { id: msp.id, customDomain, name: msp.name, roleIds };
}

export interface TTestUser {
  id: string;
  mspId: string;
  email: string;
  password: string;
  kind: 'technician' | 'client';
  roleId: string;
}

/** A technician (default: Admin role) or client user of an MSP, with a known password. */
export async function buildUser(
  t: TTestApp,
  msp: TTestMsp,
  overrides: Partial<{ kind: 'technician' | 'client'; role: TBuiltInRoleName; roleId: string; email: string; password: string | null; firstName: string; lastName: string; tierLevel: 'Tier1' | 'Tier2' | 'Tier3' | 'NoTier'; psaMemberId: string; psaCompanyId: string; companyRowId: string }> = {},
): Promise<TTestUser> {
  const kind = overrides.kind ?? 'technician';
  const password = overrides.password === undefined ? DEFAULT_TEST_PASSWORD : overrides.password;
  const email = overrides.email ?? `user-${unique()}@example.com`;
  const roleId = overrides.roleId ?? msp.roleIds[overrides.role ?? (kind === 'client' ? 'Client' : 'Admin')];
  const [user] = await t.deps.database.db
    .insert(users)
    .values({
      mspId: msp.id,
      id: randomUUID(),
      kind,
      roleId,
      firstName: overrides.firstName ?? 'Test',
      lastName: overrides.lastName ?? 'User',
      email,
      phone: '3035550111',
      passwordHash: password === null ? null : await hashPassword(password),
      tierLevel: kind === 'technician' ? (overrides.tierLevel ?? 'Tier1') : null,
      psaMemberId: overrides.psaMemberId ?? null,
      psaCompanyId: overrides.psaCompanyId ?? null,
      companyRowId: overrides.companyRowId ?? null,
    })
    .returning();
  if (!user) throw new Error('user not created');
  return { id: user.id, mspId: msp.id, email, password: password ?? '', kind, roleId };
}

/** A client already signed in as this user (session created directly; auth tests sign in through the API). */
export async function signedInClient(t: TTestApp, user: TTestUser, ip?: string): Promise<TestClient> {
  const { token } = await createSession(t.deps.database.db, { principalKind: 'user', mspId: user.mspId, userId: user.id }, t.deps.now());
  const client = new TestClient(t.app, ip);
  client.useSession(token);
  return client;
}
