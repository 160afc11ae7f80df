import { randomUUID } from 'node:crypto';
import { countCreate } from '../context';
import type { TSimContext } from '../context';
import { idParam, isRecord, json, route } from '../http';
import type { TRoute, TSimResponse } from '../http';
import type { TSimWebhook } from '../store';
import { AT_API_PREFIX, atErrors, bodyField, countQueryResponse, picklistValue, presentFieldDefinitions, queryResponse } from './common';
import type { TAtFieldDefinition, TAtRecord } from './common';
import { API_USER_RESOURCE_ID, TICKET_FIELDS, isAtResource } from './entities';

const WEBHOOK_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'name', dataType: 'string', length: 50, isRequired: true },
  { name: 'webhookUrl', dataType: 'string', isRequired: true },
  { name: 'deactivationUrl', dataType: 'string', isRequired: true },
  { name: 'secretKey', dataType: 'string', length: 64 },
  { name: 'notificationEmailAddress', dataType: 'string' },
  { name: 'isActive', dataType: 'boolean', isRequired: true },
  { name: 'isSubscribedToCreateEvents', dataType: 'boolean' },
  { name: 'isSubscribedToUpdateEvents', dataType: 'boolean' },
  { name: 'isSubscribedToDeleteEvents', dataType: 'boolean' },
  { name: 'isReady', dataType: 'boolean', isReadOnly: true },
  { name: 'webhookGUID', dataType: 'string', isReadOnly: true },
  { name: 'ownerResourceID', dataType: 'integer', isReadOnly: true },
];

/**
 * TicketWebhookFields as the real API describes it: `fieldID` is a picklist whose values are the
 * webhook field ids and whose labels name the ticket fields (ids here are positions in TICKET_FIELDS).
 */
const WEBHOOK_FIELD_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'webhookID', dataType: 'integer', isRequired: true, referenceEntityType: 'TicketWebhook' },
  {
    name: 'fieldID',
    dataType: 'integer',
    isRequired: true,
    picklist: () => TICKET_FIELDS.map((field, index) => picklistValue(index + 1, field.name, index + 1)),
  },
  { name: 'isSubscribedField', dataType: 'boolean' },
  { name: 'isDisplayAlwaysField', dataType: 'boolean' },
];

/** TicketWebhookExcludedResources: resources whose changes make no callout. */
const EXCLUDED_RESOURCE_FIELDS: TAtFieldDefinition[] = [
  { name: 'id', dataType: 'long', isReadOnly: true },
  { name: 'webhookID', dataType: 'integer', isRequired: true, referenceEntityType: 'TicketWebhook' },
  { name: 'resourceID', dataType: 'integer', isRequired: true, referenceEntityType: 'Resource' },
];

function presentWebhook(webhook: TSimWebhook): TAtRecord {
  return {
    id: webhook.id,
    name: webhook.name,
    webhookUrl: webhook.webhookUrl,
    deactivationUrl: webhook.deactivationUrl,
    secretKey: webhook.secretKey,
    notificationEmailAddress: webhook.notificationEmailAddress,
    isActive: webhook.isActive,
    isSubscribedToCreateEvents: webhook.onCreate,
    isSubscribedToUpdateEvents: webhook.onUpdate,
    isSubscribedToDeleteEvents: webhook.onDelete,
    isReady: true,
    webhookGUID: webhook.webhookGuid,
    ownerResourceID: API_USER_RESOURCE_ID,
    sendThresholdExceededNotification: false,
  };
}

function readFlag(body: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = bodyField(body, name);
  return typeof value === 'boolean' ? value : fallback;
}

function readText(body: Record<string, unknown>, name: string): string | undefined {
  const value = bodyField(body, name);
  return typeof value === 'string' ? value : undefined;
}

function validateWebhook(body: Record<string, unknown>, base: TSimWebhook | null): Omit<TSimWebhook, 'id'> | { errors: string[] } {
  const errors: string[] = [];
  const name = readText(body, 'name') ?? base?.name;
  const webhookUrl = readText(body, 'webhookUrl') ?? base?.webhookUrl;
  const deactivationUrl = readText(body, 'deactivationUrl') ?? base?.deactivationUrl;
  const secretKey = readText(body, 'secretKey') ?? base?.secretKey ?? '';
  if (!name) errors.push('Missing Required Field: name.');
  else if (name.length > 50) errors.push('name exceeds the maximum length of 50.');
  for (const [field, value] of [['webhookUrl', webhookUrl], ['deactivationUrl', deactivationUrl]] as const) {
    if (!value) errors.push(`Missing Required Field: ${field}.`);
    else if (!/^https?:\/\//i.test(value)) errors.push(`${field} must be an absolute URL.`);
  }
  if (secretKey.length > 64) errors.push('secretKey exceeds the maximum length of 64.');
  if (errors.length > 0 || !name || !webhookUrl || !deactivationUrl) return { errors };
  return {
    name,
    webhookUrl,
    deactivationUrl,
    secretKey,
    notificationEmailAddress: readText(body, 'notificationEmailAddress') ?? base?.notificationEmailAddress ?? '',
    isActive: readFlag(body, 'isActive', base?.isActive ?? false),
    onCreate: readFlag(body, 'isSubscribedToCreateEvents', base?.onCreate ?? false),
    onUpdate: readFlag(body, 'isSubscribedToUpdateEvents', base?.onUpdate ?? false),
    onDelete: readFlag(body, 'isSubscribedToDeleteEvents', base?.onDelete ?? false),
    webhookGuid: base?.webhookGuid ?? randomUUID(),
    fields: base?.fields ?? [],
    excludedResources: base?.excludedResources ?? [],
  };
}

export function autotaskWebhookRoutes(context: TSimContext): TRoute[] {
  const base = `${AT_API_PREFIX}/TicketWebhooks`;
  const store = (): TSimContext['store'] => context.store;
  const rows = (): TAtRecord[] => [...store().webhooks.all()].map(presentWebhook);
  const withWebhook = (id: number, handle: (webhook: TSimWebhook) => TSimResponse): TSimResponse => {
    const webhook = store().webhooks.get(id);
    return webhook ? handle(webhook) : atErrors(404, `Unable to find the TicketWebhook with id ${id}.`);
  };
  const presentField = (webhook: TSimWebhook, field: TSimWebhook['fields'][number]): TAtRecord => ({
    id: field.id,
    webhookID: webhook.id,
    fieldID: field.fieldId,
    isSubscribedField: field.isSubscribedField,
    isDisplayAlwaysField: field.isDisplayAlwaysField,
  });
  const presentExcluded = (webhook: TSimWebhook, excluded: TSimWebhook['excludedResources'][number]): TAtRecord => ({ id: excluded.id, webhookID: webhook.id, resourceID: excluded.resourceId });
  const listPage = (items: TAtRecord[]): TSimResponse => json(200, { items, pageDetails: { count: items.length, requestCount: 500, prevPageUrl: null, nextPageUrl: null } });
  return [
    ...(['query', 'query/next', 'query/prev'] as const).flatMap((suffix) => [
      route('POST', `${base}/${suffix}`, (request) => queryResponse(request, 'TicketWebhooks', WEBHOOK_FIELDS, rows())),
      route('GET', `${base}/${suffix}`, (request) => queryResponse(request, 'TicketWebhooks', WEBHOOK_FIELDS, rows())),
    ]),
    route('POST', `${base}/query/count`, (request) => countQueryResponse(request, 'TicketWebhooks', WEBHOOK_FIELDS, rows())),
    route('GET', `${base}/{id}`, (_request, params) => {
      const webhook = store().webhooks.get(idParam(params));
      return json(200, { item: webhook ? presentWebhook(webhook) : null });
    }),
    route('POST', base, (request) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const result = validateWebhook(request.body, null);
      if ('errors' in result) return atErrors(500, ...result.errors);
      const webhook = store().webhooks.insert(result);
      countCreate(context);
      return json(200, { itemId: webhook.id });
    }),
    route('PATCH', base, (request) => {
      if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
      const body = request.body;
      const id = bodyField(body, 'id');
      return withWebhook(typeof id === 'number' ? id : -1, (webhook) => {
        const result = validateWebhook(body, webhook);
        if ('errors' in result) return atErrors(500, ...result.errors);
        store().webhooks.put({ ...result, id: webhook.id });
        return json(200, { itemId: webhook.id });
      });
    }),
    route('DELETE', `${base}/{id}`, (_request, params) =>
      withWebhook(idParam(params), (webhook) => {
        store().webhooks.delete(webhook.id);
        return json(200, { itemId: webhook.id });
      }),
    ),
    route('GET', `${AT_API_PREFIX}/TicketWebhookFields/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, WEBHOOK_FIELD_FIELDS))),
    route('GET', `${base}/{id}/Fields`, (_request, params) =>
      withWebhook(idParam(params), (webhook) => {
        const items = webhook.fields.map((field) => presentField(webhook, field));
        return json(200, { items, pageDetails: { count: items.length, requestCount: 500, prevPageUrl: null, nextPageUrl: null } });
      }),
    ),
    route('POST', `${base}/{id}/Fields`, (request, params) =>
      withWebhook(idParam(params), (webhook) => {
        if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
        const fieldId = bodyField(request.body, 'fieldID');
        if (typeof fieldId !== 'number' || fieldId < 1 || fieldId > TICKET_FIELDS.length) return atErrors(500, 'Value does not reference an existing entity for fieldID .');
        const nextId = Math.max(0, ...[...store().webhooks.all()].flatMap((candidate) => candidate.fields.map((field) => field.id))) + 1;
        const field = { id: nextId, fieldId, isSubscribedField: readFlag(request.body, 'isSubscribedField', false), isDisplayAlwaysField: readFlag(request.body, 'isDisplayAlwaysField', false) };
        store().webhooks.put({ ...webhook, fields: [...webhook.fields, field] });
        countCreate(context);
        return json(200, { itemId: field.id });
      }),
    ),
    route('DELETE', `${base}/{id}/Fields/{id}`, (_request, params) =>
      withWebhook(idParam(params), (webhook) => {
        const fieldId = idParam(params, 1);
        if (!webhook.fields.some((field) => field.id === fieldId)) return atErrors(404, `Unable to find the TicketWebhookField with id ${fieldId}.`);
        store().webhooks.put({ ...webhook, fields: webhook.fields.filter((field) => field.id !== fieldId) });
        return json(200, { itemId: fieldId });
      }),
    ),
    route('GET', `${AT_API_PREFIX}/TicketWebhookExcludedResources/entityInformation/fields`, () => json(200, presentFieldDefinitions(context, EXCLUDED_RESOURCE_FIELDS))),
    route('GET', `${base}/{id}/ExcludedResources`, (_request, params) => withWebhook(idParam(params), (webhook) => listPage(webhook.excludedResources.map((excluded) => presentExcluded(webhook, excluded))))),
    route('GET', `${base}/{id}/ExcludedResources/{id}`, (_request, params) =>
      withWebhook(idParam(params), (webhook) => {
        const excluded = webhook.excludedResources.find((candidate) => candidate.id === idParam(params, 1));
        return json(200, { item: excluded ? presentExcluded(webhook, excluded) : null });
      }),
    ),
    route('POST', `${base}/{id}/ExcludedResources`, (request, params) =>
      withWebhook(idParam(params), (webhook) => {
        if (!isRecord(request.body)) return atErrors(500, 'The request body must be a JSON object.');
        const resourceId = bodyField(request.body, 'resourceID');
        if (resourceId === undefined || resourceId === null) return atErrors(500, 'Missing Required Field: resourceID.');
        if (typeof resourceId !== 'number' || !Number.isInteger(resourceId) || !isAtResource(store(), resourceId)) return atErrors(500, 'Value does not reference an existing entity for resourceID .');
        if (webhook.excludedResources.some((excluded) => excluded.resourceId === resourceId)) return atErrors(500, `Resource ${String(resourceId)} is already excluded from this webhook.`);
        const nextId = Math.max(0, ...[...store().webhooks.all()].flatMap((candidate) => candidate.excludedResources.map((excluded) => excluded.id))) + 1;
        store().webhooks.put({ ...webhook, excludedResources: [...webhook.excludedResources, { id: nextId, resourceId }] });
        countCreate(context);
        return json(200, { itemId: nextId });
      }),
    ),
    route('DELETE', `${base}/{id}/ExcludedResources/{id}`, (_request, params) =>
      withWebhook(idParam(params), (webhook) => {
        const excludedId = idParam(params, 1);
        if (!webhook.excludedResources.some((excluded) => excluded.id === excludedId)) return atErrors(404, `Unable to find the TicketWebhookExcludedResource with id ${excludedId}.`);
        store().webhooks.put({ ...webhook, excludedResources: webhook.excludedResources.filter((excluded) => excluded.id !== excludedId) });
        return json(200, { itemId: excludedId });
      }),
    ),
  ];
}
