import {
  MSP_USER_COLLECTIONS,
  ZChangePasswordBody,
  ZChangePasswordQuery,
  ZChangePasswordResponse,
  ZForgotPasswordQuery,
  ZForgotPasswordResponse,
  ZMspParams,
  ZValidateResetTokenQuery,
  ZValidateResetTokenResponse,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { authIpRateLimit, requireMsp, USER_KIND_OF } from './auth-request';
import { createPasswordResetService } from './password-reset.service';
import { requestMeta } from '../../plugins/access';

/** Forgot password in three steps: email → code → new password (A-075…A-080). */
export const registerPasswordResetRoutes: TModule = (app, deps) => {
  const passwordReset = createPasswordResetService(deps);
  for (const collection of MSP_USER_COLLECTIONS) {
    const kind = USER_KIND_OF[collection];
    const tags = [collection];
    const technicianOr = (technicianId: number) => `A-0${kind === 'technician' ? technicianId : technicianId + 1}`;

    app.get(
      `/db/:msp/${collection}/forgotPassword`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true, stateChanging: true } },
        schema: { tags, operationId: `${collection}ForgotPassword`, summary: `${technicianOr(75)}: mail a ${kind} password reset code`, params: ZMspParams, querystring: ZForgotPasswordQuery, response: { 200: ZForgotPasswordResponse } },
      },
      async (request, reply) => {
        const msp = await requireMsp(deps, request.params.msp);
        await passwordReset.requestPasswordReset(msp, kind, request.query.email, requestMeta(request));
        void reply.header('cache-control', 'no-store');
        return { sent: true as const };
      },
    );

    app.get(
      `/db/:msp/${collection}/validateResetToken`,
      {
        // Counts wrong tries against the code, so a cross-site page must not be able to spend them.
        config: { ...authIpRateLimit(deps.config), access: { public: true, stateChanging: true } },
        schema: { tags, operationId: `${collection}ValidateResetToken`, summary: `${technicianOr(77)}: check a ${kind} reset code`, params: ZMspParams, querystring: ZValidateResetTokenQuery, response: { 200: ZValidateResetTokenResponse } },
      },
      async (request, reply) => {
        const msp = await requireMsp(deps, request.params.msp);
        await passwordReset.validateResetCode(msp, kind, request.query.email, request.query.token, requestMeta(request));
        void reply.header('cache-control', 'no-store');
        return { valid: true as const };
      },
    );

    app.post(
      `/db/:msp/${collection}/changePassword`,
      {
        config: { ...authIpRateLimit(deps.config), access: { public: true } },
        schema: { tags, operationId: `${collection}ChangePassword`, summary: `${technicianOr(79)}: set a new ${kind} password with the reset code`, params: ZMspParams, querystring: ZChangePasswordQuery, body: ZChangePasswordBody, response: { 200: ZChangePasswordResponse } },
      },
      async (request) => {
        const msp = await requireMsp(deps, request.params.msp);
        await passwordReset.changePasswordWithCode(msp, kind, { ...request.body, token: request.query.token }, requestMeta(request));
        return { changed: true as const };
      },
    );
  }
};
