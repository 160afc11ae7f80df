import { z } from 'zod';
import { PsaError } from '../errors';
import { appendQuery, parsePsaPayload } from '../http/parse';
import type { HttpTransport } from '../http/request';

export const defaultZoneDiscoveryUrl = 'https://webservices.autotask.net/atservicesrest/v1.0/zoneInformation';

const ZZoneInformation = z.object({ url: z.string().url(), zoneName: z.string().nullish() });

/** Finds the zone serving this API user (`zoneInformation?user=`) and returns its REST base, e.g. `…/ATServicesRest/V1.0`. */
export async function discoverAutotaskApiBase(
  transport: HttpTransport,
  zoneDiscoveryUrl: string,
  username: string,
  assertUrlAllowed: (url: string) => Promise<void>,
): Promise<string> {
  await assertUrlAllowed(zoneDiscoveryUrl);
  let apiBase: string;
  try {
    const zone = await transport.send(
      { method: 'GET', url: appendQuery(zoneDiscoveryUrl, { user: username }), endpointKey: 'zoneInformation' },
      (response) => parsePsaPayload(ZZoneInformation, response.body, 'zone information'),
    );
    apiBase = `${zone.url.replace(/\/+$/, '')}/V1.0`;
  } catch (error) {
    // Autotask answers an unknown or blank user with an error (often a 500), which means the username is wrong.
    if (error instanceof PsaError && (error.kind === 'validation' || error.kind === 'not_found' || (error.kind === 'unavailable' && error.status === 500))) {
      throw new PsaError('bad_keys', 'Autotask could not find a zone for this API username.', { status: error.status });
    }
    throw error;
  }
  // The zone answer names the host the secret goes to next, so it is checked like any user-supplied URL.
  await assertUrlAllowed(apiBase);
  return apiBase;
}
