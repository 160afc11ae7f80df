import { z } from 'zod';
import { ZCustomDomain } from './common';

/** Rows one save-selected call takes (the panel sends selections in batches of this size). */
export const IMPORT_SAVE_MAX_ROWS = 1_000;
/** Rows per `data` event of a progressive stream. */
export const IMPORT_CHUNK_ROWS = 250;

const ZPsaId = z.number().int().positive();
const ZName = z.string().trim().max(200);
const ZOptionalText = z.string().trim().max(250).nullable();
const ZOptionalPhone = z.string().trim().max(60).nullable();

/** A PSA company as the clients stream sends it and A-056 takes it back. */
export const ZProgressiveClient = z.object({
  id: ZPsaId,
  name: ZName.min(1),
  identifier: z.string().trim().max(100).nullable(),
  isActive: z.boolean(),
  /**
   * The company's PSA client types by name (01 §3 Client company: psaClientType), stored for the Companies screen's
   * client-type filter. Optional so a page that sends rows without it leaves the stored types as they are.
   */
  psaClientType: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  /** The company's main phone and city, for the Companies screen; optional and null alike leave the stored ones as they are. */
  phone: ZOptionalPhone.optional(),
  city: z.string().trim().max(100).nullable().optional(),
  /**
   * the stream says whether this MSP has already saved the company (a copy of this PSA exists), so a second load
   * can show it and offer the new ones only. Ignored by A-056: a save is keyed by the PSA id either way.
   */
  isAlreadySaved: z.boolean().optional(),
});
export type TProgressiveClient = z.infer<typeof ZProgressiveClient>;

/** A PSA contact as the contacts stream sends it and A-057 takes it back. */
export const ZProgressiveContact = z.object({
  id: ZPsaId,
  companyId: ZPsaId.nullable(),
  firstName: ZName,
  lastName: ZName,
  email: ZOptionalText,
  phone: ZOptionalPhone,
  isActive: z.boolean(),
});
export type TProgressiveContact = z.infer<typeof ZProgressiveContact>;

export const ZProgressiveStreamQuery = z
  .object({
    mspCustomDomain: ZCustomDomain,
    /** Resume: the import job of an earlier, interrupted stream (progress counts continue). */
    jobId: z.uuid().optional(),
    /**
     * Ours (issue #11): on a resume, the last row id the browser holds and how many rows it holds. The server cannot know
     * which of the chunks it wrote reached the browser before the connection died, so the browser says where it got to.
     */
    afterId: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    received: z.coerce.number().int().min(0).max(10_000_000).optional(),
  })
  .refine((query) => (query.afterId === undefined) === (query.received === undefined) && (query.afterId === undefined || query.jobId !== undefined), {
    message: 'afterId and received go together, with the jobId of the import they resume.',
    path: ['afterId'],
  });

/** `progress` event payload. */
export const ZImportProgress = z.object({
  importJobId: z.uuid(),
  progress: z.object({ progressPercentage: z.number().min(0).max(100), currentPage: z.number().int().min(0), fetched: z.number().int(), total: z.number().int().nullable() }),
});
export type TImportProgress = z.infer<typeof ZImportProgress>;

export const ZSaveSelectedClientsBody = z.object({
  mspCustomDomain: ZCustomDomain,
  importJobId: z.uuid().optional(),
  selectedClients: z.array(ZProgressiveClient).max(IMPORT_SAVE_MAX_ROWS),
});
export const ZSaveSelectedContactsQuery = z.object({ mspCustomDomain: ZCustomDomain, jobId: z.uuid().optional() });
export const ZSaveSelectedContactsBody = z.array(ZProgressiveContact).max(IMPORT_SAVE_MAX_ROWS);

export const ZSaveSelectedResult = z.object({
  /** Rows written by this call (new plus updated). */
  saved: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  /** Contacts whose company has not been imported: not saved. */
  skipped: z.array(z.object({ id: z.number().int(), reason: z.string() })),
  /** Running total of the import job, when one was given. */
  jobSaved: z.number().int().nullable(),
});
export type TSaveSelectedResult = z.infer<typeof ZSaveSelectedResult>;

export const ZUpdateClientSyncQuery = z.object({
  // Stored in an integer column: a larger number is a 400, not a database error.
  clientTypeId: z.coerce.number().int().positive().max(2_147_483_647),
  clientTypeName: z.string().trim().min(1).max(100),
});
export const ZClientSyncResult = z.object({ syncClientsTypeId: z.number().int(), syncClientsTypeName: z.string() });
export const ZSyncClientsContactsResult = z.object({ companies: z.number().int(), contacts: z.number().int() });
