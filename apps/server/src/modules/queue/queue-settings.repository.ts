import { eq } from 'drizzle-orm';
import { queueSettings, type TDatabase } from '@switchboard/db';
import type { TQueueSettings } from '@switchboard/contracts';
import { DEFAULT_QUEUE_SETTINGS } from './queue.scoring';

/** The MSP's queue settings (defaults until an admin saves). */
export async function findQueueSettings(db: TDatabase, mspId: string): Promise<TQueueSettings> {
  const [row] = await db.select().from(queueSettings).where(eq(queueSettings.mspId, mspId)).limit(1);
  if (!row) return DEFAULT_QUEUE_SETTINGS;
  return {
    priorityWeight: row.priorityWeight,
    subtypeWeight: row.subtypeWeight,
    slaWeight: row.slaWeight,
    ageWeight: row.ageWeight,
    rejectCooldownMinutes: row.rejectCooldownMinutes,
    idleReleaseMinutes: row.idleReleaseMinutes,
    releaseOnSignOut: row.releaseOnSignOut,
    timeZone: row.timeZone,
  };
}

/** The MSP's working-day time zone (queue settings), whose midnight flags a timer session. */
export async function queueTimeZoneOf(db: TDatabase, mspId: string): Promise<string> {
  const [row] = await db.select({ timeZone: queueSettings.timeZone }).from(queueSettings).where(eq(queueSettings.mspId, mspId)).limit(1);
  return row?.timeZone ?? DEFAULT_QUEUE_SETTINGS.timeZone;
}

export async function saveQueueSettings(db: TDatabase, mspId: string, settings: TQueueSettings, now: Date): Promise<void> {
  await db
    .insert(queueSettings)
    .values({ mspId, ...settings, updatedAt: now })
    .onConflictDoUpdate({ target: queueSettings.mspId, set: { ...settings, updatedAt: now } });
}
