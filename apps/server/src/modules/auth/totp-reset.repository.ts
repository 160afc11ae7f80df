import { and, eq } from 'drizzle-orm';
import { users, type TDatabase } from '@switchboard/db';

/**
 * Removes a user's enrolled authenticator app and any pending setup, only while `enrolledSecret` is still the app they
 * have: one conditional update, so two removals (or a removal and the person's own replacement) racing do not both
 * win. False when the app changed meanwhile.
 */
export async function clearEnrolledTotp(db: TDatabase, mspId: string, userId: string, enrolledSecret: string, now: Date): Promise<boolean> {
  const cleared = await db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, updatedAt: now })
    .where(and(eq(users.mspId, mspId), eq(users.id, userId), eq(users.totpSecret, enrolledSecret)))
    .returning({ id: users.id });
  return cleared.length === 1;
}
