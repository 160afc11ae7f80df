import { createHash, createHmac, randomUUID } from 'node:crypto';
import { TICKET_FIELDS, presentAtTicket } from './autotask/entities';
import { CW_API_PREFIX } from './connectwise/common';
import { presentTicket } from './connectwise/presenters';
import { callbackSigningKey } from './connectwise/system-routes';
import type { TSimContext } from './context';
import type { TSimCallback, TSimTicket, TSimWebhook, TTicketChange } from './store';

// Outbound notifications on ticket changes: ConnectWise callbacks and Autotask TicketWebhooks (psa-apis.md §6).

export type TDeliver = (url: string, body: string, headers: Record<string, string>) => Promise<void>;

const DELIVERY_TIMEOUT_MS = 10_000;

export const deliverByFetch: TDeliver = async (url, body, headers) => {
  await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers }, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
};

const AUTOTASK_FIELD_OF: Partial<Record<keyof TSimTicket, string>> = {
  summary: 'title',
  description: 'description',
  companyId: 'companyID',
  contactId: 'contactID',
  boardId: 'queueID',
  statusId: 'status',
  priorityId: 'priority',
  typeId: 'issueType',
  subTypeId: 'subIssueType',
  ticketTypeValue: 'ticketType',
  ticketCategoryValue: 'ticketCategory',
  sourceId: 'source',
  ownerId: 'assignedResourceID',
  externalReference: 'externalID',
  resolution: 'resolution',
  dueAt: 'dueDateTime',
  closedAt: 'completedDate',
};

/** Webhook field ids are the 1-based positions of the fields in Tickets/entityInformation/fields. */
export function autotaskTicketFieldName(fieldId: number): string | undefined {
  return TICKET_FIELDS[fieldId - 1]?.name;
}

/** Autotask signs a JSON body whose strings escape & < > ' + ` and non-ASCII characters as \uXXXX; the simulator sends exactly that text. */
export function autotaskEscapedJson(payload: unknown): string {
  return JSON.stringify(payload).replace(/[&<>'+`\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function autotaskSignature(secretKey: string, body: string): string {
  return `sha1=${createHmac('sha1', secretKey).update(body, 'utf8').digest('base64')}`;
}

/** ConnectWise signs with HMAC-SHA256 keyed by SHA-256 of the signing key served at Metadata.key_url. */
export function connectWiseSignature(signingKey: string, body: string): string {
  const key = createHash('sha256').update(signingKey, 'utf8').digest();
  return createHmac('sha256', key).update(body, 'utf8').digest('base64');
}

function callbackApplies(callback: TSimCallback, change: TTicketChange): boolean {
  if (callback.isInactive || callback.type !== 'ticket') return false;
  if (change.isCallbackSkipped) return false;
  if (callback.isSelfSuppressed && change.via === 'connectwise') return false;
  switch (callback.level) {
    case 'owner':
      return true;
    case 'board':
      return callback.objectId === change.ticket.boardId;
    case 'status':
      return callback.objectId === change.ticket.statusId;
    case 'ticket':
      return callback.objectId === change.ticket.id;
    default:
      return false;
  }
}

function autotaskPayload(context: TSimContext, webhook: TSimWebhook, change: TTicketChange, sequenceNumber: number): Record<string, unknown> | null {
  const action = change.action === 'added' ? 'Create' : change.action === 'updated' ? 'Update' : 'Delete';
  // Changes attributed to an excluded resource make no callout, which is how an integration avoids hearing its own writes.
  if (change.actorResourceId !== null && webhook.excludedResources.some((excluded) => excluded.resourceId === change.actorResourceId)) return null;
  if ((action === 'Create' && !webhook.onCreate) || (action === 'Update' && !webhook.onUpdate) || (action === 'Delete' && !webhook.onDelete)) return null;
  const subscribed = new Set(webhook.fields.filter((field) => field.isSubscribedField).map((field) => autotaskTicketFieldName(field.fieldId)));
  const displayAlways = new Set(webhook.fields.filter((field) => field.isDisplayAlwaysField).map((field) => autotaskTicketFieldName(field.fieldId)));
  const item = presentAtTicket(context.store, change.ticket);
  const fields: Record<string, unknown> = {};
  if (action !== 'Delete') {
    // Autotask needs at least one subscribed field for create and update callouts (psa-apis.md §6.2).
    if (subscribed.size === 0) return null;
    const changed = change.changedFields.map((field) => AUTOTASK_FIELD_OF[field]).filter((name): name is string => name !== undefined);
    const triggering = action === 'Create' ? [...subscribed] : changed.filter((name) => subscribed.has(name));
    if (triggering.length === 0) return null;
    for (const name of [...triggering, ...displayAlways]) if (name !== undefined && name in item) fields[name] = item[name];
  }
  return { Action: action, Guid: webhook.webhookGuid, EntityType: 'Ticket', Id: change.ticket.id, Fields: fields, EventTime: new Date(context.now()).toISOString(), SequenceNumber: sequenceNumber, PersonID: change.actorResourceId };
}

/** Subscribes delivery to the store's ticket changes; returns the unsubscribe function. */
export function attachWebhookDelivery(context: TSimContext, baseUrl: () => string, deliver: TDeliver = deliverByFetch): () => void {
  let sequenceNumber = 0;
  const send = (url: string, body: string, headers: Record<string, string>): void => {
    context.stats.webhookDeliveries += 1;
    deliver(url, body, headers).catch(() => undefined);
  };
  return context.store.onTicketChange((change) => {
    for (const callback of context.store.callbacks.all()) {
      if (!callbackApplies(callback, change)) continue;
      const payload = {
        MessageId: randomUUID(),
        FromUrl: baseUrl(),
        CompanyId: context.credentials.connectWise.companyId,
        MemberId: 'simapi',
        Action: change.action,
        Type: 'ticket',
        ID: change.ticket.id,
        CallbackObjectRecId: callback.objectId,
        Entity: change.action === 'deleted' ? null : JSON.stringify(presentTicket(context.store, change.ticket)),
        Metadata: { key_url: `${baseUrl()}${CW_API_PREFIX}/system/callbackKeys/${callback.id}` },
      };
      const body = JSON.stringify(payload);
      send(callback.url, body, { 'x-content-signature': connectWiseSignature(callbackSigningKey(context), body) });
    }
    for (const webhook of context.store.webhooks.all()) {
      if (!webhook.isActive) continue;
      const payload = autotaskPayload(context, webhook, change, sequenceNumber + 1);
      if (!payload) continue;
      sequenceNumber += 1;
      const body = autotaskEscapedJson(payload);
      send(webhook.webhookUrl, body, { 'X-Hook-Signature': autotaskSignature(webhook.secretKey === '' ? context.webhookSecret : webhook.secretKey, body) });
    }
  });
}
