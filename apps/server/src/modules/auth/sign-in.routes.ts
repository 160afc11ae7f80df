import {
  MESSAGES,
  MSP_USER_COLLECTIONS,
  ZEmailSignInBody,
  ZEmailSignInResponse,
  ZMspParams,
  ZPasswordSignInBody,
  ZPasswordSignInResponse,
  ZResendCodeBody,
  ZResendCodeResponse,
  ZVerifyCodeBody,
  ZVerifyCodeResponse,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { revokeSession, setSessionCookie } from '../sessions/session.service';
import { authIpRateLimit, requireMsp, USER_KIND_OF } from './auth-request';
import { createSignInService } from './sign-in.service';
import { requestMeta } from '../../plugins/access';

/** Technician and client sign-in: email step, password step, 2FA verify and resend (issue #2 §3). */
export const registerSignInRoutes: TModule = (app, deps) => {
  const signIn = createSignInService(deps);
  for (const collection of MSP_USER_COLLECTIONS) {
    const kind = USER_KIND_OF[collection];
    const tags = [collection];

    app.post(
      `/db/${collection}/signin`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true } },
        schema: { tags, operationId: `${collection}EmailSignIn`, summary: `A-08${kind === 'technician' ? 3 : 4}: the MSP domains of a ${kind} email`, body: ZEmailSignInBody, response: { 200: ZEmailSignInResponse } },
      },
      async (request) => signIn.findSignInDomains(kind, request.body.emailId),
    );

    app.post(
      `/db/:msp/${collection}/signin`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true } },
        schema: { tags, operationId: `${collection}PasswordSignIn`, summary: `A-08${kind === 'technician' ? 5 : 6}: ${kind} password step; mails a 6-digit code`, params: ZMspParams, body: ZPasswordSignInBody, response: { 200: ZPasswordSignInResponse } },
      },
      async (request) => {
        const msp = await requireMsp(deps, request.params.msp);
        return signIn.signInWithPassword(msp, kind, request.body, requestMeta(request));
      },
    );

    app.post(
      `/db/:msp/${collection}/verifyCode`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true } },
        schema: { tags, operationId: `${collection}VerifyCode`, summary: `Verify the ${kind} 2FA code and open a session (addition)`, params: ZMspParams, body: ZVerifyCodeBody, response: { 200: ZVerifyCodeResponse } },
      },
      async (request, reply) => {
        const msp = await requireMsp(deps, request.params.msp);
        const { user, redirectTo, session } = await signIn.verifySignInCode(msp, kind, request.body, requestMeta(request));
        // Rotation: the session this browser held before signing in stops working.
        if (request.auth) {
          await revokeSession(deps.database.db, request.auth.sessionTokenHash, deps.now());
          forgetCachedSessions.session(deps.caches.sessions, request.auth.sessionTokenHash);
        }
        setSessionCookie(reply, session.token, session.expiresAt, deps.config.isProduction);
        return { user, redirectTo };
      },
    );

    app.post(
      `/db/:msp/${collection}/resendCode`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true } },
        schema: { tags, operationId: `${collection}ResendCode`, summary: `Mail a new ${kind} 2FA code (addition)`, params: ZMspParams, body: ZResendCodeBody, response: { 200: ZResendCodeResponse } },
      },
      async (request) => {
        const msp = await requireMsp(deps, request.params.msp);
        await signIn.resendSignInCode(msp, kind, request.body.challengeId, requestMeta(request));
        return { message: MESSAGES.verificationCodeResent };
      },
    );
  }
};
