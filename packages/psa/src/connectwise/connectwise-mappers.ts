import { z } from 'zod';
import { parsePsaPayload } from '../http/parse';
import type {
  TPsaAttachment,
  TPsaBoard,
  TPsaCommunicationType,
  TPsaCompany,
  TPsaContact,
  TPsaImpactLevel,
  TPsaContactWithCompany,
  TPsaItem,
  TPsaMember,
  TPsaMemberWithPhone,
  TPsaNamed,
  TPsaNote,
  TPsaPriority,
  TPsaStatus,
  TPsaSubtype,
  TPsaTeam,
  TPsaTicket,
  TPsaTicketType,
  TPsaTimeEntry,
  TPsaTypeAssociation,
} from '../psa-client';

const ZRef = z.object({ id: z.number().int(), name: z.string().nullish(), identifier: z.string().nullish() }).nullish();

const ZBoard = z.object({ id: z.number().int(), name: z.string(), inactiveFlag: z.boolean().nullish() });
export const toBoard = (row: unknown): TPsaBoard => {
  const board = parsePsaPayload(ZBoard, row, 'board');
  return { id: board.id, name: board.name, isActive: board.inactiveFlag !== true };
};

const ZStatus = z.object({
  id: z.number().int(),
  name: z.string(),
  board: ZRef,
  sortOrder: z.number().nullish(),
  inactive: z.boolean().nullish(),
  closedStatus: z.boolean().nullish(),
  defaultFlag: z.boolean().nullish(),
});
export const toStatus = (row: unknown, boardId: number): TPsaStatus => {
  const status = parsePsaPayload(ZStatus, row, 'status');
  return {
    id: status.id,
    name: status.name,
    boardId: status.board?.id ?? boardId,
    isClosed: status.closedStatus === true,
    isDefault: status.defaultFlag === true,
    isActive: status.inactive !== true,
    sortOrder: status.sortOrder ?? 0,
  };
};

const ZType = z.object({ id: z.number().int(), name: z.string(), board: ZRef, inactiveFlag: z.boolean().nullish() });
export const toType = (row: unknown, boardId: number): TPsaTicketType => {
  const type = parsePsaPayload(ZType, row, 'type');
  return { id: type.id, name: type.name, boardId: type.board?.id ?? boardId, isActive: type.inactiveFlag !== true };
};

const ZSubtype = ZType.extend({ typeAssociationIds: z.array(z.number().int()).nullish() });
export const toSubtype = (row: unknown, boardId: number): TPsaSubtype => {
  const subtype = parsePsaPayload(ZSubtype, row, 'subtype');
  return {
    id: subtype.id,
    name: subtype.name,
    boardId: subtype.board?.id ?? boardId,
    typeIds: subtype.typeAssociationIds ?? [],
    isActive: subtype.inactiveFlag !== true,
  };
};

export const toItem = (row: unknown, boardId: number): TPsaItem => {
  const item = parsePsaPayload(ZType, row, 'item');
  return { id: item.id, name: item.name, boardId: item.board?.id ?? boardId, isActive: item.inactiveFlag !== true };
};

const ZAssociation = z.object({ type: ZRef, subType: ZRef, item: ZRef });
export const toAssociation = (row: unknown): TPsaTypeAssociation | null => {
  const association = parsePsaPayload(ZAssociation, row, 'type association');
  if (!association.type) return null;
  return { typeId: association.type.id, subtypeId: association.subType?.id ?? null, itemId: association.item?.id ?? null };
};

const ZPriority = z.object({ id: z.number().int(), name: z.string(), sortOrder: z.number().nullish(), defaultFlag: z.boolean().nullish() });
export const toPriority = (row: unknown): TPsaPriority => {
  const priority = parsePsaPayload(ZPriority, row, 'priority');
  return { id: priority.id, name: priority.name, sortOrder: priority.sortOrder ?? 0, isDefault: priority.defaultFlag === true };
};

const ZNamed = z.object({ id: z.number().int(), name: z.string() });
export const toNamed = (row: unknown): TPsaNamed => parsePsaPayload(ZNamed, row, 'record');

const ZMember = z.object({
  id: z.number().int(),
  identifier: z.string(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  primaryEmail: z.string().nullish(),
  officeEmail: z.string().nullish(),
  officePhone: z.string().nullish(),
  mobilePhone: z.string().nullish(),
  inactiveFlag: z.boolean().nullish(),
});
export const toMember = (row: unknown): TPsaMember => {
  const member = parsePsaPayload(ZMember, row, 'member');
  return {
    id: member.id,
    identifier: member.identifier,
    firstName: member.firstName ?? '',
    lastName: member.lastName ?? '',
    email: member.primaryEmail ?? member.officeEmail ?? null,
    isActive: member.inactiveFlag !== true,
  };
};

export const toMemberWithPhone = (row: unknown): TPsaMemberWithPhone => {
  const member = parsePsaPayload(ZMember, row, 'member');
  return { ...toMember(row), phone: member.officePhone || member.mobilePhone || null };
};

const ZCommunicationType = z.object({ id: z.number().int(), description: z.string(), emailFlag: z.boolean().nullish(), phoneFlag: z.boolean().nullish() });
export const toCommunicationType = (row: unknown): TPsaCommunicationType => {
  const type = parsePsaPayload(ZCommunicationType, row, 'communication type');
  return { id: type.id, name: type.description, isEmail: type.emailFlag === true, isPhone: type.phoneFlag === true };
};

/** A CompanyTypeReference (`id: number | null`); a type without an id cannot be matched to a chosen type, so it is dropped. */
const ZCompanyTypeReference = z.object({ id: z.number().int().nullish(), name: z.string().nullish() });
const ZCompany = z.object({
  id: z.number().int(),
  identifier: z.string().nullish(),
  name: z.string(),
  deletedFlag: z.boolean().nullish(),
  status: ZRef,
  types: z.array(ZCompanyTypeReference).nullish(),
  phoneNumber: z.string().nullish(),
  city: z.string().nullish(),
});
/** A company deleted in ConnectWise (`deletedFlag`) is inactive. */
export const toCompany = (row: unknown): TPsaCompany => {
  const company = parsePsaPayload(ZCompany, row, 'company');
  const types = (company.types ?? []).flatMap((type) => (typeof type.id === 'number' && type.name ? [{ id: type.id, name: type.name }] : []));
  return {
    id: company.id,
    identifier: company.identifier ?? null,
    name: company.name,
    isActive: company.deletedFlag !== true,
    types,
    phone: company.phoneNumber?.trim() || null,
    city: company.city?.trim() || null,
  };
};

const ZCommunicationItem = z.object({ value: z.string().nullish(), communicationType: z.string().nullish(), defaultFlag: z.boolean().nullish() });
const ZContact = z.object({
  id: z.number().int(),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  company: ZRef,
  inactiveFlag: z.boolean().nullish(),
  communicationItems: z.array(ZCommunicationItem).nullish(),
});
export const toContact = (row: unknown): TPsaContact => {
  const contact = parsePsaPayload(ZContact, row, 'contact');
  const items = contact.communicationItems ?? [];
  const pick = (kind: string): string | null => {
    const ofKind = items.filter((item) => item.communicationType === kind && item.value);
    return (ofKind.find((item) => item.defaultFlag === true) ?? ofKind[0])?.value ?? null;
  };
  return {
    id: contact.id,
    companyId: contact.company?.id ?? null,
    firstName: contact.firstName ?? '',
    lastName: contact.lastName ?? '',
    email: pick('Email'),
    phone: pick('Phone'),
    isActive: contact.inactiveFlag !== true,
  };
};

/** ConnectWise embeds the company reference (id, identifier, name) in each contact, so no second call is needed. */
export const toContactWithCompany = (row: unknown): TPsaContactWithCompany => {
  const { company } = parsePsaPayload(ZContact, row, 'contact');
  return {
    ...toContact(row),
    // A contact's company is a reference: it names no types.
    company: company?.name ? { id: company.id, identifier: company.identifier ?? null, name: company.name, isActive: true, types: [], phone: null, city: null } : null,
  };
};

export const ZTicket = z.object({
  id: z.number().int(),
  summary: z.string(),
  board: ZRef,
  status: ZRef,
  priority: ZRef,
  type: ZRef,
  subType: ZRef,
  item: ZRef,
  company: ZRef,
  contact: ZRef,
  owner: ZRef,
  closedFlag: z.boolean().nullish(),
  externalXRef: z.string().nullish(),
  source: ZRef,
  team: ZRef,
  requiredDate: z.string().nullish(),
  impact: z.string().nullish(),
  severity: z.string().nullish(),
});
const levelOf = (value: string | null | undefined): TPsaImpactLevel | null => (value === 'Low' || value === 'Medium' || value === 'High' ? value : null);
export const toTicket = (row: unknown): TPsaTicket => ticketOf(parsePsaPayload(ZTicket, row, 'ticket'));
/** A ticket row already checked against ZTicket (or a schema extending it), as the adapter's ticket. */
export const ticketOf = (ticket: z.infer<typeof ZTicket>): TPsaTicket => {
  return {
    id: ticket.id,
    number: String(ticket.id),
    summary: ticket.summary,
    boardId: ticket.board?.id ?? null,
    statusId: ticket.status?.id ?? null,
    statusName: ticket.status?.name ?? null,
    isClosed: ticket.closedFlag === true,
    priorityId: ticket.priority?.id ?? null,
    typeId: ticket.type?.id ?? null,
    subtypeId: ticket.subType?.id ?? null,
    itemId: ticket.item?.id ?? null,
    companyId: ticket.company?.id ?? null,
    contactId: ticket.contact?.id ?? null,
    ownerId: ticket.owner?.id ?? null,
    externalReference: ticket.externalXRef ?? null,
    sourceId: ticket.source?.id ?? null,
    dueAt: ticket.requiredDate ?? null,
    teamId: ticket.team?.id ?? null,
    impact: levelOf(ticket.impact),
    severity: levelOf(ticket.severity),
    ticketTypeId: null,
    ticketCategoryId: null,
  };
};

const ZNote = z.object({
  id: z.number().int(),
  ticketId: z.number().int().nullish(),
  text: z.string().nullish(),
  detailDescriptionFlag: z.boolean().nullish(),
  internalAnalysisFlag: z.boolean().nullish(),
  internalFlag: z.boolean().nullish(),
  resolutionFlag: z.boolean().nullish(),
  dateCreated: z.string().nullish(),
  createdBy: z.string().nullish(),
  member: ZRef,
});
export const toNote = (row: unknown, ticketId: number): TPsaNote => {
  const note = parsePsaPayload(ZNote, row, 'note');
  const kind = note.resolutionFlag === true ? 'resolution' : note.internalAnalysisFlag === true ? 'internal' : 'description';
  return {
    id: note.id,
    ticketId: note.ticketId ?? ticketId,
    text: note.text ?? '',
    kind,
    // The flags are independent: a resolution note can be internal as well, which its kind does not show.
    isInternal: note.internalAnalysisFlag === true || note.internalFlag === true,
    createdAt: note.dateCreated ?? null,
    createdBy: note.createdBy ?? null,
    memberId: note.member?.id ?? null,
  };
};

const ZTimeEntry = z.object({
  id: z.number().int(),
  chargeToId: z.number().int().nullish(),
  chargeToType: z.string().nullish(),
  member: ZRef,
  timeStart: z.string(),
  timeEnd: z.string().nullish(),
  actualHours: z.number().nullish(),
  notes: z.string().nullish(),
});
export const toTimeEntry = (row: unknown): TPsaTimeEntry => {
  const entry = parsePsaPayload(ZTimeEntry, row, 'time entry');
  return {
    id: entry.id,
    ticketId: entry.chargeToId ?? 0,
    memberId: entry.member?.id ?? 0,
    startAt: entry.timeStart,
    endAt: entry.timeEnd ?? null,
    hours: entry.actualHours ?? 0,
    notes: entry.notes ?? '',
  };
};

export const ZCallback = z.object({ id: z.number().int(), url: z.string() });

const ZTeam = z.object({ id: z.number().int(), name: z.string(), boardId: z.number().int().nullish(), members: z.array(z.number().int()).nullish() });
export const toTeam = (row: unknown, boardId: number): TPsaTeam => {
  const team = parsePsaPayload(ZTeam, row, 'board team');
  return { id: team.id, boardId: team.boardId ?? boardId, name: team.name, memberIds: team.members ?? [] };
};

const ZDocument = z.object({ id: z.number().int(), title: z.string().nullish(), fileName: z.string().nullish(), size: z.number().nullish(), fileSize: z.number().nullish() });
/** A DocumentInfo: the uploaded file's name is `fileName` (the title when a document has none), its bytes `size`. */
export const toAttachment = (row: unknown): TPsaAttachment => {
  const document = parsePsaPayload(ZDocument, row, 'document');
  return { id: document.id, fileName: document.fileName ?? document.title ?? '', size: document.size ?? document.fileSize ?? 0 };
};
