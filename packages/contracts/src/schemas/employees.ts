import { z } from 'zod';
import { ACCOUNT_STATUSES, PAGE_SIZE, TIER_LEVELS } from '../constants';
import { ZSessionMspUser } from './auth';

/**
 * Employees screen (01 §2, R-136–R-149) and the PSA member import. Technicians are
 * the MSP's employees; an employee deleted here is kept as inactive (soft delete).
 */

/** One technician as the Employees screen lists it. */
export const ZEmployee = ZSessionMspUser.pick({
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  phoneNumber: true,
  roleId: true,
  roleName: true,
  tierLevel: true,
  psaMemberId: true,
}).extend({
  isActive: z.boolean(),
  accountStatus: z.enum(ACCOUNT_STATUSES),
  /** Whether they have a confirmed authenticator app (never the secret): a people manager may remove a lost one (decision 047). */
  hasAuthenticatorApp: z.boolean(),
});
export type TEmployee = z.infer<typeof ZEmployee>;

/** A-007 and the inactive list: search, role filter ("all" when absent) and page (30 a page, R-137). */
export const ZEmployeeListQuery = z.object({
  search: z.string().trim().max(100).default(''),
  roleId: z.union([z.uuid(), z.literal('all')]).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** Only technicians linked to a PSA member (the Team screen's add-member list, R-228). */
  hasPsaMember: z.enum(['true', 'false']).optional(),
});
export type TEmployeeListQuery = z.infer<typeof ZEmployeeListQuery>;

export const ZEmployeePage = z.object({
  employees: z.array(ZEmployee),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.literal(PAGE_SIZE),
});
export type TEmployeePage = z.infer<typeof ZEmployeePage>;

export const ZEmployeeIdQuery = z.object({ id: z.uuid() });
export const ZDeleteEmployeeResponse = z.object({ employee: ZEmployee });
export type TDeleteEmployeeResponse = z.infer<typeof ZDeleteEmployeeResponse>;

/** id is the technician's user id (the catalogue leaves open whether it is the PSA member id). */
export const ZUpdateMemberTierQuery = z.object({ id: z.uuid(), tier: z.enum(TIER_LEVELS) });
export const ZEmployeeResponse = z.object({ employee: ZEmployee });
export type TEmployeeResponse = z.infer<typeof ZEmployeeResponse>;

/** a PSA member (technician) not yet imported as an employee. */
export const ZPsaMemberCandidate = z.object({
  psaMemberId: z.string(),
  identifier: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
});
export type TPsaMemberCandidate = z.infer<typeof ZPsaMemberCandidate>;
export const ZPsaMemberCandidates = z.object({ members: z.array(ZPsaMemberCandidate) });
export type TPsaMemberCandidates = z.infer<typeof ZPsaMemberCandidates>;

/** import PSA members as technicians, each with a tier and a role (wizard defaults: Tier1, Technician). */
export const ZAddPsaMembersBody = z.object({
  mspCustomDomain: z.string().trim().max(63).optional(),
  members: z
    .array(
      z.object({
        psaMemberId: z.string().trim().min(1).max(40),
        tierLevel: z.enum(TIER_LEVELS).optional(),
        roleId: z.uuid().optional(),
      }),
    )
    .max(500),
  tierLevel: z.enum(TIER_LEVELS).optional(),
  roleId: z.uuid().optional(),
});
export type TAddPsaMembersBody = z.infer<typeof ZAddPsaMembersBody>;
export const ZAddPsaMembersResponse = z.object({ added: z.array(ZEmployee) });
export type TAddPsaMembersResponse = z.infer<typeof ZAddPsaMembersResponse>;

/** the product's client users of one client company (its company row id, the session's clientsAutopilotDbid). */
export const ZClientUsersOfClientQuery = z.object({ clientId: z.uuid() });
export const ZClientUser = ZSessionMspUser.pick({ id: true, email: true, roleId: true, roleName: true, firstName: true, lastName: true, phoneNumber: true, psaContactId: true, psaCompanyId: true }).extend({
  isActive: z.boolean(),
  /** As the employee's: whether they have a confirmed authenticator app (decision 047). */
  hasAuthenticatorApp: z.boolean(),
});
export type TClientUser = z.infer<typeof ZClientUser>;
export const ZClientUserList = z.object({ clientUsers: z.array(ZClientUser) });
export type TClientUserList = z.infer<typeof ZClientUserList>;

/** Technician invitations (decision 019): an imported technician without an account gets a link to set a password. */
export const ZSendInvitationBody = z.object({ id: z.uuid() });
export const ZSendInvitationsResponse = z.object({ invited: z.number().int() });
export type TSendInvitationsResponse = z.infer<typeof ZSendInvitationsResponse>;
/** The link's token: the code row id and its secret, `<uuid>.<43 base64url characters>`. */
export const ZInvitationToken = z.string().trim().max(200).default('');
export const ZInvitationQuery = z.object({ token: ZInvitationToken });
export const ZInvitationResponse = z.object({ email: z.string(), firstName: z.string(), lastName: z.string(), mspName: z.string() });
export type TInvitationResponse = z.infer<typeof ZInvitationResponse>;
export const ZAcceptInvitationBody = z.object({ token: ZInvitationToken, password: z.string().max(200).default('') });
export type TAcceptInvitationBody = z.infer<typeof ZAcceptInvitationBody>;
export const ZAcceptInvitationResponse = z.object({ accepted: z.literal(true), email: z.string() });
export type TAcceptInvitationResponse = z.infer<typeof ZAcceptInvitationResponse>;
