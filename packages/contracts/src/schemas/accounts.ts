import { z } from 'zod';
import { ZSessionAccount } from './auth';

/**
 * General accounts (outside any MSP), public users and provider (Google/Microsoft) sign-in:
 * A-066… and the OIDC additions. Form fields are plain bounded strings (blank
 * allowed) because the server answers with the spec's own message for the first failing field
 * (01 §5), not with a generic schema error.
 */

export const OIDC_PROVIDERS = ['google', 'microsoft'] as const;
export const ZOidcProvider = z.enum(OIDC_PROVIDERS);
export type TOidcProvider = z.infer<typeof ZOidcProvider>;

const ZFormText = (max: number) => z.string().max(max).default('');

/** The account variant of TSessionUser (api-contract "Session user"): one schema, defined with the others. */
export const ZAccountSessionUser = ZSessionAccount;
export type TAccountSessionUser = z.infer<typeof ZAccountSessionUser>;

/** Every successful sign-in / sign-up: the user and where the SPA goes next. */
export const ZAccountSignedIn = z.object({ user: ZAccountSessionUser, redirectTo: z.string() });
export type TAccountSignedIn = z.infer<typeof ZAccountSignedIn>;

/** Where a general account lands after signing in (`/dashboard/{id}`). */
export const accountDashboardPath = (accountId: string): string => `/dashboard/${accountId}`;
export const PUBLIC_DASHBOARD_PATH = '/public/dashboard';

// A-068 GET /auth/getUserByEmail?email=
export const ZGetUserByEmailQuery = z.object({ email: z.string().trim().max(254) });
export type TGetUserByEmailQuery = z.infer<typeof ZGetUserByEmailQuery>;
export const ZGetUserByEmailResponse = z.object({
  exists: z.literal(true),
  hasPassword: z.boolean(),
  provider: ZOidcProvider.nullable(),
});
export type TGetUserByEmailResponse = z.infer<typeof ZGetUserByEmailResponse>;
/**
 * A-068's 404 for an email of MSP technicians or clients carries the MSP pages to sign in on, in
 * `flags.mspPages` (ours: the general sign-in used to tell them to sign up).
 */
export const ZMspSignInPage = z.object({
  mspCustomDomain: z.string(),
  mspName: z.string(),
  userKind: z.enum(['technician', 'client']),
});
export type TMspSignInPage = z.infer<typeof ZMspSignInPage>;
export const ZMspSignInPages = z.array(ZMspSignInPage);

// A-069 POST /auth/signin
export const ZAccountSignInBody = z.object({ emailId: ZFormText(254), password: ZFormText(200) });
export type TAccountSignInBody = z.input<typeof ZAccountSignInBody>;

// A-070 GET /auth/signup?emailId=
export const ZSignupAvailabilityQuery = z.object({ emailId: z.string().trim().max(254) });
export type TSignupAvailabilityQuery = z.infer<typeof ZSignupAvailabilityQuery>;
export const ZSignupAvailabilityResponse = z.object({ available: z.literal(true) });
export type TSignupAvailabilityResponse = z.infer<typeof ZSignupAvailabilityResponse>;

export const ZCompanyAddress = z.object({
  street: ZFormText(200),
  city: ZFormText(100),
  state: ZFormText(100),
  zipcode: ZFormText(20),
});
export type TCompanyAddress = z.infer<typeof ZCompanyAddress>;

// A-071 POST /auth/createAccount
export const ZCreateAccountBody = z.object({
  companyId: z.string().trim().max(100).optional(),
  firstName: ZFormText(100),
  lastName: ZFormText(100),
  companyName: ZFormText(200),
  email: ZFormText(254),
  phoneNumber: ZFormText(40),
  companyAddress: ZCompanyAddress.default({ street: '', city: '', state: '', zipcode: '' }),
  password: ZFormText(200),
});
export type TCreateAccountBody = z.input<typeof ZCreateAccountBody>;

// A-081 POST /db/public/user/signup
export const ZPublicSignupBody = z.object({
  firstName: ZFormText(100),
  lastName: ZFormText(100),
  phoneNumber: ZFormText(40),
  emailId: ZFormText(254),
  password: ZFormText(200),
});
export type TPublicSignupBody = z.input<typeof ZPublicSignupBody>;

// GET /auth/oidc/providers — which provider buttons to show.
export const ZOidcProvidersResponse = z.object({ microsoft: z.boolean(), google: z.boolean() });
export type TOidcProvidersResponse = z.infer<typeof ZOidcProvidersResponse>;

// GET /auth/oidc/{provider}/start?returnTo= (302 to the provider)
export const ZOidcStartParams = z.object({ provider: ZOidcProvider });
export const ZOidcStartQuery = z.object({ returnTo: z.string().max(500).optional() });

/**
 * GET /auth/oidc/pending (addition): the verified identity waiting for business details, so the
 * sign-up page can show the provider's email and prefill the names; 404 when none is pending.
 */
export const ZOidcPendingResponse = z.object({
  provider: ZOidcProvider,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export type TOidcPendingResponse = z.infer<typeof ZOidcPendingResponse>;

// A-067 POST /auth/validateUser?token=google|microsoft
export const ZValidateUserQuery = z.object({ token: ZOidcProvider });
/**
 * The account's email is always the provider-verified one kept server-side; `businessEmail` may be
 * omitted, and when sent it must be that same address.
 */
export const ZValidateUserBody = z.object({
  firstName: ZFormText(100),
  lastName: ZFormText(100),
  businessEmail: z.string().max(254).optional(),
  businessName: ZFormText(200),
  businessPhone: ZFormText(40),
  address: ZCompanyAddress.default({ street: '', city: '', state: '', zipcode: '' }),
});
export type TValidateUserBody = z.input<typeof ZValidateUserBody>;

// A-073 GET /auth/oauth2/logout (state-changing GET)
export const ZOauthLogoutResponse = z.object({ success: z.literal(true), redirectUrl: z.string() });
export type TOauthLogoutResponse = z.infer<typeof ZOauthLogoutResponse>;

/** `/auth/login?error=microsoft|google`: the login page shows "Error with Microsoft Login." for it. */
export const providerLoginErrorPath = (provider: TOidcProvider): string => `/auth/login?error=${provider}`;
/** Where a new provider identity completes its business details. */
export const providerSignupPath = (provider: TOidcProvider): string => `/auth/signup?provider=${provider}&pending=1`;
