import { z } from 'zod';
import { ZCustomDomain } from '@switchboard/contracts';

export const ZPsaReadQuery = z.object({ mspCustomDomain: ZCustomDomain });
export const ZPsaStatusesQuery = ZPsaReadQuery.extend({ boardId: z.coerce.number().int().positive().optional() });
export const ZPsaTicketQuery = ZPsaReadQuery.extend({ ticketId: z.coerce.number().int().positive() });

export const ZPsaNamed = z.object({ id: z.number().int(), name: z.string() });
export const ZPsaBoard = ZPsaNamed.extend({ isActive: z.boolean() });
export const ZPsaPriority = ZPsaNamed.extend({ sortOrder: z.number(), isDefault: z.boolean() });
export const ZPsaStatus = ZPsaNamed.extend({
  boardId: z.number().int().nullable(),
  isClosed: z.boolean(),
  isDefault: z.boolean(),
  isActive: z.boolean(),
  sortOrder: z.number(),
});
export const ZPsaMember = z.object({
  id: z.number().int(),
  identifier: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  isActive: z.boolean(),
});
export const ZPsaCommunicationType = ZPsaNamed.extend({ isEmail: z.boolean(), isPhone: z.boolean() });
export const ZPsaTicket = z.object({
  id: z.number().int(),
  number: z.string(),
  summary: z.string(),
  boardId: z.number().int().nullable(),
  statusId: z.number().int().nullable(),
  statusName: z.string().nullable(),
  isClosed: z.boolean(),
  priorityId: z.number().int().nullable(),
  typeId: z.number().int().nullable(),
  subtypeId: z.number().int().nullable(),
  itemId: z.number().int().nullable(),
  companyId: z.number().int().nullable(),
  contactId: z.number().int().nullable(),
  ownerId: z.number().int().nullable(),
  externalReference: z.string().nullable(),
  sourceId: z.number().int().nullable(),
  dueAt: z.string().nullable(),
  teamId: z.number().int().nullable(),
  impact: z.enum(['Low', 'Medium', 'High']).nullable(),
  severity: z.enum(['Low', 'Medium', 'High']).nullable(),
  ticketTypeId: z.number().int().nullable(),
  ticketCategoryId: z.number().int().nullable(),
});
export const ZPsaNote = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  text: z.string(),
  kind: z.enum(['description', 'internal', 'resolution']),
  isInternal: z.boolean(),
  createdAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  memberId: z.number().int().nullable().optional(),
});
export const ZPsaTicketStatus = z.object({
  ticketId: z.number().int(),
  statusId: z.number().int().nullable(),
  statusName: z.string().nullable(),
  isClosed: z.boolean(),
});
