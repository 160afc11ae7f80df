import {
  MESSAGES,
  MSP_USER_COLLECTIONS,
  ZMspParams,
  ZRemoveAuthenticatorAppBody,
  ZRemoveAuthenticatorAppResponse,
  ZTotpCodeBody,
  ZTotpEnableBody,
  ZTotpSetupResponse,
  ZTotpStatusResponse,
} from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps, TModule } from '../../app-deps';
import { AppError, notFound, validation } from '../../lib/app-error';
import { encryptSecret } from '../../lib/crypto';
import { actorOf, mspUserOf, requestMeta, type TRequestMeta } from '../../plugins/access';
import type { TAuthContext } from '../../plugins/auth-context';
import { findUserById, updateUser, type TMspUserKind, type TUserRow } from './auth.repository';
import { authIpRateLimit, USER_KIND_OF } from './auth-request';
import { enrolledSecretOf, hasEnrolledTotp, newTotpSecret, totpUri, verifyTotp, verifyTotpReplacement } from './two-factor.service';
import { findMspByDomain } from '../msp/msp.repository';
import { MANAGEMENT_PERMISSION } from '../profile/profile.policy';
import { createTotpResetService } from './totp-reset.service';

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;

/** The signed-in user's own row, when the path's `{users}` is their kind (else 404: enrolment is only ever for oneself). */
async function loadSelf(deps: Pick<TAppDeps, 'database'>, auth: TUserContext, kind: TMspUserKind): Promise<TUserRow> {
  const user = auth.userKind === kind ? await findUserById(deps.database.db, auth.mspId, auth.userId) : undefined;
  if (!user) throw notFound();
  return user;
}

/** Records an enrolment step through `db`: the transaction of the change it records, or the database for a refusal. */
async function audit(deps: Pick<TAppDeps, 'audit'>, db: TDatabase, user: TUserRow, action: string, outcome: 'success' | 'failure', meta: TRequestMeta) {
  await deps.audit.record(db, { mspId: user.mspId, actorKind: 'user', actorId: user.id, action, target: user.id, outcome, ...meta });
}

/** Stores the user's TOTP secrets and records the step, in one transaction. */
async function saveTotpSecrets(deps: Pick<TAppDeps, 'audit' | 'database' | 'now'>, user: TUserRow, secrets: Pick<TUserRow, 'totpSecret' | 'totpPendingSecret'>, action: string, meta: TRequestMeta) {
  await deps.database.db.transaction(async (tx) => {
    await updateUser(tx, user.mspId, user.id, { ...secrets, updatedAt: deps.now() });
    await audit(deps, tx, user, action, 'success', meta);
  });
}

/** The code of the request body, or the 400 that asks for one. */
function requireCode(code: string): string {
  if (code === '') throw validation(MESSAGES.verificationCodeRequired, [{ name: 'code', reason: MESSAGES.verificationCodeRequired }]);
  return code;
}

/** Authenticator-app enrolment for the signed-in user (decisions #16; additions), and a people manager's removal of a lost one (decision 047). */
export const registerTotpRoutes: TModule = (app, deps) => {
  const reset = createTotpResetService(deps);
  for (const collection of MSP_USER_COLLECTIONS) {
    const kind = USER_KIND_OF[collection];
    const tags = [collection];

    app.post(
      `/db/:msp/${collection}/totp/setup`,
      { config: { access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpSetup`, summary: 'Start authenticator-app enrolment: a new secret and its otpauth URL (addition)', security: [{ session: [] }], params: ZMspParams, response: { 200: ZTotpSetupResponse } } },
      async (request, reply) => {
        const auth = mspUserOf(request);
        const user = await loadSelf(deps, auth, kind);
        const msp = await findMspByDomain(deps.database.db, auth.mspCustomDomain);
        const secret = newTotpSecret();
        // The new secret waits beside an enrolled one, which keeps working until `enable` confirms the new app with a
        // code from it (review s27 #2): an abandoned setup changes nothing.
        await saveTotpSecrets(deps, user, { totpSecret: enrolledSecretOf(user), totpPendingSecret: encryptSecret(deps.config.encryptionKey, secret) }, 'auth.totp.setup', requestMeta(request));
        void reply.header('cache-control', 'no-store');
        return { secret, otpauthUrl: totpUri(secret, user.email, msp?.name ?? auth.mspCustomDomain) };
      },
    );

    app.post(
      `/db/:msp/${collection}/totp/enable`,
      { config: { ...authIpRateLimit(deps.config), access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpEnable`, summary: 'Confirm enrolment with a code from the new app and, replacing an enrolled app, a current code from that one (addition)', security: [{ session: [] }], params: ZMspParams, body: ZTotpEnableBody, response: { 200: ZTotpStatusResponse } } },
      async (request) => {
        const auth = mspUserOf(request);
        const user = await loadSelf(deps, auth, kind);
        const code = requireCode(request.body.code);
        // The refusal, recorded as a failed step; the field named is the code to enter again.
        const refused = async (detail: string, field?: 'code' | 'currentCode'): Promise<AppError> => {
          await audit(deps, deps.database.db, user, 'auth.totp.enable', 'failure', requestMeta(request));
          return new AppError('invalid_code', detail, field ? { invalidParams: [{ name: field, reason: detail }] } : {});
        };
        const pending = user.totpPendingSecret;
        const enrolled = enrolledSecretOf(user);
        if (enrolled === null) {
          if (pending === null || !(await verifyTotp(deps, user, pending, code))) throw await refused(MESSAGES.invalidVerificationCode);
        } else {
          // As with disable, a session alone (a borrowed laptop) must not swap the second factor for an app of its
          // holder's: the enrolled app has to agree (security review s28).
          const currentCode = request.body.currentCode;
          if (currentCode === '') throw await refused(MESSAGES.authenticatorApp.currentCodeRequired, 'currentCode');
          if (pending === null) throw await refused(MESSAGES.authenticatorApp.newCodeWrong, 'code');
          const refusal = await verifyTotpReplacement(deps, user, { enrolledSecret: enrolled, currentCode, pendingSecret: pending, code });
          if (refusal === 'codesAlreadyUsed') throw await refused(MESSAGES.authenticatorApp.codesAlreadyUsed);
          if (refusal !== null) throw await refused(MESSAGES.authenticatorApp[refusal], refusal === 'currentCodeWrong' ? 'currentCode' : 'code');
        }
        await saveTotpSecrets(deps, user, { totpSecret: pending, totpPendingSecret: null }, 'auth.totp.enable', requestMeta(request));
        return { totpEnabled: true };
      },
    );

    app.post(
      `/db/:msp/${collection}/totp/disable`,
      { config: { ...authIpRateLimit(deps.config), access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpDisable`, summary: 'Remove the authenticator app with a current code from it; codes arrive by mail only (addition)', security: [{ session: [] }], params: ZMspParams, body: ZTotpCodeBody, response: { 200: ZTotpStatusResponse } } },
      async (request) => {
        const auth = mspUserOf(request);
        const user = await loadSelf(deps, auth, kind);
        const code = requireCode(request.body.code);
        const enrolled = enrolledSecretOf(user);
        // A session alone (a borrowed laptop) must not remove the second factor: the app itself has to agree (review s27 #2).
        if (enrolled !== null && !(await verifyTotp(deps, user, enrolled, code))) {
          await audit(deps, deps.database.db, user, 'auth.totp.disable', 'failure', requestMeta(request));
          throw new AppError('invalid_code', MESSAGES.invalidVerificationCode);
        }
        await saveTotpSecrets(deps, user, { totpSecret: null, totpPendingSecret: null }, 'auth.totp.disable', requestMeta(request));
        return { totpEnabled: false };
      },
    );

    app.get(
      `/db/:msp/${collection}/totp`,
      { config: { access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpStatus`, summary: 'Whether the signed-in user has an authenticator app (addition)', security: [{ session: [] }], params: ZMspParams, response: { 200: ZTotpStatusResponse } } },
      async (request) => {
        const user = await loadSelf(deps, mspUserOf(request), kind);
        return { totpEnabled: hasEnrolledTotp(user) };
      },
    );

    app.post(
      `/db/:msp/${collection}/totp/remove`,
      {
        // Decision 047: MSP staff with the permission that governs changing people of this kind (decisions #11).
        config: { access: { principal: 'technician', tenant: 'path', anyPermission: [MANAGEMENT_PERMISSION[kind]] } },
        schema: { tags, operationId: `${collection}TotpRemove`, summary: `Remove someone else's lost authenticator app and any pending setup; they are mailed (needs ${MANAGEMENT_PERMISSION[kind]}; addition, decision 047)`, security: [{ session: [] }], params: ZMspParams, body: ZRemoveAuthenticatorAppBody, response: { 200: ZRemoveAuthenticatorAppResponse } },
      },
      async (request) => reset.removeAuthenticatorApp(actorOf(request), kind, request.body.id, (error) => request.log.warn({ err: error }, 'authenticator app removal mail not sent')),
    );
  }
};
