import { z } from 'zod';
import { PSA_WRITE_MESSAGES } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { upsertPsaDirectory } from '../psa-directory/psa-directory.repository';
import { definePsaWrite, type TPsaOutboxRow } from '../psa-outbox/psa-outbox';
import { psaResendOf } from '../psa-outbox/psa-resend';

/**
 * Add contact as a kind of the one PSA outbox (decision 013): the add is stored in
 * psa_outbox with the request's transaction, sent at once, and resent by the outbox's retry loop
 * while the PSA is down. The adapters look the contact up before resending a create whose answer
 * was lost, so a retry never makes a second contact: Autotask by the idempotency key it carries,
 * ConnectWise by company, names and e-mail among the active contacts created since the write was
 * stored, and only on a resend (psaResendOf), so an older namesake is never taken for the new contact.
 */
export const CONTACT_CREATE = 'contact.create';
/** The write is about a client company, named by its PSA id: a company's pending adds are found by it. */
export const CONTACT_TARGET = 'psa_company';

const ZContactCreatePayload = z.object({
  psaType: z.enum(['CONNECTWISE', 'AUTOTASK']),
  externalCompanyId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  emailTypeId: z.number().nullable(),
  phoneTypeId: z.number().nullable(),
});
export type TContactCreatePayload = z.infer<typeof ZContactCreatePayload>;

const ZContactCreateResult = z.object({
  externalContactId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  isActive: z.boolean(),
});
export type TContactCreateResult = z.infer<typeof ZContactCreateResult>;

/** The PSA id of the contact an earlier add about the same company made (its done result), null for any other result. */
function contactIdOfResult(result: unknown): number | null {
  const parsed = ZContactCreateResult.safeParse(result);
  const id = parsed.success ? Number(parsed.data.externalContactId) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** The stored payload of an add-contact write (JSON in psa_outbox). */
export function contactPayloadOf(row: TPsaOutboxRow): TContactCreatePayload {
  return ZContactCreatePayload.parse(row.payload);
}

/** What the PSA answered for a finished add, or null while it is not done. */
export function contactResultOf(row: TPsaOutboxRow): TContactCreateResult | null {
  const parsed = ZContactCreateResult.safeParse(row.result);
  return row.status === 'done' && parsed.success ? parsed.data : null;
}

definePsaWrite<TContactCreatePayload, TContactCreateResult>(CONTACT_CREATE, {
  describe: (payload) => PSA_WRITE_MESSAGES.summary.contactCreate(payload.firstName, payload.lastName),
  async send(client, payload, row, context) {
    const psaType = client.psaType === 'connectwise' ? 'CONNECTWISE' : 'AUTOTASK';
    if (psaType !== payload.psaType) throw new AppError('psa_validation', `The MSP's PSA is now ${psaType}; this contact was meant for ${payload.psaType}.`);
    const created = await client.createContact({
      idempotencyKey: row.id,
      companyId: Number(payload.externalCompanyId),
      firstName: payload.firstName,
      lastName: payload.lastName,
      email: payload.email,
      phone: payload.phone,
      emailTypeId: payload.emailTypeId,
      phoneTypeId: payload.phoneTypeId,
      resend: await psaResendOf(context.db, row, context.now, contactIdOfResult),
    });
    return {
      externalContactId: String(created.id),
      firstName: created.firstName,
      lastName: created.lastName,
      email: created.email ?? payload.email,
      phone: created.phone ?? payload.phone,
      isActive: created.isActive,
    };
  },
  // In the transaction that marks the write done: the contact lands in the synchronized copy with it.
  async onDone(tx, row, result) {
    const payload = contactPayloadOf(row);
    const contact = { externalId: result.externalContactId, externalCompanyId: payload.externalCompanyId, firstName: result.firstName, lastName: result.lastName, email: result.email, phone: result.phone, isActive: result.isActive };
    await upsertPsaDirectory(tx, row.mspId, payload.psaType, { contacts: [contact] }, new Date());
  },
});
