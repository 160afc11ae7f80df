import { randomUUID, timingSafeEqual } from 'node:crypto';
import { LOGO_MAX_BYTES, MESSAGES, mspInfoFieldsProblem, normaliseWebsiteUrl, type TCreateMspResponse, type TMspBrand, type TMspProfile } from '@switchboard/contracts';
import type { TAppDeps } from '../../app-deps';
import { AppError, notFound } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/crypto';
import { isUniqueViolation } from '../../lib/db-errors';
import type { TRequestMeta } from '../../plugins/access';
import { ensureBuiltInRoles } from '../roles/built-in-roles';
import { detectLogoType, isRefusedSvg, logoRelativePath, versionedLogoPath, type TLogoType } from './logo-file';
import { presentBrand, presentMspProfile } from './msp.presenter';
import { detachAuditEventsOf, findMspByDomain, findMspById, insertMsp, reclaimAbandonedMsp, updateMspBrand, updateMspLogo, type TMspRow } from './msp.repository';
import { userAuditFields } from '../../lib/audit';

/** decisions #6: the first-technician token lives 30 minutes. */
export const BOOTSTRAP_TOKEN_TTL_MS = 30 * 60 * 1000;

export interface TCreateMspInput {
  mspName: string;
  customDomain: string;
  companyPhoneNumber: string;
  webSiteUrl: string;
  /** The operator's invitation code when MSP_SIGNUP=invitation; ignored otherwise. */
  invitationCode?: string;
  /** Absent when no `file` part was sent; `bytes` empty when the part was sent without content. */
  logo?: { bytes: Buffer; declaredMime: string } | undefined;
}



/** Every MSP sign-up failure carries the spec's `mspSignup` flag beside its own. */
export const mspSignupError = (code: ConstructorParameters<typeof AppError>[0], detail: string, flags: Record<string, unknown> = {}) =>
  new AppError(code, detail, { flags: { mspSignup: true, ...flags } });

export const logoTooLargeError = () => mspSignupError('file_size', MESSAGES.fileSize, { fileSize: true });

/** The declared type may say image/jpg for JPEG; anything else must match the bytes. */
function declaredTypeMatches(declaredMime: string, type: TLogoType): boolean {
  const declared = declaredMime.toLowerCase();
  return declared === type.mime || (type.mime === 'image/jpeg' && declared === 'image/jpg');
}

type TLogoErrorFactory = (code: 'file_missing' | 'file_size' | 'file_type', detail: string, flags: Record<string, unknown>) => AppError;

/** a logo file is present, within the size limit, and an image of a type it says it is (its bytes decide). */
function logoTypeOf(logo: { bytes: Buffer; declaredMime: string }, error: TLogoErrorFactory): TLogoType {
  if (logo.bytes.length === 0) throw error('file_missing', MESSAGES.fileMissing, { fileMissing: true });
  if (logo.bytes.length > LOGO_MAX_BYTES) throw error('file_size', MESSAGES.fileSize, { fileSize: true });
  const type = detectLogoType(logo.bytes);
  // An SVG refused for its content hears what to change, not that it is no SVG.
  if (!type && isRefusedSvg(logo.bytes)) throw error('file_type', MESSAGES.logoSvgRefused, { fileType: true });
  if (!type || !declaredTypeMatches(logo.declaredMime, type)) throw error('file_type', MESSAGES.fileType, { fileType: true });
  return type;
}

/** A logo change's refusal: the spec's flags, without sign-up's `mspSignup`. */
export const logoChangeError: TLogoErrorFactory = (code, detail, flags) => new AppError(code, detail, { flags });

/**
 * A sign-up left after step 1: the MSP was created, its first-technician token expired unspent, so nobody can ever
 * sign in to it. Its domain is free again (the next sign-up takes the row over) and it has no public profile.
 */
export function isAbandonedSignup(msp: Pick<TMspRow, 'bootstrapTokenHash' | 'bootstrapExpiresAt'>, now: Date): boolean {
  return msp.bootstrapTokenHash !== null && msp.bootstrapExpiresAt !== null && msp.bootstrapExpiresAt.getTime() <= now.getTime();
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createMspService(deps: Pick<TAppDeps, 'database' | 'audit' | 'config' | 'now' | 'files'>) {
  const db = deps.database.db;

  /** MSP_SIGNUP=off: refused before the form is read, so nothing is uploaded for nothing. */
  function assertSignupOpen(): void {
    if (deps.config.mspSignup.mode === 'off') throw mspSignupError('signup_closed', MESSAGES.mspSignupClosed, { signupClosed: true });
  }

  /** validates the form, stores the logo, creates the MSP with its built-in roles and a bootstrap token. */
  async function createMsp(input: TCreateMspInput, origin: TRequestMeta): Promise<TCreateMspResponse> {
    assertSignupOpen();
    const signup = deps.config.mspSignup;
    if (signup.mode === 'invitation' && !sameSecret(input.invitationCode?.trim() ?? '', signup.code)) {
      throw mspSignupError('signup_closed', MESSAGES.mspSignupInvitationRequired, { invitationRequired: true });
    }
    const fields = {
      mspName: input.mspName.trim(),
      customDomain: input.customDomain.trim().toLowerCase(),
      companyPhoneNumber: input.companyPhoneNumber.trim(),
      webSiteUrl: input.webSiteUrl.trim(),
    };
    if (Object.values(fields).some((value) => value === '')) throw mspSignupError('empty_fields', MESSAGES.emptyFields, { emptyFields: true });
    // The same step-1 rule the sign-up page checks before step 2 (issue #6 §6).
    const problem = mspInfoFieldsProblem(fields);
    if (problem !== null) throw mspSignupError('validation', problem);
    const now = deps.now();
    const existing = await findMspByDomain(db, fields.customDomain);
    if (existing && !isAbandonedSignup(existing, now)) throw mspSignupError('conflict', MESSAGES.customDomainTaken);

    const logoType = input.logo ? logoTypeOf(input.logo, mspSignupError) : null;

    const mspId = existing?.id ?? randomUUID();
    const bootstrapToken = randomToken();
    const bootstrapExpiresAt = new Date(now.getTime() + BOOTSTRAP_TOKEN_TTL_MS);
    // A taken-over sign-up's logo gets a new name, so no cache shows the abandoned one's.
    const logoPath = logoType ? (existing ? versionedLogoPath(mspId, logoType, now) : logoRelativePath(mspId, logoType)) : null;
    const logoFiles = input.logo && logoType && logoPath ? [{ mspId, name: logoPath, contentType: logoType.mime, bytes: input.logo.bytes }] : [];
    const values = {
      name: fields.mspName,
      phone: fields.companyPhoneNumber,
      websiteUrl: normaliseWebsiteUrl(fields.webSiteUrl) ?? fields.webSiteUrl,
      logoPath,
      logoMime: logoType?.mime ?? null,
      bootstrapTokenHash: sha256(bootstrapToken),
      bootstrapExpiresAt,
    };
    try {
      // The logo is stored with the row: a stored logoPath always names a complete upload.
      await deps.files.storeWith(db, logoFiles, async (tx) => {
        if (existing) {
          // Someone finished or took over that sign-up since it was read: the domain is taken after all.
          if (!(await reclaimAbandonedMsp(tx, mspId, now, values))) throw mspSignupError('conflict', MESSAGES.customDomainTaken);
          // The new owner's activity log starts with their own sign-up, not the earlier person's.
          await detachAuditEventsOf(tx, mspId);
        } else {
          await insertMsp(tx, { id: mspId, customDomain: fields.customDomain, ...values });
        }
        await ensureBuiltInRoles(tx, mspId);
        await deps.audit.record(tx, {
          mspId,
          actorKind: 'anonymous',
          action: 'msp.create',
          target: fields.customDomain,
          outcome: 'success',
          ip: origin.ip,
          requestId: origin.requestId,
          details: { mspName: fields.mspName, hasLogo: logoPath !== null, ...(existing ? { tookOverAbandonedSignup: true } : {}) },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw mspSignupError('conflict', MESSAGES.customDomainTaken);
      throw error;
    }
    if (existing?.logoPath && existing.logoPath !== logoPath) await deps.files.delete(db, mspId, existing.logoPath).catch(() => undefined);
    return { mspCustomDomain: fields.customDomain, mspName: fields.mspName, bootstrapToken, bootstrapExpiresAt: bootstrapExpiresAt.toISOString() };
  }

  /** the public profile, or 404. */
  async function getProfile(customDomain: string): Promise<TMspProfile> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp || isAbandonedSignup(msp, deps.now())) throw notFound();
    return presentMspProfile(msp);
  }

  /** The logo bytes and type, or 404 when the MSP or its logo is missing. */
  async function getLogo(customDomain: string): Promise<{ bytes: Buffer; mime: string }> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp?.logoPath || !msp.logoMime) throw notFound();
    const upload = await deps.files.get(db, msp.id, msp.logoPath);
    if (!upload) throw notFound();
    return { bytes: upload.bytes, mime: upload.contentType };
  }

  async function getBrand(mspId: string, customDomain: string): Promise<TMspBrand> {
    const msp = await findMspByDomain(db, customDomain);
    if (!msp || msp.id !== mspId) throw notFound();
    return presentBrand(msp);
  }

  /** Branding save (decisions #5 addition). */
  async function saveBrand(actor: { mspId: string; userId: string } & TRequestMeta, brand: TMspBrand): Promise<TMspBrand> {
    const normalised = {
      primaryColour: brand.primaryColour.toLowerCase(),
      primaryButtonColour: brand.primaryButtonColour.toLowerCase(),
      secondaryButtonColour: brand.secondaryButtonColour.toLowerCase(),
    };
    const updated = await db.transaction(async (tx) => {
      const row = await updateMspBrand(tx, actor.mspId, normalised);
      if (!row) throw notFound();
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'msp.branding.save', target: row.customDomain, outcome: 'success', details: normalised });
      return row;
    });
    return presentBrand(updated);
  }

  /**
   * The brand logo changed after sign-up (R-090; an addition: the catalogue sets it only at sign-up, A-082). Each
   * logo is stored under a new name, so its URL changes and no cache shows the old one; the old file goes after the commit.
   */
  async function saveLogo(actor: { mspId: string; userId: string } & TRequestMeta, logo: { bytes: Buffer; declaredMime: string } | undefined): Promise<TMspProfile> {
    // No file part reads as an empty file: logoTypeOf refuses it as missing.
    const { bytes } = logo ?? { bytes: Buffer.alloc(0) };
    const type = logoTypeOf({ bytes, declaredMime: logo?.declaredMime ?? '' }, logoChangeError);
    const name = versionedLogoPath(actor.mspId, type, deps.now());
    const { before, after } = await deps.files.storeWith(db, [{ mspId: actor.mspId, name, contentType: type.mime, bytes }], async (tx) => {
      const previous = await findMspById(tx, actor.mspId);
      const row = await updateMspLogo(tx, actor.mspId, name, type.mime);
      if (!previous || !row) throw notFound();
      await deps.audit.record(tx, { ...userAuditFields(actor), action: 'msp.logo.save', target: row.customDomain, outcome: 'success', details: { contentType: type.mime, sizeBytes: bytes.length } });
      return { before: previous, after: row };
    });
    if (before.logoPath && before.logoPath !== name) await deps.files.delete(db, actor.mspId, before.logoPath).catch(() => undefined);
    return presentMspProfile(after);
  }

  return { assertSignupOpen, createMsp, getProfile, getLogo, getBrand, saveBrand, saveLogo };
}
