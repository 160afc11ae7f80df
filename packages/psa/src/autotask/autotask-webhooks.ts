import { isPsaError, PsaError } from '../errors';
import { parsePsaPayload } from '../http/parse';
import type { TPsaRequestUsage, TPsaWebhook, TRegisterPsaWebhook } from '../psa-client';
import type { AutotaskApi } from './autotask-api';
import * as map from './autotask-mappers';
import { checkId } from '../record-id';
import { atFilter } from './filters';
import { subscribedTicketFieldIds } from './webhook-fields';

/** Registering is idempotent per URL: an existing webhook for the same URL is reused, and only its missing parts are added. */
export async function registerTicketWebhook(api: AutotaskApi, input: TRegisterPsaWebhook): Promise<TPsaWebhook> {
  const findExisting = async () => {
    const rows = await api.query('TicketWebhooks', [atFilter.eq('webhookUrl', input.url)], (row) => parsePsaPayload(map.ZWebhookRow, row, 'webhook'));
    return rows[0]?.id ?? null;
  };
  const existingId = await findExisting();
  const body = {
    name: input.description.slice(0, 50),
    webhookUrl: input.url,
    deactivationUrl: input.deactivationUrl ?? input.url,
    secretKey: input.secretKey,
    isActive: true,
    isSubscribedToCreateEvents: true,
    isSubscribedToUpdateEvents: true,
    isSubscribedToDeleteEvents: true,
    sendThresholdExceededNotification: false,
  };
  const id = existingId ?? (await api.create('/TicketWebhooks', body, findExisting));
  await subscribeTicketWebhookFields(api, id);
  await excludeOwnChangesFromWebhook(api, id);
  return { id, url: input.url };
}

/**
 * Changes Switchboard makes through the API would otherwise come back as callouts and could loop once they are
 * ingested, so the API user's resource goes into the webhook's ExcludedResources (psa-apis.md §6.2). Adds it only once.
 */
async function excludeOwnChangesFromWebhook(api: AutotaskApi, webhookId: number): Promise<void> {
  const resourceId = await api.apiUserResourceId();
  const excludedPath = `/TicketWebhooks/${checkId(webhookId)}/ExcludedResources`;
  const findExcluded = async () =>
    (await api.get(excludedPath, (body) => parsePsaPayload(map.ZWebhookExcludedResourceList, body, 'webhook excluded resources').items)).find(
      (excluded) => excluded.resourceID === resourceId,
    )?.id ?? null;
  if ((await findExcluded()) !== null) return;
  await api.create(excludedPath, { webhookID: webhookId, resourceID: resourceId }, findExcluded);
}

/**
 * Autotask makes no create or update callout until the webhook has subscribed fields (psa-apis.md §6.2);
 * their ids are the values of the `fieldID` picklist of TicketWebhookFields. Adds only the missing ones.
 */
async function subscribeTicketWebhookFields(api: AutotaskApi, webhookId: number): Promise<void> {
  const wantedIds = subscribedTicketFieldIds((await api.fields('TicketWebhookFields')).picklist('fieldID'));
  if (wantedIds.length === 0) throw new PsaError('validation', 'Autotask offers none of the ticket fields Switchboard subscribes its webhook to.');
  const fieldsPath = `/TicketWebhooks/${checkId(webhookId)}/Fields`;
  const listFields = () => api.get(fieldsPath, (body) => parsePsaPayload(map.ZWebhookFieldList, body, 'webhook fields').items);
  const present = new Set((await listFields()).map((field) => field.fieldID));
  for (const fieldId of wantedIds.filter((id) => !present.has(id))) {
    const body = { webhookID: webhookId, fieldID: fieldId, isSubscribedField: true, isDisplayAlwaysField: false };
    await api.create(fieldsPath, body, async () => (await listFields()).find((field) => field.fieldID === fieldId)?.id ?? null);
  }
}

/** Deletes the webhook (its fields and excluded resources go with it); one already deleted (404) counts as removed. */
export async function unregisterTicketWebhook(api: AutotaskApi, webhookId: number): Promise<void> {
  try {
    await api.remove(`/TicketWebhooks/${checkId(webhookId)}`);
  } catch (error) {
    if (!(isPsaError(error) && error.kind === 'not_found')) throw error;
  }
}

export async function getRequestUsage(api: AutotaskApi): Promise<TPsaRequestUsage> {
  const threshold = await api.get('/ThresholdInformation', (body) => parsePsaPayload(map.ZThreshold, body, 'threshold information'));
  return { used: threshold.currentTimeframeRequestCount, limit: threshold.externalRequestThreshold, windowSeconds: threshold.requestThresholdTimeframe * 60 };
}
