import { randomUUID } from 'node:crypto';
import { LOGO_MAX_BYTES, MESSAGES, mspInfoFieldsProblem, normaliseWebsiteUrl, type TCreateMspResponse, type TMspBrand, type TMspProfile } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/crypto';
import { isUniqueViolation } from '../../lib/db-errors';
import { ensureBuiltInRoles } from '../roles/built-in-roles';
import { detectLogoType, logoRelativePath, readLogo, removeLogo, writeLogo, type TLogoType } from './logo-file';
import { presentBrand, presentMspProfile } from './msp.presenter';
import { findMspByDomain, insertMsp, updateMspBrand } from './msp.repository';

/** decisions #6: the first-technician token lives 30 minutes. */
export const BOOTSTRAP_TOKEN_TTL_MS = 30 * 60 * 1000;

export interface TCreateMspInput {
  mspName: string;
  customDomain: string;
  companyPhoneNumber: string;
  webSiteUrl: string;
  /** Absent when no `file` part was sent; `bytes` empty when the part was sent without content. */
  logo?: { bytes: Buffer; declaredMime: string } | undefined;
}

export interface TRequestOrigin {
  ip: string;
  requestId: string;
}


/** Every MSP sign-up failure carries the spec's `mspSignup` flag beside its own. */
export const mspSignupError = (code: ConstructorParameters<typeof AppError>[0], status: number, detail: string, flags: Record<string, unknown> = {}) =>
  new AppError(code, status, detail, { flags: { mspSignup: true, ...flags } });

export const logoTooLargeError = () => mspSignupError('file_size', 413, MESSAGES.fileSize, { fileSize: true });

/** The declared type may say image/jpg for JPEG; anything else must match the bytes. */
function declaredTypeMatches(declaredMime: string, type: TLogoType): boolean {
  const declared = declaredMime.toLowerCase();
  return declared === type.mime || (type.mime === 'image/jpeg' && declared === 'image/jpg');
}

export function createMspService(deps: Pick<TAppDeps, 'database' | 'audit' | 'config' | 'now'>) {
  const db = deps.database.db;

  /** validates the form, stores the logo, creates the MSP with its built-in roles and a bootstrap token. */
  async function createMsp(input: TCreateMspInput, origin: TRequestOrigin): Promise<TCreateMspResponse> {
    const fields = {
      mspName: input.mspName.trim(),
      customDomain: input.customDomain.trim().toLowerCase(),
      companyPhoneNumber: input.companyPhoneNumber.trim(),
      webSiteUrl: input.webSiteUrl.trim(),
    };
    if (Object.values(fields).some((value) => value === '')) throw mspSignupError('empty_fields', 400, MESSAGES.emptyFields, { emptyFields: true });
    // The same step-1 rule the sign-up page checks before step 2 (issue #6 §6).
    const problem = mspInfoFieldsProblem(fields);
    if (problem !== null) throw mspSignupError('validation', 400, problem);
    if (await findMspByDomain(db, fields.customDomain)) throw mspSignupError('conflict', 409, MESSAGES.customDomainTaken);

    let logoType: TLogoType | null = null;
    if (input.logo) {
      if (input.logo.bytes.length === 0) throw mspSignupError('file_missing', 400, MESSAGES.fileMissing, { fileMissing: true });
      if (input.logo.bytes.length > LOGO_MAX_BYTES) throw logoTooLargeError();
      logoType = detectLogoType(input.logo.bytes);
      if (!logoType || !declaredTypeMatches(input.logo.declaredMime, logoType)) throw mspSignupError('file_type', 415, MESSAGES.fileType, { fileType: true });
    }

    const mspId = randomUUID();
    const bootstrapToken = randomToken();
    const bootstrapExpiresAt = new Date(deps.now().getTime() + BOOTSTRAP_TOKEN_TTL_MS);
    const logoPath = logoType ? logoRelativePath(mspId, logoType) : null;
    // The file is written before the row so a stored logoPath always names a complete file.
    if (input.logo && logoType && logoPath) await writeLogo(deps.config.dataDir, logoPath, input.logo.bytes);
    try {
      await db.transaction(async (tx) => {
        await insertMsp(tx, {
          id: mspId,
          customDomain: fields.customDomain,
          name: fields.mspName,
          phone: fields.companyPhoneNumber,
          websiteUrl: normaliseWebsiteUrl(fields.webSiteUrl) ?? fields.webSiteUrl,
          logoPath,
          logoMime: logoType?.mime ?? null,
          bootstrapTokenHash: sha256(bootstrapToken),
          bootstrapExpiresAt,
        });
        await ensureBuiltInRoles(tx, mspId);
      });
    } catch (error) {
      if (logoPath) await removeLogo(deps.config.dataDir, logoPath);
      if (isUniqueViolation(error)) throw mspSignupError('conflict', 409, MESSAGES.customDomainTaken);
      throw error;
    }
    await deps.audit({
      mspId,
      actorKind: 'anonymous',
      action: 'msp.create',
      target: fields.customDomain,
      outcome: 'success',
      ip: origin.ip,
      requestId: origin.requestId,
      details: { mspName: fields.mspName, hasLogo: logoPath !== null },
    });
    return { mspCustomDomain: fields.customDomain, mspName: fields.mspName, bootstrapToken, bootstrapExpiresAt: bootstrapExpiresAt.toISOString() };
  }

  /** the public profile, or 404. */
  async function getProfile(customDomain: string): Promise<TMspProfile> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp) throw notFound();
    return presentMspProfile(msp);
  }

  /** The logo bytes and type, or 404 when the MSP or its logo is missing. */
  async function getLogo(customDomain: string): Promise<{ bytes: Buffer; mime: string }> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp?.logoPath || !msp.logoMime) throw notFound();
    try {
      return { bytes: await readLogo(deps.config.dataDir, msp.logoPath), mime: msp.logoMime };
    } catch {
      throw notFound();
    }
  }

  async function getBrand(mspId: string, customDomain: string): Promise<TMspBrand> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp || msp.id !== mspId) throw notFound();
    return presentBrand(msp);
  }

  /** Branding save (decisions #5 addition). */
  async function saveBrand(actor: { mspId: string; userId: string } & TRequestOrigin, brand: TMspBrand): Promise<TMspBrand> {
    const normalised = {
      primaryColour: brand.primaryColour.toLowerCase(),
      primaryButtonColour: brand.primaryButtonColour.toLowerCase(),
      secondaryButtonColour: brand.secondaryButtonColour.toLowerCase(),
    };
    const updated = await updateMspBrand(db, actor.mspId, normalised);
    if (!updated) throw notFound();
    await deps.audit({ mspId: actor.mspId, actorKind: 'user', actorId: actor.userId, action: 'msp.branding.save', target: updated.customDomain, outcome: 'success', ip: actor.ip, requestId: actor.requestId, details: normalised });
    return presentBrand(updated);
  }

  return { createMsp, getProfile, getLogo, getBrand, saveBrand };
}
