import type { TCreateAccountBody, TOidcProvider, TPublicSignupBody, TValidateUserBody } from '@switchboard/contracts';
import { apiFetch } from '../../../lib/api-client';
import { usersSegment, type TLoginUserKind } from '../lib/user-kind';

// The calls made after the sign-in pages' first screen (password, code, reset, activation,
// invitation, sign-ups): this file loads with those steps and pages, not with the first load (issue #6 §5).

const mspPath = (msp: string, kind: TLoginUserKind) => `/db/${encodeURIComponent(msp)}/${usersSegment(kind)}`;

/** checks the password within one MSP and mails a 2FA code. */
export function signInToMsp(msp: string, kind: TLoginUserKind, body: { emailId: string; password: string }) {
  return apiFetch(`${mspPath(msp, kind)}/signin`, { method: 'POST', body, schema: (s) => s.ZPasswordSignInResponse });
}

/** 2FA verify (decisions #5): opens the session. */
export function verifyTwoFactorCode(msp: string, kind: TLoginUserKind, body: { challengeId: string; code: string }) {
  return apiFetch(`${mspPath(msp, kind)}/verifyCode`, { method: 'POST', body, schema: (s) => s.ZVerifyCodeResponse });
}

export function resendTwoFactorCode(msp: string, kind: TLoginUserKind, challengeId: string) {
  return apiFetch(`${mspPath(msp, kind)}/resendCode`, { method: 'POST', body: { challengeId }, schema: (s) => s.ZResendCodeResponse });
}

/** */
export function signInAccount(body: { emailId: string; password: string }) {
  return apiFetch('/auth/signin', { method: 'POST', body, schema: (s) => s.ZAccountSignedIn });
}

/** 409 "Account exists." when taken. */
export function checkSignupEmail(emailId: string) {
  return apiFetch('/auth/signup', { query: { emailId }, schema: (s) => s.ZSignupAvailabilityResponse });
}

/** */
export function createAccount(body: TCreateAccountBody) {
  return apiFetch('/auth/createAccount', { method: 'POST', body, schema: (s) => s.ZAccountSignedIn });
}

/** completes an account started with a provider sign-in. */
export function validateProviderUser(provider: TOidcProvider, body: TValidateUserBody) {
  return apiFetch('/auth/validateUser', { method: 'POST', query: { token: provider }, body, schema: (s) => s.ZAccountSignedIn });
}

/** GET /auth/oidc/pending: the provider identity waiting for business details (404 when none). */
export function fetchPendingProviderIdentity() {
  return apiFetch('/auth/oidc/pending', { schema: (s) => s.ZOidcPendingResponse });
}

/** A-075/A-076 (a state-changing GET): mails a reset code when the email is known. */
export function requestPasswordReset(msp: string, kind: TLoginUserKind, email: string) {
  return apiFetch(`${mspPath(msp, kind)}/forgotPassword`, { query: { email }, schema: (s) => s.ZForgotPasswordResponse });
}

/** */
export function validateResetCode(msp: string, kind: TLoginUserKind, email: string, token: string) {
  return apiFetch(`${mspPath(msp, kind)}/validateResetToken`, { query: { email, token }, schema: (s) => s.ZValidateResetTokenResponse });
}

/** */
export function changePassword(msp: string, kind: TLoginUserKind, token: string, body: { emailId: string; password: string }) {
  return apiFetch(`${mspPath(msp, kind)}/changePassword`, { method: 'POST', query: { token }, body, schema: (s) => s.ZChangePasswordResponse });
}

/** the PSA member records an activating technician may link. */
export function findTechnicianActivationRecords(msp: string, email: string) {
  return apiFetch(`${mspPath(msp, 'tech')}/signup`, { query: { email }, schema: (s) => s.ZTechnicianActivationRecords });
}

/** the PSA contact records an activating client may link. */
export function findClientActivationRecords(msp: string, email: string) {
  return apiFetch(`${mspPath(msp, 'client')}/signup`, { query: { email }, schema: (s) => s.ZClientActivationRecords });
}

/** */
export function activateTechnician(msp: string, body: { email: string; password: string; psaMembersAutopilotDbId: string }) {
  return apiFetch(`${mspPath(msp, 'tech')}/createAccount`, { method: 'POST', body, schema: (s) => s.ZCreateAccountResponse });
}

/** */
export function activateClient(msp: string, psaCompanyId: string, body: { email: string; password: string; psaContactAutopilotDbId: string }) {
  return apiFetch(`${mspPath(msp, 'client')}/createAccount`, { method: 'POST', query: { psaCompanyId }, body, schema: (s) => s.ZCreateAccountResponse });
}

/** */
export function signUpPublicUser(body: TPublicSignupBody) {
  return apiFetch('/db/public/user/signup', { method: 'POST', body, schema: (s) => s.ZAccountSignedIn });
}

/** Decision 019: whom a technician invitation link is for (does not use it up). */
export function readInvitation(msp: string, token: string) {
  return apiFetch(`/db/${encodeURIComponent(msp)}/technicianUsers/invitation`, { query: { token }, schema: (s) => s.ZInvitationResponse });
}

/** Decision 019: the invited technician sets their password with the link's token (once). */
export function acceptInvitation(msp: string, body: { token: string; password: string }) {
  return apiFetch(`/db/${encodeURIComponent(msp)}/technicianUsers/acceptInvitation`, { method: 'POST', body, schema: (s) => s.ZAcceptInvitationResponse });
}
