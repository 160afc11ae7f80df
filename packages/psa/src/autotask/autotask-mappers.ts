import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';
import type { TPsaCompany, TPsaContact, TPsaMember, TPsaMemberWithPhone, TPsaNamed, TPsaNoteKind } from '../psa-client';

const ZFlag = z.union([z.boolean(), z.number()]).nullish();
const isTrue = (flag: boolean | number | null | undefined): boolean => flag === true || flag === 1;
const ZId = z.number().int();

const ZResource = z.object({
  id: ZId,
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  email: z.string().nullish(),
  userName: z.string().nullish(),
  officePhone: z.string().nullish(),
  mobilePhone: z.string().nullish(),
  isActive: ZFlag,
});
export const toMember = (row: unknown): TPsaMember => {
  const resource = parsePsaPayload(ZResource, row, 'resource');
  return {
    id: resource.id,
    identifier: resource.userName ?? String(resource.id),
    firstName: resource.firstName ?? '',
    lastName: resource.lastName ?? '',
    email: resource.email ?? null,
    isActive: isTrue(resource.isActive),
  };
};

export const toMemberWithPhone = (row: unknown): TPsaMemberWithPhone => {
  const resource = parsePsaPayload(ZResource, row, 'resource');
  return { ...toMember(row), phone: resource.officePhone || resource.mobilePhone || null };
};

export const ZResourceRole = z.object({ defaultServiceDeskRoleID: ZId.nullish() });

const ZCompany = z.object({ id: ZId, companyName: z.string(), companyNumber: z.string().nullish(), isActive: ZFlag, companyType: ZId.nullish(), phone: z.string().nullish(), city: z.string().nullish() });
/**
 * `companyTypeLabels` is the `Companies.companyType` picklist (value → label): a row carries only the value. A value the
 * picklist does not name (or a read made without the picklist) gives no type rather than a made-up name.
 */
export const toCompany = (row: unknown, companyTypeLabels: ReadonlyMap<number, string> = new Map()): TPsaCompany => {
  const company = parsePsaPayload(ZCompany, row, 'company');
  const typeId = company.companyType ?? null;
  const typeName = typeId === null ? undefined : companyTypeLabels.get(typeId);
  const types = typeId !== null && typeName ? [{ id: typeId, name: typeName }] : [];
  return { id: company.id, identifier: company.companyNumber ?? null, name: company.companyName, isActive: isTrue(company.isActive), types, phone: company.phone?.trim() || null, city: company.city?.trim() || null };
};

const ZContact = z.object({
  id: ZId,
  companyID: ZId.nullish(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  emailAddress: z.string().nullish(),
  phone: z.string().nullish(),
  mobilePhone: z.string().nullish(),
  isActive: ZFlag,
});
export const toContact = (row: unknown): TPsaContact => {
  const contact = parsePsaPayload(ZContact, row, 'contact');
  return {
    id: contact.id,
    companyId: contact.companyID ?? null,
    firstName: contact.firstName ?? '',
    lastName: contact.lastName ?? '',
    email: contact.emailAddress || null,
    phone: contact.phone || contact.mobilePhone || null,
    isActive: isTrue(contact.isActive),
  };
};

const ZNamedRow = z.object({ id: ZId, name: z.string() });
export const toNamed = (row: unknown): TPsaNamed => parsePsaPayload(ZNamedRow, row, 'record');

export const ZTicketRow = z.object({
  id: ZId,
  ticketNumber: z.string().nullish(),
  title: z.string(),
  queueID: ZId.nullish(),
  status: ZId.nullish(),
  priority: ZId.nullish(),
  issueType: ZId.nullish(),
  subIssueType: ZId.nullish(),
  companyID: ZId.nullish(),
  contactID: ZId.nullish(),
  assignedResourceID: ZId.nullish(),
  externalID: z.string().nullish(),
  source: ZId.nullish(),
  dueDateTime: z.string().nullish(),
  ticketType: ZId.nullish(),
  ticketCategory: ZId.nullish(),
});
export type TAutotaskTicketRow = z.infer<typeof ZTicketRow>;

export const ZNoteRow = z.object({
  id: ZId,
  ticketID: ZId.nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  publish: ZId.nullish(),
  noteType: ZId.nullish(),
  createDateTime: z.string().nullish(),
  creatorResourceID: ZId.nullish(),
});
export type TAutotaskNoteRow = z.infer<typeof ZNoteRow>;

/** Autotask keeps the resolution on the ticket; the note we add alongside it carries this title and the "Resolution" note type. */
export const resolutionNoteTitle = 'Resolution';

export interface TNoteKindValues {
  internalPublishValues: ReadonlySet<number>;
  /** The publish values that show a note to every user (All Autotask Users), client portal users included. */
  everyonePublishValues: ReadonlySet<number>;
  resolutionNoteType: number | null;
}

export function noteKindOf(note: TAutotaskNoteRow, values: TNoteKindValues): TPsaNoteKind {
  if (note.title === resolutionNoteTitle || (values.resolutionNoteType !== null && note.noteType === values.resolutionNoteType)) return 'resolution';
  if (note.publish !== null && note.publish !== undefined && values.internalPublishValues.has(note.publish)) return 'internal';
  return 'description';
}

/** Whether clients must not see the note: anything not published to all users (an unknown or missing value too), whatever its kind. */
export function isInternalNote(note: TAutotaskNoteRow, values: TNoteKindValues): boolean {
  return note.publish === null || note.publish === undefined || !values.everyonePublishValues.has(note.publish);
}

export const ZTimeEntryRow = z.object({
  id: ZId,
  ticketID: ZId.nullish(),
  resourceID: ZId,
  roleID: ZId.nullish(),
  dateWorked: z.string(),
  startDateTime: z.string().nullish(),
  endDateTime: z.string().nullish(),
  hoursWorked: z.number().nullish(),
  summaryNotes: z.string().nullish(),
});

export const ZItemEnvelope = z.object({ item: z.unknown() });
export const ZItemIdEnvelope = z.object({ itemId: ZId });
export const ZThreshold = z.object({
  externalRequestThreshold: z.number(),
  requestThresholdTimeframe: z.number(),
  currentTimeframeRequestCount: z.number(),
});
export const ZWebhookRow = z.object({ id: ZId, webhookUrl: z.string() });
export const ZWebhookFieldList = z.object({ items: z.array(z.object({ id: ZId, fieldID: ZId })) });
export const ZWebhookExcludedResourceList = z.object({ items: z.array(z.object({ id: ZId, resourceID: ZId })) });
