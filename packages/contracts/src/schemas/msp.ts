import { z } from 'zod';
import { TIER_LEVELS } from '../constants';
import { ZCustomDomain, ZEmail, ZShortText } from './common';
import { ZSessionMspUser } from './auth';

/** A-082 multipart text fields of the MSP sign-up form (the optional logo travels as `file`). */
export const ZCreateMspFields = z.object({
  mspName: ZShortText,
  customDomain: ZCustomDomain,
  companyPhoneNumber: z.string().trim().max(40),
  webSiteUrl: z.string().trim().max(300),
});
export type TCreateMspFields = z.infer<typeof ZCreateMspFields>;

/** A-082 201 response: the bootstrap token authorises exactly one first-technician add (decisions #6). */
export const ZCreateMspResponse = z.object({
  mspCustomDomain: z.string(),
  mspName: z.string(),
  bootstrapToken: z.string(),
  bootstrapExpiresAt: z.string(),
});
export type TCreateMspResponse = z.infer<typeof ZCreateMspResponse>;

/** `#rrggbb` colour. */
export const ZHexColour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1c7ed6.');

export const ZMspBrand = z.object({
  primaryColour: ZHexColour,
  primaryButtonColour: ZHexColour,
  secondaryButtonColour: ZHexColour,
});
export type TMspBrand = z.infer<typeof ZMspBrand>;

/** A-020 public MSP profile. */
export const ZMspProfile = z.object({
  mspName: z.string(),
  customDomain: z.string(),
  companyPhoneNumber: z.string(),
  webSiteUrl: z.string(),
  logoUrl: z.string().nullable(),
  brand: ZMspBrand,
});
export type TMspProfile = z.infer<typeof ZMspProfile>;

export const ZMspProfileQuery = z.object({ customDomain: ZCustomDomain });

/**
 * A-035 body: MSP sign-up step 2 (first technician, with `x-bootstrap-token`) or the admin's
 * new-employee form. Strings default to '' so the server answers a missing field with the form's
 * own message rather than a schema error.
 */
export const ZAddTechnicianBody = z.object({
  firstName: z.string().trim().max(100).default(''),
  lastName: z.string().trim().max(100).default(''),
  phoneNumber: z.string().trim().max(40).default(''),
  email: ZEmail.default(''),
  password: z.string().max(200).default(''),
  roleId: z.uuid().optional(),
  tierLevel: z.enum(TIER_LEVELS).optional(),
});
export type TAddTechnicianBody = z.infer<typeof ZAddTechnicianBody>;

/** The technician A-035 created (never a password or hash). */
export const ZTechnicianRecord = ZSessionMspUser.pick({
  id: true,
  mspCustomDomain: true,
  firstName: true,
  lastName: true,
  email: true,
  phoneNumber: true,
  roleId: true,
  roleName: true,
  tierLevel: true,
  psaMemberId: true,
}).extend({ userKind: z.literal('technician') });
export type TTechnicianRecord = z.infer<typeof ZTechnicianRecord>;
export const ZAddTechnicianResponse = z.object({ user: ZTechnicianRecord });
export type TAddTechnicianResponse = z.infer<typeof ZAddTechnicianResponse>;

