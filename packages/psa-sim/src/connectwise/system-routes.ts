import { createHash } from 'node:crypto';
import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, json, route } from '../http';
import type { TRoute } from '../http';
import { CW_API_PREFIX, cwInvalidObject, cwNotFound, itemResponse, listResponse, readObjectBody } from './common';
import type { TCwValidationError } from './common';
import { presentCallback, presentDepartment, presentLocation, presentMember } from './presenters';

const CALLBACK_LEVELS = ['owner', 'board', 'status', 'ticket', 'project', 'phase', 'integratortag'];

/** The per-instance key callbacks are signed with; receivers fetch it from Metadata.key_url. */
export function callbackSigningKey(context: TSimContext): string {
  return createHash('sha256').update(`${context.credentials.connectWise.companyId}:${context.credentials.connectWise.privateKey}`).digest('hex');
}

export function connectWiseSystemRoutes(context: TSimContext): TRoute[] {
  const store = (): TSimContext['store'] => context.store;
  const system = `${CW_API_PREFIX}/system`;
  const members = (): Record<string, unknown>[] => [...store().members.all()].map(presentMember);
  const callbacks = (): Record<string, unknown>[] => [...store().callbacks.all()].map(presentCallback);
  return [
    route('GET', `${system}/info`, () => json(200, { version: 'v2025.1.10431', isCloud: true, serverTimeZone: 'Eastern Standard Time', cloudRegion: 'NA' })),
    route('GET', `${system}/members`, (request) => listResponse(request, members())),
    route('GET', `${system}/members/{id}`, (request, params) => {
      const member = store().members.get(idParam(params));
      return member ? itemResponse(request, presentMember(member)) : cwNotFound('Member', idParam(params));
    }),
    route('GET', `${system}/departments`, (request) => listResponse(request, [...store().departments.all()].map(presentDepartment))),
    route('GET', `${system}/departments/{id}`, (request, params) => {
      const department = store().departments.get(idParam(params));
      return department ? itemResponse(request, presentDepartment(department)) : cwNotFound('Department', idParam(params));
    }),
    route('GET', `${system}/locations`, (request) => listResponse(request, [...store().locations.all()].map(presentLocation))),
    route('GET', `${system}/locations/{id}`, (request, params) => {
      const location = store().locations.get(idParam(params));
      return location ? itemResponse(request, presentLocation(location)) : cwNotFound('Location', idParam(params));
    }),
    route('GET', `${system}/callbacks`, (request) => listResponse(request, callbacks())),
    route('GET', `${system}/callbacks/{id}`, (request, params) => {
      const callback = store().callbacks.get(idParam(params));
      return callback ? itemResponse(request, presentCallback(callback)) : cwNotFound('CallbackEntry', idParam(params));
    }),
    route('POST', `${system}/callbacks`, (request) => {
      const parsed = readObjectBody(request, 'callbackEntry');
      if ('response' in parsed) return parsed.response;
      const body = parsed.body;
      const errors: TCwValidationError[] = [];
      const url = typeof body.url === 'string' ? body.url : '';
      if (!/^https?:\/\//i.test(url)) errors.push({ code: url === '' ? 'MissingRequiredField' : 'InvalidField', message: 'url must be an absolute http(s) URL.', resource: 'callbackEntry', field: 'url' });
      const type = typeof body.type === 'string' ? body.type.toLowerCase() : '';
      if (type === '') errors.push({ code: 'MissingRequiredField', message: 'type is required.', resource: 'callbackEntry', field: 'type' });
      const level = typeof body.level === 'string' ? body.level.toLowerCase() : '';
      if (!CALLBACK_LEVELS.includes(level)) errors.push({ code: 'InvalidField', message: `level must be one of ${CALLBACK_LEVELS.join(', ')}.`, resource: 'callbackEntry', field: 'level' });
      if (typeof body.objectId !== 'number') errors.push({ code: 'MissingRequiredField', message: 'objectId is required.', resource: 'callbackEntry', field: 'objectId' });
      const description = typeof body.description === 'string' ? body.description : '';
      if (description.length > 100) errors.push({ code: 'InvalidField', message: 'description must be at most 100 characters.', resource: 'callbackEntry', field: 'description' });
      if (errors.length > 0 || typeof body.objectId !== 'number') return cwInvalidObject('callbackEntry', errors);
      const callback = store().callbacks.insert({
        description,
        url,
        objectId: body.objectId,
        type,
        level,
        isInactive: body.inactiveFlag === true,
        isSelfSuppressed: body.isSelfSuppressedFlag === true,
        payloadVersion: typeof body.payloadVersion === 'string' ? body.payloadVersion : '2025.1',
      });
      countCreate(context);
      return json(201, presentCallback(callback));
    }),
    route('DELETE', `${system}/callbacks/{id}`, (_request, params) => {
      const isDeleted = store().callbacks.delete(idParam(params));
      return isDeleted ? { status: 204 } : cwNotFound('CallbackEntry', idParam(params));
    }),
  ];
}

/** Unauthenticated routes: codebase discovery and the callback signing-key URL. */
export function connectWisePublicRoutes(context: TSimContext): TRoute[] {
  return [
    route('GET', '/login/companyinfo/{name}', (request, params) => {
      const companyId = params[0] ?? '';
      if (companyId.toLowerCase() !== context.credentials.connectWise.companyId.toLowerCase()) return json(200, null);
      return json(200, {
        CompanyName: 'Northwind IT (PSA simulator)',
        Codebase: 'v4_6_release/',
        VersionCode: 'v2025.1',
        VersionNumber: 'v4.6.10431',
        CompanyID: context.credentials.connectWise.companyId,
        IsCloud: true,
        SiteUrl: new URL(request.origin).host,
      });
    }),
    // The key document arrives JSON-encoded as a string; connectwise-rest's verifyCallback JSON.parses the already-decoded body.
    route('GET', `${CW_API_PREFIX}/system/callbackKeys/{name}`, () => json(200, JSON.stringify({ signing_key: callbackSigningKey(context) }))),
  ];
}
