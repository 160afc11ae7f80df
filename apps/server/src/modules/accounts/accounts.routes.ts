import {
  MESSAGES,
  ZAccountSignInBody,
  ZAccountSignedIn,
  ZCreateAccountBody,
  ZGetUserByEmailQuery,
  ZGetUserByEmailResponse,
  ZOauthLogoutResponse,
  ZProblem,
  ZPublicSignupBody,
  ZSignupAvailabilityQuery,
  ZSignupAvailabilityResponse,
  isValidEmail,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { validation } from '../../lib/app-error';
import { clearSessionCookie, endSession } from '../sessions/session.service';
import { signInAccount } from './account-session';
import { createAccountsService, signedOutPathFor } from './accounts.service';
import { createOidcClients } from './oidc-client';
import { clearOidcCookies, registerOidcRoutes } from './oidc.routes';
import { authIpRateLimit } from '../auth/auth-request';
import { requestMeta } from '../../plugins/access';

const TAGS = ['accounts'];
const problems = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, ZProblem]));

/** General accounts, public users and provider sign-in (A-066… and the OIDC additions). */
export const registerAccountRoutes: TModule = (app, deps) => {
  const accounts = createAccountsService(deps);
  app.get(
    '/auth/getUserByEmail',
    {
      schema: {
        tags: TAGS,
        operationId: 'getUserByEmail',
        summary: 'A-068: whether a general account exists for an email and how it signs in',
        querystring: ZGetUserByEmailQuery,
        response: { 200: ZGetUserByEmailResponse, ...problems(400, 404) },
      },
      config: { access: { public: true } },
    },
    async (request) => {
      const { email } = request.query;
      if (!isValidEmail(email)) throw validation(MESSAGES.validEmailRequired, undefined, { validEmail: false });
      return accounts.describeAccountByEmail(email);
    },
  );

  app.post(
    '/auth/signin',
    {
      schema: {
        tags: TAGS,
        operationId: 'accountSignIn',
        summary: 'A-069: password sign-in of a general or public account',
        body: ZAccountSignInBody,
        response: { 200: ZAccountSignedIn, ...problems(400, 401, 409, 423, 429) },
      },
      config: { ...authIpRateLimit(deps.config), access: { public: true } },
    },
    async (request, reply) => {
      const account = await accounts.signInWithPassword(request.body, requestMeta(request));
      return signInAccount(deps, request, reply, account);
    },
  );

  app.get(
    '/auth/signup',
    {
      schema: {
        tags: TAGS,
        operationId: 'accountSignupEmailCheck',
        summary: 'A-070: whether an email is free for account sign-up',
        querystring: ZSignupAvailabilityQuery,
        response: { 200: ZSignupAvailabilityResponse, ...problems(400, 409) },
      },
      config: { access: { public: true } },
    },
    async (request) => {
      const { emailId } = request.query;
      if (emailId === '') throw validation(MESSAGES.signup.email.required);
      if (!isValidEmail(emailId)) throw validation(MESSAGES.signup.email.invalid);
      await accounts.assertSignupEmailAvailable(emailId);
      return { available: true as const };
    },
  );

  app.post(
    '/auth/createAccount',
    {
      schema: {
        tags: TAGS,
        operationId: 'createAccount',
        summary: 'A-071: account sign-up form (01 §5 checks in order); signs the new account in',
        body: ZCreateAccountBody,
        response: { 201: ZAccountSignedIn, ...problems(400, 409, 500) },
      },
      config: { rateLimit: { max: 10, timeWindow: 60_000 }, access: { public: true } },
    },
    async (request, reply) => {
      const account = await accounts.createGeneralAccount(request.body, requestMeta(request));
      const signedIn = await signInAccount(deps, request, reply, account);
      return reply.status(201).send(signedIn);
    },
  );

  app.post(
    '/db/public/user/signup',
    {
      schema: {
        tags: TAGS,
        operationId: 'publicUserSignup',
        summary: 'A-081: public user sign-up; signs the new user in',
        body: ZPublicSignupBody,
        response: { 201: ZAccountSignedIn, ...problems(400, 409, 500) },
      },
      config: { rateLimit: { max: 10, timeWindow: 60_000 }, access: { public: true } },
    },
    async (request, reply) => {
      const account = await accounts.createPublicUser(request.body, requestMeta(request));
      const signedIn = await signInAccount(deps, request, reply, account);
      return reply.status(201).send(signedIn);
    },
  );

  app.get(
    '/auth/oauth2/logout',
    {
      schema: {
        tags: TAGS,
        operationId: 'oauth2Logout',
        summary: 'A-073: ends the session (state-changing GET, decisions #2)',
        response: { 200: ZOauthLogoutResponse, ...problems(403) },
      },
      config: { access: { public: true, stateChanging: true } },
    },
    async (request, reply) => {
      const auth = request.auth;
      if (auth) {
        await endSession(deps, auth, requestMeta(request));
      }
      clearSessionCookie(reply, deps.config.isProduction);
      clearOidcCookies(reply, deps.config.isProduction);
      const redirectUrl = !auth ? '/auth/login' : auth.principal === 'user' ? `/${auth.mspCustomDomain}` : signedOutPathFor(auth.accountKind);
      return { success: true as const, redirectUrl };
    },
  );

  registerOidcRoutes(app, deps, createOidcClients(deps.config));
};
