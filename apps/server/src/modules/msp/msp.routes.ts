import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  BOOTSTRAP_TOKEN_HEADER,
  hasControlCharacters,
  MESSAGES,
  ZAddTechnicianBody,
  ZAddTechnicianResponse,
  ZCreateMspResponse,
  ZCustomDomain,
  ZMspBrand,
  ZMspProfile,
  ZMspProfileQuery,
} from '@switchboard/contracts';
import type { TModule } from '../../app-deps';
import { AppError } from '../../lib/app-error';
import { actorOf, mspUserOf, requestMeta } from '../../plugins/access';
import { createMspService, logoChangeError, logoTooLargeError, mspSignupError, type TCreateMspInput } from './msp.service';
import { createTechnicianAddService } from './technician-add.service';

const ZMspPathParams = z.object({ mspCustomDomain: ZCustomDomain });
const MSP_TEXT_FIELDS = ['mspName', 'customDomain', 'companyPhoneNumber', 'webSiteUrl', 'invitationCode'] as const;
/** Anonymous sign-up calls get a tighter limit than the global one. */
const SIGNUP_RATE_LIMIT = { max: 30, timeWindow: 60_000 };

function isFileTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE';
}

/** @fastify/multipart's own refusals (too many parts, fields or files) already carry a 4xx. */
function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return false;
  return typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
}

/** Reads the A-082 multipart form: the four text fields and the optional `file` part. */
async function readMspSignupForm(request: FastifyRequest): Promise<TCreateMspInput> {
  if (!request.isMultipart()) throw mspSignupError('empty_fields', MESSAGES.emptyFields, { emptyFields: true });
  const fields: Record<(typeof MSP_TEXT_FIELDS)[number], string> = { mspName: '', customDomain: '', companyPhoneNumber: '', webSiteUrl: '', invitationCode: '' };
  let logo: TCreateMspInput['logo'];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') logo = { bytes, declaredMime: part.mimetype };
        continue;
      }
      // A browser sends a file input left empty as a plain field (no filename): "present but empty".
      if (part.fieldname === 'file') {
        logo = { bytes: Buffer.from(typeof part.value === 'string' ? part.value : ''), declaredMime: '' };
        continue;
      }
      const name = MSP_TEXT_FIELDS.find((field) => field === part.fieldname);
      if (name && typeof part.value === 'string') {
        if (hasControlCharacters(part.value)) throw mspSignupError('validation', MESSAGES.controlCharacters);
        fields[name] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isFileTooLarge(error)) throw logoTooLargeError();
    if (isClientError(error)) throw error;
    // A truncated or malformed body (no boundary, cut mid-part): the stream parser throws plain errors.
    request.log.info({ err: error }, 'unreadable multipart body');
    throw mspSignupError('validation', MESSAGES.multipartBroken);
  }
  return { ...fields, logo };
}

/** Reads the logo change's multipart form: its one `file` part (absent or empty reads as missing). */
async function readLogoForm(request: FastifyRequest): Promise<{ bytes: Buffer; declaredMime: string } | undefined> {
  if (!request.isMultipart()) return undefined;
  let logo: { bytes: Buffer; declaredMime: string } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') logo = { bytes, declaredMime: part.mimetype };
      }
    }
  } catch (error) {
    if (isFileTooLarge(error)) throw logoChangeError('file_size', MESSAGES.fileSize, { fileSize: true });
    if (isClientError(error)) throw error;
    request.log.info({ err: error }, 'unreadable multipart body');
    throw new AppError('validation', MESSAGES.multipartBroken);
  }
  return logo;
}

/** MSP sign-up, first technician / new employee, public profile, logo, branding. */
export const registerMspRoutes: TModule = (app, deps) => {
  const msps = createMspService(deps);
  const technicians = createTechnicianAddService(deps);

  // No body schema: the multipart stream is read part by part so the logo's size limit applies while it arrives.
  app.post(
    '/db/msp',
    {
      schema: {
        tags: ['msp'],
        operationId: 'createMsp',
        summary: 'A-082 MSP sign-up: multipart mspName, customDomain, companyPhoneNumber, webSiteUrl, optional file (logo ≤ 2 MB) and invitationCode (MSP_SIGNUP=invitation)',
        consumes: ['multipart/form-data'],
        response: { 201: ZCreateMspResponse },
      },
      config: { rateLimit: SIGNUP_RATE_LIMIT, access: { public: true } },
    },
    async (request, reply) => {
      msps.assertSignupOpen();
      const input = await readMspSignupForm(request);
      const created = await msps.createMsp(input, requestMeta(request));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/db/msp',
    {
      schema: { tags: ['msp'], operationId: 'getMspProfile', summary: 'A-020 Public MSP profile by custom domain', querystring: ZMspProfileQuery, response: { 200: ZMspProfile } },
      config: { access: { public: true } },
    },
    async (request) => msps.getProfile(request.query.customDomain),
  );

  app.get(
    '/db/msp/:customDomain/logo',
    {
      schema: { tags: ['msp'], operationId: 'getMspLogo', summary: 'The MSP logo bytes (public)', params: z.object({ customDomain: ZCustomDomain }) },
      config: { access: { public: true } },
    },
    async (request, reply) => {
      const logo = await msps.getLogo(request.params.customDomain);
      return reply
        .header('content-type', logo.mime)
        .header('x-content-type-options', 'nosniff')
        // An SVG opened directly must not run anything or load anything.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('cache-control', 'public, max-age=300')
        .send(logo.bytes);
    },
  );

  app.get(
    '/db/:mspCustomDomain/branding',
    {
      schema: { tags: ['msp'], operationId: 'getBranding', summary: 'Branding read (addition, decisions #5): any signed-in user of the MSP', params: ZMspPathParams, response: { 200: ZMspBrand } },
      config: { access: { principal: 'user', tenant: 'path' } },
    },
    async (request) => {
      const auth = mspUserOf(request);
      return msps.getBrand(auth.mspId, auth.mspCustomDomain);
    },
  );

  app.post(
    '/db/:mspCustomDomain/branding',
    {
      schema: { tags: ['msp'], operationId: 'saveBranding', summary: 'Branding save (addition, decisions #5): needs mspBranding', params: ZMspPathParams, body: ZMspBrand, response: { 200: ZMspBrand } },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['mspBranding'] } },
    },
    async (request) => {
      return msps.saveBrand(actorOf(request), request.body);
    },
  );

  // No body schema: the multipart stream is read part by part so the logo's size limit applies while it arrives.
  app.post(
    '/db/:mspCustomDomain/branding/logo',
    {
      schema: {
        tags: ['msp'],
        operationId: 'saveBrandLogo',
        summary: 'Brand logo change (addition to R-090, whose only logo call is sign-up A-082): multipart file (PNG, JPEG, GIF, SVG or WebP, ≤ 2 MB); needs mspBranding',
        params: ZMspPathParams,
        consumes: ['multipart/form-data'],
        response: { 200: ZMspProfile },
      },
      config: { access: { principal: 'user', tenant: 'path', anyPermission: ['mspBranding'] } },
    },
    async (request) => msps.saveLogo(actorOf(request), await readLogoForm(request)),
  );

  app.post(
    '/db/:mspCustomDomain/technicianUsers/add',
    {
      schema: {
        tags: ['technicians'],
        operationId: 'addTechnicianUser',
        summary: 'A-035 Add a technician: the first one with x-bootstrap-token (MSP sign-up), else an admin with technicianUserManagement',
        params: ZMspPathParams,
        headers: z.looseObject({ [BOOTSTRAP_TOKEN_HEADER]: z.string().max(200).optional() }),
        body: ZAddTechnicianBody,
        response: { 201: ZAddTechnicianResponse },
      },
      config: {
        rateLimit: SIGNUP_RATE_LIMIT,
        access: { principal: 'technician', tenant: 'path', anyPermission: ['technicianUserManagement'], bootstrapToken: true },
      },
    },
    async (request, reply) => {
      const origin = requestMeta(request);
      const bootstrapToken = request.headers[BOOTSTRAP_TOKEN_HEADER];
      if (typeof bootstrapToken === 'string' && bootstrapToken !== '') {
        const user = await technicians.addFirstTechnician(request.params.mspCustomDomain, bootstrapToken, request.body, origin);
        return reply.status(201).send({ user });
      }
      const auth = mspUserOf(request);
      const user = await technicians.addEmployee({ mspId: auth.mspId, mspCustomDomain: auth.mspCustomDomain, userId: auth.userId, permissions: auth.permissions }, request.body, origin);
      return reply.status(201).send({ user });
    },
  );
};
