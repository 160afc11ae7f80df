import { PsaError } from './errors';
import type { PsaClient, TPsaCapabilities, TPsaCapability, TPsaType } from './psa-client';

export const connectWiseCapabilities: Readonly<TPsaCapabilities> = Object.freeze({
  createBoards: true,
  createStatuses: true,
  createTypes: true,
  createSubtypes: true,
  communicationTypes: true,
  noteTypes: false,
  ticketTypes: false,
  impactSeverity: true,
  ticketTeams: true,
  ticketItems: true,
  reporterFields: true,
  timeEntries: true,
  ticketAttachments: true,
});

export const autotaskCapabilities: Readonly<TPsaCapabilities> = Object.freeze({
  createBoards: false,
  createStatuses: false,
  createTypes: false,
  createSubtypes: false,
  communicationTypes: false,
  noteTypes: true,
  ticketTypes: true,
  impactSeverity: false,
  ticketTeams: false,
  ticketItems: false,
  reporterFields: false,
  timeEntries: true,
  ticketAttachments: true,
});

const autotaskPicklistAdvice = 'create it in Autotask (Admin › Features & Settings) and map to it here.';

/** Why each capability is missing, in words an MSP admin can act on. */
const missingCapabilityReasons: Record<TPsaType, Partial<Record<TPsaCapability, string>>> = {
  connectwise: {
    noteTypes: 'ConnectWise has no note types; a note is a discussion, internal or resolution note.',
    ticketTypes: 'ConnectWise has no separate ticket-type list; use the board types.',
  },
  autotask: {
    createBoards: `Autotask does not allow creating queues through its API; ${autotaskPicklistAdvice}`,
    createStatuses: `Autotask does not allow creating ticket statuses through its API; ${autotaskPicklistAdvice}`,
    createTypes: `Autotask does not allow creating issue types through its API; ${autotaskPicklistAdvice}`,
    createSubtypes: `Autotask does not allow creating sub-issue types through its API; ${autotaskPicklistAdvice}`,
    communicationTypes: 'Autotask contacts have fixed e-mail and phone fields instead of communication types.',
    impactSeverity: 'Autotask tickets have no impact or severity; the priority carries the urgency.',
    ticketTeams: 'Autotask has no board teams; tickets are dispatched by queue.',
    ticketItems: 'Autotask tickets have no item below the sub-issue type.',
    reporterFields: 'Autotask tickets name their contact only; there is no free-text reporter.',
  },
};

/** The 'not_supported' error for a capability this PSA lacks, with the reason. */
export function notSupportedError(psaType: TPsaType, capability: TPsaCapability): PsaError {
  const reason = missingCapabilityReasons[psaType][capability] ?? `This PSA does not support ${capability} through its API.`;
  return new PsaError('not_supported', reason);
}

/** Throws PsaError 'not_supported' (with the reason) unless the client's PSA has this capability. */
export function requireCapability(client: Pick<PsaClient, 'psaType' | 'capabilities'>, capability: TPsaCapability): void {
  if (!client.capabilities[capability]) throw notSupportedError(client.psaType, capability);
}
