import { isPsaError } from '../errors';
import { checkId } from '../record-id';
import { parsePsaPayload } from '../http/parse';
import type { TPsaWebhook, TRegisterPsaWebhook } from '../psa-client';
import { eq } from './conditions';
import type { ConnectWiseApi } from './connectwise-api';
import * as map from './connectwise-mappers';

const toCallback = (row: unknown): TPsaWebhook => parsePsaPayload(map.ZCallback, row, 'callback');

/** Registering is idempotent per URL: an existing callback for the same URL is reused. */
export async function registerTicketWebhook(api: ConnectWiseApi, input: TRegisterPsaWebhook): Promise<TPsaWebhook> {
  const findExisting = async () => (await api.list('/system/callbacks', toCallback, { conditions: eq('url', input.url) }))[0] ?? null;
  const existing = await findExisting();
  if (existing) return existing;
  const body = { url: input.url, description: input.description, type: 'ticket', level: 'owner', objectId: 1, inactiveFlag: false, isSelfSuppressedFlag: true };
  return api.create('/system/callbacks', body, toCallback, findExisting);
}

/** Deletes the callback; one already deleted (404) counts as removed. */
export async function unregisterTicketWebhook(api: ConnectWiseApi, callbackId: number): Promise<void> {
  try {
    await api.remove(`/system/callbacks/${checkId(callbackId)}`);
  } catch (error) {
    if (!(isPsaError(error) && error.kind === 'not_found')) throw error;
  }
}
