import { and, asc, eq } from 'drizzle-orm';
import { queueNotes, type TDatabase } from '@switchboard/db';

export type TQueueNoteRow = typeof queueNotes.$inferSelect;

export async function insertQueueNote(db: TDatabase, values: typeof queueNotes.$inferInsert): Promise<TQueueNoteRow> {
  const [row] = await db.insert(queueNotes).values(values).returning();
  if (!row) throw new Error('Note insert returned no row');
  return row;
}

/** The notes written through Switchboard on one queue ticket, oldest first. */
export function listQueueNotes(db: TDatabase, mspId: string, queueTicketId: string): Promise<TQueueNoteRow[]> {
  return db
    .select()
    .from(queueNotes)
    .where(and(eq(queueNotes.mspId, mspId), eq(queueNotes.queueTicketId, queueTicketId)))
    .orderBy(asc(queueNotes.createdAt));
}

export async function findQueueNote(db: TDatabase, mspId: string, id: string): Promise<TQueueNoteRow | undefined> {
  const [row] = await db.select().from(queueNotes).where(and(eq(queueNotes.mspId, mspId), eq(queueNotes.id, id))).limit(1);
  return row;
}
