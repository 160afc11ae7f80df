import { z } from 'zod';
import { EMAIL_CONNECTOR_HOST_MAX, EMAIL_CONNECTOR_MESSAGES, EMAIL_CONNECTOR_PASSWORD_MAX, EMAIL_MAIL_LIST_DEFAULT, EMAIL_MAIL_LIST_MAX, EMAIL_MAIL_MESSAGES, EMAIL_MAIL_OUTCOMES } from '../email-connector';
import { isValidEmail } from '../validation';
import { ZEmail } from './common';
import { ZPsaRecordId } from './companies';

/** What the screen reads (GET/PUT /db/:msp/integrations/email-connector): never the password, only its last four characters. */
export const ZEmailConnectorSettings = z.object({
  isConfigured: z.boolean(),
  address: z.string().nullable(),
  imapHost: z.string().nullable(),
  imapPort: z.number().int().nullable(),
  passwordHint: z.string().nullable(),
  /** When the connector last read the mailbox, and what went wrong then (null when it went well). */
  lastCheckedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** Tickets made from this MSP's mail so far (pending in the PSA included). */
  ticketCount: z.number().int().nonnegative(),
  updatedAt: z.string().nullable(),
});
export type TEmailConnectorSettings = z.infer<typeof ZEmailConnectorSettings>;

/** A host name or address literal: no scheme, path, port or spaces (the port has its own field). */
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/i;

/**
 * PUT /db/:msp/integrations/email-connector. `imapHost` may be left out for the big providers
 * (defaultImapServerOf); `appPassword` may be left out to keep the stored one for the same address.
 */
export const ZSaveEmailConnectorBody = z.object({
  address: ZEmail.pipe(z.string().min(1, EMAIL_CONNECTOR_MESSAGES.addressRequired).refine(isValidEmail, EMAIL_CONNECTOR_MESSAGES.addressInvalid)),
  appPassword: z.string().min(1, EMAIL_CONNECTOR_MESSAGES.passwordRequired).max(EMAIL_CONNECTOR_PASSWORD_MAX).optional(),
  imapHost: z
    .string()
    .trim()
    .max(EMAIL_CONNECTOR_HOST_MAX)
    .refine((value) => value === '' || HOST_PATTERN.test(value), EMAIL_CONNECTOR_MESSAGES.hostInvalid)
    .nullable()
    .optional(),
  imapPort: z.coerce.number().int(EMAIL_CONNECTOR_MESSAGES.portInvalid).min(1, EMAIL_CONNECTOR_MESSAGES.portInvalid).max(65_535, EMAIL_CONNECTOR_MESSAGES.portInvalid).nullable().optional(),
});
export type TSaveEmailConnectorBody = z.infer<typeof ZSaveEmailConnectorBody>;

/**
 * Ours (docs/api-additions.md): one message the connector read from the mailbox and what became of it — a ticket, a note
 * on a ticket, waiting for the PSA, or not turned into a ticket (skipped: why, in plain words) or ignored (an automatic
 * reply or the mailbox's own mail). `ticketNumber` is the PSA's number once the PSA has the ticket or the note.
 */
export const ZEmailConnectorMail = z.object({
  id: z.string(),
  from: z.string(),
  subject: z.string(),
  receivedAt: z.string(),
  outcome: z.enum(EMAIL_MAIL_OUTCOMES),
  reason: z.string().nullable(),
  ticketNumber: z.string().nullable(),
});
export type TEmailConnectorMail = z.infer<typeof ZEmailConnectorMail>;
export const ZEmailConnectorMailList = z.object({ mail: z.array(ZEmailConnectorMail) });
export type TEmailConnectorMailList = z.infer<typeof ZEmailConnectorMailList>;
/** GET /db/:msp/integrations/email-connector/mail?limit= (newest first). */
const LIMIT_MESSAGE = `The limit is a whole number from 1 to ${EMAIL_MAIL_LIST_MAX}.`;
export const ZEmailConnectorMailQuery = z.object({
  limit: z.coerce.number({ error: LIMIT_MESSAGE }).int(LIMIT_MESSAGE).min(1, LIMIT_MESSAGE).max(EMAIL_MAIL_LIST_MAX, LIMIT_MESSAGE).default(EMAIL_MAIL_LIST_DEFAULT),
});

/** POST /db/:msp/integrations/email-connector/mail/:id/file-under: the mail's id (a row of the list). */
export const ZEmailMailIdParams = z.object({ id: z.uuid(EMAIL_MAIL_MESSAGES.fileUnder.mailNotFound) });

/**
 * Ours ("Make a ticket…", decision 036): the company, and optionally one of its contacts, to file one skipped mail under —
 * PSA ids of the MSP's synchronized records (the ticket form's lookups, decision 028, list them).
 */
export const ZFileEmailMailBody = z.object({
  companyId: ZPsaRecordId,
  contactId: ZPsaRecordId.nullable().optional(),
});
export type TFileEmailMailBody = z.infer<typeof ZFileEmailMailBody>;
