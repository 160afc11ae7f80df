import { MESSAGES, MSP_USER_COLLECTIONS, ZMspParams, ZTotpCodeBody, ZTotpSetupResponse, ZTotpStatusResponse } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import type { TAppDeps, TModule } from '../../app-deps';
import { AppError, notFound, validation } from '../../lib/app-error';
import { encryptSecret } from '../../lib/crypto';
import { mspUserOf, requestMeta, type TRequestMeta } from '../../plugins/access';
import type { TAuthContext } from '../../plugins/auth-context';
import { findUserById, updateUser, type TMspUserKind, type TUserRow } from './auth.repository';
import { authIpRateLimit, USER_KIND_OF } from './auth-request';
import { newTotpSecret, PENDING_TOTP_PREFIX, totpUri, verifyTotp } from './two-factor.service';
import { findMspByDomain } from '../msp/msp.repository';

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

/** Stores the user's TOTP secret (or clears it) and records the step, in one transaction. */
async function saveTotpSecret(deps: Pick<TAppDeps, 'audit' | 'database' | 'now'>, user: TUserRow, totpSecret: string | null, action: string, meta: TRequestMeta) {
  await deps.database.db.transaction(async (tx) => {
    await updateUser(tx, user.mspId, user.id, { totpSecret, updatedAt: deps.now() });
    await audit(deps, tx, user, action, 'success', meta);
  });
}

/** Authenticator-app enrolment for the signed-in user (decisions #16; additions). */
export const registerTotpRoutes: TModule = (app, deps) => {
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
        // Re-running setup replaces an enrolled app; the new secret counts only once confirmed with a code.
        await saveTotpSecret(deps, user, PENDING_TOTP_PREFIX + encryptSecret(deps.config.encryptionKey, secret), 'auth.totp.setup', requestMeta(request));
        void reply.header('cache-control', 'no-store');
        return { secret, otpauthUrl: totpUri(secret, user.email, msp?.name ?? auth.mspCustomDomain) };
      },
    );

    app.post(
      `/db/:msp/${collection}/totp/enable`,
      { config: { ...authIpRateLimit(deps.config), access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpEnable`, summary: 'Confirm enrolment with a code from the app (addition)', security: [{ session: [] }], params: ZMspParams, body: ZTotpCodeBody, response: { 200: ZTotpStatusResponse } } },
      async (request) => {
        const auth = mspUserOf(request);
        const user = await loadSelf(deps, auth, kind);
        if (request.body.code === '') throw validation(MESSAGES.verificationCodeRequired, [{ name: 'code', reason: MESSAGES.verificationCodeRequired }]);
        const pending = user.totpSecret?.startsWith(PENDING_TOTP_PREFIX) ? user.totpSecret.slice(PENDING_TOTP_PREFIX.length) : null;
        if (pending === null || !(await verifyTotp(deps, user, pending, request.body.code))) {
          await audit(deps, deps.database.db, user, 'auth.totp.enable', 'failure', requestMeta(request));
          throw new AppError('invalid_code', MESSAGES.invalidVerificationCode);
        }
        await saveTotpSecret(deps, user, pending, 'auth.totp.enable', requestMeta(request));
        return { totpEnabled: true };
      },
    );

    app.post(
      `/db/:msp/${collection}/totp/disable`,
      { config: { access: { principal: 'user', tenant: 'path' } }, schema: { tags, operationId: `${collection}TotpDisable`, summary: 'Remove the authenticator app; codes arrive by mail only (addition)', security: [{ session: [] }], params: ZMspParams, response: { 200: ZTotpStatusResponse } } },
      async (request) => {
        const auth = mspUserOf(request);
        const user = await loadSelf(deps, auth, kind);
        await saveTotpSecret(deps, user, null, 'auth.totp.disable', requestMeta(request));
        return { totpEnabled: false };
      },
    );
  }
};
