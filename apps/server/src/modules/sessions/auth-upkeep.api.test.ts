import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { auditEvents, authThrottle, outboxMail, sessions, verificationCodes } from '@switchboard/db';
import { buildMsp, buildUser, signedInClient } from '../../../test/factories';
import { createTestApp, type TTestApp } from '../../../test/test-app';
import { nextIp } from '../auth/auth-test-helpers';
import { purgeExpiredAuthRows } from './auth-upkeep';

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('auth upkeep (review: expired auth rows were never purged)', () => {
  it('deletes long-expired sessions, used or expired codes, spent throttle rows and old outbox mail, and keeps every live row and the audit trail', async () => {
    const db = t.deps.database.db;
    const now = t.deps.now();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const ahead = (ms: number) => new Date(now.getTime() + ms);
    const msp = await buildMsp(t);
    const user = await buildUser(t, msp);
    // A session signed in through the API: it must still work after the pass.
    const client = await signedInClient(t, user, nextIp());

    const sessionRow = (label: string, expiresAt: Date) => ({ tokenHash: `upkeep-${label}-${randomUUID()}`, principalKind: 'user' as const, mspId: msp.id, userId: user.id, expiresAt });
    const expiredLongAgo = sessionRow('expired-long-ago', ago(3 * DAY));
    const expiredJustNow = sessionRow('expired-just-now', ago(HOUR));
    const live = sessionRow('live', ahead(DAY));
    await db.insert(sessions).values([expiredLongAgo, expiredJustNow, live]);

    const code = (label: string, values: { expiresAt: Date; consumedAt?: Date; purpose?: 'sign_in' | 'password_reset' | 'invitation' }) => ({
      id: randomUUID(),
      label,
      row: { mspId: msp.id, userId: user.id, purpose: values.purpose ?? ('sign_in' as const), codeHash: 'x', expiresAt: values.expiresAt, consumedAt: values.consumedAt ?? null },
    });
    const codes = {
      usedLongAgo: code('used long ago', { expiresAt: ago(2 * DAY - 10 * 60 * 1000), consumedAt: ago(2 * DAY) }),
      expiredLongAgo: code('expired long ago', { expiresAt: ago(2 * DAY), purpose: 'password_reset' }),
      expiredInvitation: code('invitation expired long ago', { expiresAt: ago(5 * DAY), purpose: 'invitation' }),
      usedJustNow: code('used just now', { expiresAt: ahead(5 * 60 * 1000), consumedAt: ago(60 * 1000) }),
      expiredJustNow: code('expired just now', { expiresAt: ago(60 * 1000) }),
      open: code('open', { expiresAt: ahead(10 * 60 * 1000) }),
      openInvitation: code('open invitation', { expiresAt: ahead(70 * HOUR), purpose: 'invitation' }),
    };
    await db.insert(verificationCodes).values(Object.values(codes).map(({ id, row }) => ({ id, ...row })));

    const key = (label: string) => `upkeep:${label}:${randomUUID()}`;
    const throttle = {
      windowPassed: { key: key('window-passed'), count: 3, windowStartedAt: ago(HOUR), lockedUntil: null },
      lockPassed: { key: key('lock-passed'), count: 10, windowStartedAt: ago(HOUR), lockedUntil: ago(30 * 60 * 1000) },
      stillLocked: { key: key('still-locked'), count: 10, windowStartedAt: ago(HOUR), lockedUntil: ahead(5 * 60 * 1000) },
      windowOpen: { key: key('window-open'), count: 19, windowStartedAt: ago(60 * 1000), lockedUntil: null },
    };
    await db.insert(authThrottle).values(Object.values(throttle));

    const to = `upkeep-${randomUUID()}@example.com`;
    const [oldMail, recentMail] = await db
      .insert(outboxMail)
      .values([
        { mspId: msp.id, to, subject: 'old', text: 'old', transport: 'smtp', createdAt: ago(31 * DAY) },
        { mspId: msp.id, to, subject: 'recent', text: 'recent', transport: 'smtp', createdAt: ago(DAY) },
      ])
      .returning();
    const [oldAudit] = await db.insert(auditEvents).values({ mspId: msp.id, actorKind: 'user', actorId: user.id, action: 'auth.logout', outcome: 'success', createdAt: ago(400 * DAY) }).returning();

    // Two replicas running their pass at once delete each row once between them, and neither fails.
    const [first, second] = await Promise.all([purgeExpiredAuthRows(db, now), purgeExpiredAuthRows(db, now)]);
    const deleted = Object.fromEntries((['sessions', 'verificationCodes', 'authThrottle', 'outboxMail'] as const).map((table) => [table, first[table] + second[table]]));
    expect(deleted).toEqual({ sessions: 1, verificationCodes: 3, authThrottle: 2, outboxMail: 1 });

    const sessionHashes = (await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(inArray(sessions.tokenHash, [expiredLongAgo.tokenHash, expiredJustNow.tokenHash, live.tokenHash]))).map((row) => row.tokenHash);
    expect(sessionHashes.sort()).toEqual([expiredJustNow.tokenHash, live.tokenHash].sort());

    const codeIds = new Set((await db.select({ id: verificationCodes.id }).from(verificationCodes).where(eq(verificationCodes.mspId, msp.id))).map((row) => row.id));
    const keptCodes = Object.values(codes)
      .filter(({ id }) => codeIds.has(id))
      .map(({ label }) => label);
    expect(keptCodes.sort()).toEqual(['expired just now', 'open', 'open invitation', 'used just now']);

    const keys = new Set((await db.select({ key: authThrottle.key }).from(authThrottle).where(inArray(authThrottle.key, Object.values(throttle).map((row) => row.key)))).map((row) => row.key));
    expect(Object.entries(throttle).filter(([, row]) => keys.has(row.key)).map(([name]) => name).sort()).toEqual(['stillLocked', 'windowOpen']);

    expect((await db.select({ id: outboxMail.id }).from(outboxMail).where(eq(outboxMail.to, to))).map((row) => row.id)).toEqual([recentMail?.id]);
    expect(oldMail).toBeDefined();
    expect(await db.select().from(auditEvents).where(eq(auditEvents.id, oldAudit?.id ?? ''))).toHaveLength(1);

    // The signed-in session is untouched.
    const own = await client.get(`/db/${msp.customDomain}/technicianUsers/getById?id=${user.id}`);
    expect(own.statusCode, own.body).toBe(200);

    // A second pass finds nothing more to delete.
    expect(await purgeExpiredAuthRows(db, now)).toEqual({ sessions: 0, verificationCodes: 0, authThrottle: 0, outboxMail: 0 });
  });
});
