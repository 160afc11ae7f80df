import { z } from 'zod';

/** PSA writes not yet in the PSA (decision 013): what the admin's list and the "pending in the PSA" badges show. */

export const ZPsaWriteStatus = z.enum(['pending', 'failed']);
export type TPsaWriteStatus = z.infer<typeof ZPsaWriteStatus>;

export const ZPsaWriteTicket = z.object({
  /** The PSA's id of the ticket; null when the copy's id is not a number. */
  psaTicketId: z.number().int().nullable(),
  ticketNumber: z.string().nullable(),
  summary: z.string(),
});
export type TPsaWriteTicket = z.infer<typeof ZPsaWriteTicket>;

export const ZPsaWrite = z.object({
  id: z.string(),
  kind: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** What the write does, in plain words ("Time entry of 25 min"); the kind when this server does not know it. */
  summary: z.string(),
  /** The ticket a write about a ticket copy is for (the MSP's own copy of the PSA ticket); null for other writes. */
  ticket: ZPsaWriteTicket.nullable(),
  /** "Send again" may send it: false for a write stopped because the PSA connection changed (it would answer 409). */
  canSendAgain: z.boolean(),
  /** "Discard" may drop it: only a write the PSA refused for good (failed). */
  canDiscard: z.boolean(),
});
export type TPsaWrite = z.infer<typeof ZPsaWrite>;

export const ZPsaWritesQuery = z.object({
  status: ZPsaWriteStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ZPsaWriteList = z.object({ writes: z.array(ZPsaWrite) });
export const ZPsaWriteIdParams = z.object({ writeId: z.string().uuid({ message: 'Write not found.' }) });
export const ZPsaWriteResponse = z.object({ write: ZPsaWrite });
/** A discarded write: never sent, and gone from the list and the tickets' counts. */
export const ZPsaWriteDiscardResponse = z.object({ writeId: z.string(), discardedAt: z.string() });
export type TPsaWriteDiscardResponse = z.infer<typeof ZPsaWriteDiscardResponse>;
