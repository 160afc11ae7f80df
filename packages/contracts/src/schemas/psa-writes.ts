import { z } from 'zod';

/** PSA writes not yet in the PSA (decision 013): what the admin's list and the "pending in the PSA" badges show. */

export const ZPsaWriteStatus = z.enum(['pending', 'failed']);
export type TPsaWriteStatus = z.infer<typeof ZPsaWriteStatus>;

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
});
export type TPsaWrite = z.infer<typeof ZPsaWrite>;

export const ZPsaWritesQuery = z.object({
  status: ZPsaWriteStatus.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const ZPsaWriteList = z.object({ writes: z.array(ZPsaWrite) });
export const ZPsaWriteIdParams = z.object({ writeId: z.string().uuid({ message: 'Write not found.' }) });
export const ZPsaWriteResponse = z.object({ write: ZPsaWrite });
