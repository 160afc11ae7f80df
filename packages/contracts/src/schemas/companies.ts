import { z } from 'zod';
import { ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE_MAX, CONTACT_LIST_CAP, CONTACT_PAGE_CAP_MESSAGE, type TCatalogueCard } from '../admin-lists';
import { ZCustomDomain } from './common';


const ZPage = z.coerce.number().int().min(1, 'Page must be 1 or more.').max(100_000).default(1);
const ZPageSize = z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE_MAX, `Page size is at most ${ADMIN_PAGE_SIZE_MAX}.`).default(ADMIN_PAGE_SIZE);
const ZSearch = z.string().trim().max(100, 'Search is at most 100 characters.').default('');
/** PSA record ids are positive whole numbers on both PSAs. */
export const ZPsaRecordId = z
  .string()
  .trim()
  .regex(/^[1-9][0-9]{0,17}$/, 'Use the PSA id of the record (a whole number).');
/** Query booleans: the Active/other toggles. */
const ZQueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

export const ZPsaTypeName = z.enum(['CONNECTWISE', 'AUTOTASK']);

/** A-008 query: the Companies view, with the client-type filter (01 §9: defaults to "all") and search. */
export const ZCompanyListQuery = z.object({
  page: ZPage,
  pageSize: ZPageSize,
  search: ZSearch,
  clientType: z.string().trim().min(1).max(100).default('all'),
});
export type TCompanyListQuery = z.infer<typeof ZCompanyListQuery>;

/** A client company (01 §3) as the synchronized copy holds it. */
export const ZCompany = z.object({
  id: z.uuid(),
  psaCompanyId: z.string(),
  psaType: ZPsaTypeName,
  name: z.string(),
  identifier: z.string().nullable(),
  psaClientType: z.array(z.string()),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  city: z.string().nullable(),
  isActive: z.boolean(),
});
export type TCompany = z.infer<typeof ZCompany>;

export const ZCompanyPage = z.object({
  items: z.array(ZCompany),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every client type among the MSP's companies, for the filter's options. */
  clientTypes: z.array(z.string()),
});
export type TCompanyPage = z.infer<typeof ZCompanyPage>;

/** A-009 query: the CompanyEmployees view; `active` is the Active/other toggle (starts on Active, 01 §9). */
/** A page past the first CONTACT_LIST_CAP matches is refused with a sentence (the count stops there too). */
const withinContactCap = (query: { page: number; pageSize: number }) => (query.page - 1) * query.pageSize < CONTACT_LIST_CAP;
const CONTACT_CAP_ISSUE = { message: CONTACT_PAGE_CAP_MESSAGE, path: ['page'] };

export const ZCompanyContactsQuery = z
  .object({
    psaCompanyId: ZPsaRecordId,
    page: ZPage,
    pageSize: ZPageSize,
    search: ZSearch,
    active: ZQueryBoolean.default(true),
  })
  .refine(withinContactCap, CONTACT_CAP_ISSUE);
export type TCompanyContactsQuery = z.input<typeof ZCompanyContactsQuery>;

/** The Contacts screen (01 §2): every contact the caller may see, with the Active and PSA toggles. */
export const ZContactListQuery = z
  .object({
    page: ZPage,
    pageSize: ZPageSize,
    search: ZSearch,
    active: ZQueryBoolean.default(true),
    /** The "PSA contacts" toggle: true lists only contacts that exist at the PSA, false also those still pending. */
    psaOnly: ZQueryBoolean.default(true),
  })
  .refine(withinContactCap, CONTACT_CAP_ISSUE);

/** A PSA contact (01 §3). `pending` rows are adds the PSA has not confirmed yet. */
export const ZContact = z.object({
  id: z.string(),
  psaContactId: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  psaClientName: z.string().nullable(),
  psaType: ZPsaTypeName,
  psaCompanyId: z.string(),
  isActive: z.boolean(),
  status: z.enum(['synced', 'pending', 'failed']),
  /** For a failed add: what the PSA said. */
  failureReason: z.string().nullable(),
});
export type TContact = z.infer<typeof ZContact>;

export const ZContactPage = z.object({
  items: z.array(ZContact),
  /** At most CONTACT_LIST_CAP; `isTotalCapped` says the count stopped there ("10,000+"). */
  total: z.number().int(),
  isTotalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Adds the PSA has not confirmed yet (pending, or failed with the PSA's reason), newest first. */
  pending: z.array(ZContact),
});
export type TContactPage = z.infer<typeof ZContactPage>;

/** The tickets views (CompanyAllTickets, CompanyEmployeeTickets, ContactAllTickets, ContactTickets). */
export const ZCompanyTicketsQuery = z.object({
  psaCompanyId: ZPsaRecordId.optional(),
  psaContactId: ZPsaRecordId.optional(),
  page: ZPage,
  pageSize: ZPageSize,
  open: z.enum(['all', 'open', 'closed']).default('all'),
});

export const ZCompanyTicket = z.object({
  id: z.uuid(),
  psaTicketId: z.string(),
  ticketNumber: z.string().nullable(),
  summary: z.string(),
  boardName: z.string().nullable(),
  statusName: z.string().nullable(),
  priorityName: z.string().nullable(),
  companyName: z.string().nullable(),
  contactName: z.string().nullable(),
  ownerName: z.string().nullable(),
  isClosed: z.boolean(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type TCompanyTicket = z.infer<typeof ZCompanyTicket>;

export const ZCompanyTicketPage = z.object({
  items: z.array(ZCompanyTicket),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TCompanyTicketPage = z.infer<typeof ZCompanyTicketPage>;

const ZName = (label: string) => z.string().trim().min(1, `${label} is required.`).max(50, `${label} is at most 50 characters.`);
const ZOptionalTypeId = z.coerce.number().int().positive('Choose a communication type.').nullable().optional();

/** The add-contact form (R-157): A-044's fields; A-045 names the company `companyId`. */
export const ZAddContactFields = z.object({
  firstName: ZName('First name'),
  lastName: ZName('Last name'),
  email: z.union([z.literal(''), z.email('Invalid email format.').max(250)]).optional(),
  phone: z
    .string()
    .trim()
    .max(30)
    .regex(/^[0-9+()\-. ]*$/, 'Invalid phone number format.')
    .optional(),
  emailTypeId: ZOptionalTypeId,
  phoneTypeId: ZOptionalTypeId,
  /** Sent again on a retried submit so the PSA gets the contact once (01 §8: a repeated add is not a duplicate). */
  idempotencyKey: z.string().trim().min(8).max(100).optional(),
});

/** A-044 body. */
export const ZAddPsaContactBody = ZAddContactFields.extend({
  psaType: ZPsaTypeName,
  psaCompanyId: z.union([ZPsaRecordId, z.number().int().positive()]).transform(String),
});
export type TAddPsaContactBody = z.input<typeof ZAddPsaContactBody>;

/** A-045 body. */
export const ZAddConnectWiseContactBody = ZAddContactFields.extend({
  companyId: z.union([ZPsaRecordId, z.number().int().positive()]).transform(String),
});
export const ZAddConnectWiseContactQuery = z.object({ mspCustomDomain: ZCustomDomain });

/** 201 when the PSA has the contact; 202 when the PSA is down and the add waits in the outbox (R-158: both are not errors). */
export const ZAddContactResponse = z.object({ contact: ZContact });
export type TAddContactResponse = z.infer<typeof ZAddContactResponse>;

/** A-003 query. */
export const ZClientsByAutopilotIdQuery = z.object({ psaAutopilotId: z.uuid('Use the client database id.') });

/** A-005 query and the client catalogue cards. */
export const ZClientIntegrationsQuery = z.object({ clientId: z.uuid('Choose a client company.') });
export const ZCatalogueCard: z.ZodType<TCatalogueCard> = z.object({
  category: z.string(),
  name: z.string(),
  available: z.boolean(),
});
export const ZClientIntegrations = z.object({ clientId: z.uuid(), companyName: z.string(), cards: z.array(ZCatalogueCard) });
export type TClientIntegrations = z.infer<typeof ZClientIntegrations>;

/** How many options one ticket-form lookup answers at most (decision 028): a search narrows the rest. */
export const TICKET_FORM_OPTIONS_MAX = 50;
const ZOptionLimit = z.coerce.number().int().min(1, 'Limit must be 1 or more.').max(TICKET_FORM_OPTIONS_MAX, `Limit is at most ${TICKET_FORM_OPTIONS_MAX}.`).default(TICKET_FORM_OPTIONS_MAX);

/** The ticket form's company choice (decision 028): active companies by name. */
export const ZTicketFormCompaniesQuery = z.object({ search: ZSearch, limit: ZOptionLimit });
export type TTicketFormCompaniesQuery = z.infer<typeof ZTicketFormCompaniesQuery>;

/** The ticket form's contact choice (decision 028): one company's active contacts. */
export const ZTicketFormContactsQuery = z.object({ psaCompanyId: ZPsaRecordId, search: ZSearch, limit: ZOptionLimit });
export type TTicketFormContactsQuery = z.infer<typeof ZTicketFormContactsQuery>;

/** A company as the ticket form offers it: its PSA id and name, nothing else. */
export const ZTicketFormCompanyOptions = z.object({
  items: z.array(z.object({ psaCompanyId: z.string(), name: z.string() })),
  /** More companies match than were answered: the form asks for a narrower search. */
  hasMore: z.boolean(),
});
export type TTicketFormCompanyOptions = z.infer<typeof ZTicketFormCompanyOptions>;

/** A contact as the ticket form offers it: PSA id, name, e-mail and phone (what the ticket carries). */
export const ZTicketFormContactOptions = z.object({
  items: z.array(z.object({ psaContactId: z.string(), firstName: z.string(), lastName: z.string(), email: z.string().nullable(), phone: z.string().nullable() })),
  hasMore: z.boolean(),
});
export type TTicketFormContactOptions = z.infer<typeof ZTicketFormContactOptions>;
