import { z } from 'zod';
import { ZPermissionMap } from './common';
import { TIER_LEVELS } from '../constants';
import { ZCustomDomain, ZEmail, ZShortText } from './common';

/**
 * MSP-user sign-in, 2FA, reset, activation and profile shapes (api-contract "MSP users"). Request
 * bodies only bound their strings: the server answers missing or malformed values with the spec's
 * exact messages and flags, which a schema rejection could not carry.
 */

export const MSP_USER_COLLECTIONS = ['technicianUsers', 'clientUsers'] as const;
/** The `{users}` path segment: which family of MSP users a call is about. */
export const ZMspUserCollection = z.enum(MSP_USER_COLLECTIONS);
export type TMspUserCollection = z.infer<typeof ZMspUserCollection>;

export const ZTierLevel = z.enum(TIER_LEVELS);

/** A signed-in technician or client user of one MSP. */
export const ZSessionMspUser = z.object({
  principal: z.literal('user'),
  id: z.string(),
  userKind: z.enum(['technician', 'client']),
  mspCustomDomain: z.string(),
  mspName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  permissions: ZPermissionMap,
  tierLevel: ZTierLevel.nullable(),
  psaMemberId: z.string().nullable(),
  psaCompanyId: z.string().nullable(),
  psaContactId: z.string().nullable(),
  clientsAutopilotDbid: z.string().nullable(),
});
export type TSessionMspUser = z.infer<typeof ZSessionMspUser>;

/** A signed-in general account (sign-up form, provider or public user). */
export const ZSessionAccount = z.object({
  principal: z.literal('account'),
  id: z.string(),
  accountKind: z.enum(['account', 'public']),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  companyName: z.string().nullable(),
});
export type TSessionAccount = z.infer<typeof ZSessionAccount>;

/** Whoever holds the session; never carries a password or hash. */
export const ZSessionUser = z.discriminatedUnion('principal', [ZSessionMspUser, ZSessionAccount]);
export type TSessionUser = z.infer<typeof ZSessionUser>;

// Path and query parameters.
export const ZUsersParams = z.object({ users: ZMspUserCollection });
export type TUsersParams = z.infer<typeof ZUsersParams>;
export const ZMspUsersParams = z.object({ msp: ZCustomDomain, users: ZMspUserCollection });
export type TMspUsersParams = z.infer<typeof ZMspUsersParams>;
export const ZMspParams = z.object({ msp: ZCustomDomain });
export type TMspParams = z.infer<typeof ZMspParams>;

// email step.
export const ZEmailSignInBody = z.object({ emailId: ZEmail.default('') });
export type TEmailSignInBody = z.infer<typeof ZEmailSignInBody>;
export const ZMspDomainChoice = z.object({ mspCustomDomain: z.string(), mspName: z.string(), logoUrl: z.string().nullable() });
export type TMspDomainChoice = z.infer<typeof ZMspDomainChoice>;
export const ZEmailSignInResponse = z.object({ mspDomains: z.array(ZMspDomainChoice) });
export type TEmailSignInResponse = z.infer<typeof ZEmailSignInResponse>;

// password step.
export const ZPasswordSignInBody = z.object({ emailId: ZEmail.default(''), password: z.string().max(200).default('') });
export type TPasswordSignInBody = z.infer<typeof ZPasswordSignInBody>;
export const TWO_FACTOR_METHODS = ['email', 'totp'] as const;
export const ZPasswordSignInResponse = z.object({
  twoFactorRequired: z.literal(true),
  challengeId: z.string(),
  /** The masked address the code went to, e.g. "j•••@northwind-it.example". */
  sentTo: z.string(),
  methods: z.array(z.enum(TWO_FACTOR_METHODS)),
});
export type TPasswordSignInResponse = z.infer<typeof ZPasswordSignInResponse>;

// Verify and resend.
export const ZVerifyCodeBody = z.object({ challengeId: z.string().max(100).default(''), code: z.string().trim().max(20).default('') });
export type TVerifyCodeBody = z.infer<typeof ZVerifyCodeBody>;
export const ZVerifyCodeResponse = z.object({ user: ZSessionMspUser, redirectTo: z.string() });
export type TVerifyCodeResponse = z.infer<typeof ZVerifyCodeResponse>;
export const ZResendCodeBody = z.object({ challengeId: z.string().max(100).default('') });
export type TResendCodeBody = z.infer<typeof ZResendCodeBody>;
export const ZResendCodeResponse = z.object({ message: z.string() });
export type TResendCodeResponse = z.infer<typeof ZResendCodeResponse>;

// A-072 session check, A-074 logout.
export const ZSessionCheckResponse = z.discriminatedUnion('authenticated', [
  z.object({ authenticated: z.literal(true), user: ZSessionUser }),
  z.object({ authenticated: z.literal(false) }),
]);
export type TSessionCheckResponse = z.infer<typeof ZSessionCheckResponse>;
export const ZLogoutResponse = z.object({
  success: z.literal(true),
  skipMicrosoftLogout: z.boolean(),
  redirectUrl: z.string(),
  microsoftLogoutUrl: z.string().nullable(),
});
export type TLogoutResponse = z.infer<typeof ZLogoutResponse>;

// A-075..A-080: forgot password in three steps.
export const ZForgotPasswordQuery = z.object({ email: ZEmail.default('') });
export type TForgotPasswordQuery = z.infer<typeof ZForgotPasswordQuery>;
export const ZForgotPasswordResponse = z.object({ sent: z.literal(true) });
export type TForgotPasswordResponse = z.infer<typeof ZForgotPasswordResponse>;
export const ZValidateResetTokenQuery = z.object({ email: ZEmail.default(''), token: z.string().trim().max(20).default('') });
export type TValidateResetTokenQuery = z.infer<typeof ZValidateResetTokenQuery>;
export const ZValidateResetTokenResponse = z.object({ valid: z.literal(true) });
export type TValidateResetTokenResponse = z.infer<typeof ZValidateResetTokenResponse>;
export const ZChangePasswordQuery = z.object({ token: z.string().trim().max(20).default('') });
export type TChangePasswordQuery = z.infer<typeof ZChangePasswordQuery>;
export const ZChangePasswordBody = z.object({ emailId: ZEmail.default(''), password: z.string().max(200).default('') });
export type TChangePasswordBody = z.infer<typeof ZChangePasswordBody>;
export const ZChangePasswordResponse = z.object({ changed: z.literal(true) });
export type TChangePasswordResponse = z.infer<typeof ZChangePasswordResponse>;

// A-087..A-090: activation.
export const ZActivationLookupQuery = z.object({ email: ZEmail.default('') });
export type TActivationLookupQuery = z.infer<typeof ZActivationLookupQuery>;
export const ZPsaMemberRecord = z.object({
  psaMembersAutopilotDbId: z.string(),
  psaMembersId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type TPsaMemberRecord = z.infer<typeof ZPsaMemberRecord>;
export const ZPsaContactRecord = z.object({
  psaContactAutopilotDbId: z.string(),
  psaContactId: z.string(),
  psaCompanyId: z.string(),
  psaCompanyName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
});
export type TPsaContactRecord = z.infer<typeof ZPsaContactRecord>;
export const ZActivationLookupResponse = z.object({ records: z.array(z.union([ZPsaMemberRecord, ZPsaContactRecord])) });
export type TActivationLookupResponse = z.infer<typeof ZActivationLookupResponse>;
export const ZTechnicianCreateAccountBody = z.object({
  email: ZEmail.default(''),
  password: z.string().max(200).default(''),
  psaMembersAutopilotDbId: z.string().trim().max(100).default(''),
});
export type TTechnicianCreateAccountBody = z.infer<typeof ZTechnicianCreateAccountBody>;
export const ZClientCreateAccountQuery = z.object({ psaCompanyId: z.string().trim().max(100).default('') });
export type TClientCreateAccountQuery = z.infer<typeof ZClientCreateAccountQuery>;
export const ZClientCreateAccountBody = z.object({
  email: ZEmail.default(''),
  password: z.string().max(200).default(''),
  psaContactAutopilotDbId: z.string().trim().max(100).default(''),
});
export type TClientCreateAccountBody = z.infer<typeof ZClientCreateAccountBody>;
export const ZCreateAccountResponse = z.object({ id: z.string() });
export type TCreateAccountResponse = z.infer<typeof ZCreateAccountResponse>;

// getById, A-036/A-037 edit (decisions #11).
export const ZGetUserByIdQuery = z.object({ id: z.uuid() });
export type TGetUserByIdQuery = z.infer<typeof ZGetUserByIdQuery>;
/** answer the user in the session-user shape (its role, permissions and PSA links). */
export const ZGetUserByIdResponse = ZSessionMspUser;
export type TGetUserByIdResponse = TSessionMspUser;
export const ZTechnicianEditBody = z.object({
  email: ZEmail,
  firstName: ZShortText.optional(),
  lastName: ZShortText.optional(),
  phoneNumber: z.string().trim().max(40).optional(),
  roleId: z.uuid().optional(),
  tierLevel: ZTierLevel.optional(),
});
export type TTechnicianEditBody = z.infer<typeof ZTechnicianEditBody>;
export const ZClientEditBody = ZTechnicianEditBody.omit({ tierLevel: true });
export type TClientEditBody = z.infer<typeof ZClientEditBody>;
/** The edited user in the session-user shape, so a profile save can refresh the signed-in user. */
export const ZEditUserResponse = z.object({ user: ZSessionMspUser });
export type TEditUserResponse = z.infer<typeof ZEditUserResponse>;

// TOTP enrolment (addition, decisions #16) for the signed-in user.
export const ZTotpSetupResponse = z.object({ otpauthUrl: z.string(), secret: z.string() });
export type TTotpSetupResponse = z.infer<typeof ZTotpSetupResponse>;
export const ZTotpCodeBody = z.object({ code: z.string().trim().max(20).default('') });
export type TTotpCodeBody = z.infer<typeof ZTotpCodeBody>;
/** `currentCode`: when an app is already enrolled, a current code from it, so a session alone cannot replace it (security review s28). */
export const ZTotpEnableBody = ZTotpCodeBody.extend({ currentCode: z.string().trim().max(20).default('') });
export type TTotpEnableBody = z.infer<typeof ZTotpEnableBody>;
export const ZTotpStatusResponse = z.object({ totpEnabled: z.boolean() });
export type TTotpStatusResponse = z.infer<typeof ZTotpStatusResponse>;
/** Decision 047: a people manager removes someone else's (lost) authenticator app; `id` is that person's user id. */
export const ZRemoveAuthenticatorAppBody = z.object({ id: z.uuid() });
export type TRemoveAuthenticatorAppBody = z.infer<typeof ZRemoveAuthenticatorAppBody>;
/** `isPersonNotified`: whether the mail telling them was accepted (the app is removed either way). */
export const ZRemoveAuthenticatorAppResponse = z.object({ id: z.string(), hasAuthenticatorApp: z.literal(false), isPersonNotified: z.boolean() });
export type TRemoveAuthenticatorAppResponse = z.infer<typeof ZRemoveAuthenticatorAppResponse>;


/** "jane@northwind-it.example" → "j•••@northwind-it.example": enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}
