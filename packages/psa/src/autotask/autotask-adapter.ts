import { autotaskCapabilities, notSupportedError } from '../capabilities';
import { PsaError } from '../errors';
import { streamTickets } from './autotask-ticket-stream';
import type { TPsaClientOptions } from '../client-options';
import type {
  PsaClient,
  TAddPsaAttachment,
  TAddPsaNote,
  TAddPsaTimeEntry,
  TAssignPsaTicket,
  TClosePsaTicket,
  TCreatePsaContact,
  TCreatePsaTicket,
  TListContactsFilter,
  TStreamFrom,
  TPsaAttachment,
  TPsaBoard,
  TPsaCommunicationType,
  TPsaCompany,
  TPsaContact,
  TPsaContactWithCompany,
  TPsaItem,
  TPsaMember,
  TPsaMemberWithPhone,
  TPsaNamed,
  TPsaNote,
  TPsaPriority,
  TPsaRequestUsage,
  TPsaStatus,
  TPsaSubtype,
  TPsaTeam,
  TPsaTicket,
  TPsaTicketStatus,
  TPsaTicketRecord,
  TStreamOptions,
  TStreamTicketsFilter,
  TPsaTicketType,
  TPsaTimeEntry,
  TPsaTypeAssociation,
  TPsaWebhook,
  TRegisterPsaWebhook,
  TUnassignPsaTicket,
  TUpdatePsaTicket,
} from '../psa-client';
import { AutotaskApi, type TAutotaskConfig } from './autotask-api';
import * as attachments from './autotask-attachments';
import * as contacts from './autotask-contacts';
import * as reference from './autotask-reference-data';
import * as tickets from './autotask-tickets';
import * as timeEntries from './autotask-time-entries';
import * as webhooks from './autotask-webhooks';

export type { TAutotaskConfig } from './autotask-api';

/** PsaClient over the Autotask PSA REST API (V1.0); the work is in the autotask-*.ts files beside this one. */
export class AutotaskClient implements PsaClient {
  readonly psaType = 'autotask' as const;
  readonly capabilities = autotaskCapabilities;
  private readonly api: AutotaskApi;

  constructor(config: TAutotaskConfig, options: TPsaClientOptions) {
    this.api = new AutotaskApi(config, options);
  }

  requestCount(): number {
    return this.api.transport.requestCount();
  }

  listBoards(): Promise<TPsaBoard[]> {
    return reference.listBoards(this.api);
  }

  listTypes(): Promise<TPsaTicketType[]> {
    return reference.listTypes(this.api);
  }

  listSubtypes(): Promise<TPsaSubtype[]> {
    return reference.listSubtypes(this.api);
  }

  /** Autotask tickets have no third "item" level below the sub-issue type. */
  listItems(): Promise<TPsaItem[]> {
    return Promise.resolve([]);
  }

  listTypeAssociations(): Promise<TPsaTypeAssociation[]> {
    return reference.listTypeAssociations(this.api);
  }

  listStatuses(): Promise<TPsaStatus[]> {
    return reference.listStatuses(this.api);
  }

  listPriorities(): Promise<TPsaPriority[]> {
    return reference.listPriorities(this.api);
  }

  listSources(): Promise<TPsaNamed[]> {
    return reference.listSources(this.api);
  }

  listTicketTypes(): Promise<TPsaNamed[]> {
    return reference.listTicketTypes(this.api);
  }

  listMembers(): Promise<TPsaMember[]> {
    return reference.listMembers(this.api);
  }

  findMembersByEmail(email: string): Promise<TPsaMemberWithPhone[]> {
    return reference.findMembersByEmail(this.api, email);
  }

  findContactsByEmail(email: string): Promise<TPsaContactWithCompany[]> {
    return contacts.findContactsByEmail(this.api, email);
  }

  listCompanyTypes(): Promise<TPsaNamed[]> {
    return reference.listCompanyTypes(this.api);
  }

  /** Autotask contacts have fixed e-mail and phone fields (capabilities.communicationTypes is false). */
  listCommunicationTypes(): Promise<TPsaCommunicationType[]> {
    return Promise.resolve([]);
  }

  listDepartments(): Promise<TPsaNamed[]> {
    return reference.listDepartments(this.api);
  }

  listLocations(): Promise<TPsaNamed[]> {
    return reference.listLocations(this.api);
  }

  listNoteTypes(): Promise<TPsaNamed[]> {
    return reference.listNoteTypes(this.api);
  }

  // Queues, statuses, issue types and sub-issue types are picklists Autotask's API cannot add to (decision 17).
  createBoard(): Promise<TPsaBoard> {
    return Promise.reject(notSupportedError(this.psaType, 'createBoards'));
  }

  createStatus(): Promise<TPsaStatus> {
    return Promise.reject(notSupportedError(this.psaType, 'createStatuses'));
  }

  createType(): Promise<TPsaTicketType> {
    return Promise.reject(notSupportedError(this.psaType, 'createTypes'));
  }

  createSubtype(): Promise<TPsaSubtype> {
    return Promise.reject(notSupportedError(this.psaType, 'createSubtypes'));
  }

  updateType(): Promise<TPsaTicketType> {
    return Promise.reject(notSupportedError(this.psaType, 'createTypes'));
  }

  // A sub-issue type is a picklist value with one fixed parent issue type: it cannot be put under another one.
  updateSubtype(): Promise<TPsaSubtype> {
    return Promise.reject(notSupportedError(this.psaType, 'createSubtypes'));
  }

  streamCompanies(from?: TStreamFrom): AsyncGenerator<TPsaCompany> {
    return contacts.streamCompanies(this.api, from);
  }

  countCompanies(): Promise<number> {
    return contacts.countCompanies(this.api);
  }

  countContacts(filter?: TListContactsFilter): Promise<number> {
    return contacts.countContacts(this.api, filter);
  }

  streamContacts(filter?: TListContactsFilter, from?: TStreamFrom): AsyncGenerator<TPsaContact> {
    return contacts.streamContacts(this.api, filter, from);
  }

  // Autotask has no board (queue) teams of ConnectWise's kind: Switchboard keeps Autotask teams locally.
  createTeam(): Promise<TPsaTeam> {
    return Promise.reject(new PsaError('not_supported', 'Autotask has no board teams through its API; Switchboard keeps Autotask teams locally.'));
  }

  updateTeam(): Promise<TPsaTeam> {
    return Promise.reject(new PsaError('not_supported', 'Autotask has no board teams through its API; Switchboard keeps Autotask teams locally.'));
  }

  createContact(input: TCreatePsaContact): Promise<TPsaContact> {
    return contacts.createContact(this.api, input);
  }

  streamTickets(filter: TStreamTicketsFilter, options?: TStreamOptions): AsyncGenerator<TPsaTicketRecord> {
    return streamTickets(this.api, filter, options);
  }

  createTicket(input: TCreatePsaTicket): Promise<TPsaTicket> {
    return tickets.createTicket(this.api, input);
  }

  getTicket(ticketId: number): Promise<TPsaTicket> {
    return tickets.getTicket(this.api, ticketId);
  }

  updateTicket(ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket> {
    return tickets.updateTicket(this.api, ticketId, input);
  }

  closeTicket(ticketId: number, input?: TClosePsaTicket): Promise<TPsaTicket> {
    return tickets.closeTicket(this.api, ticketId, input);
  }

  getTicketStatus(ticketId: number): Promise<TPsaTicketStatus> {
    return tickets.getTicketStatus(this.api, ticketId);
  }

  addNote(ticketId: number, input: TAddPsaNote): Promise<TPsaNote> {
    return tickets.addNote(this.api, ticketId, input);
  }

  listNotes(ticketId: number): Promise<TPsaNote[]> {
    return tickets.listNotes(this.api, ticketId);
  }

  assignTicket(ticketId: number, input: TAssignPsaTicket): Promise<TPsaTicket> {
    return tickets.assignTicket(this.api, ticketId, input);
  }

  unassignTicket(ticketId: number, input?: TUnassignPsaTicket): Promise<TPsaTicket> {
    return tickets.unassignTicket(this.api, ticketId, input);
  }

  addTimeEntry(input: TAddPsaTimeEntry): Promise<TPsaTimeEntry> {
    return timeEntries.addTimeEntry(this.api, input);
  }

  listTimeEntries(ticketId: number): Promise<TPsaTimeEntry[]> {
    return timeEntries.listTimeEntries(this.api, ticketId);
  }

  addAttachment(ticketId: number, input: TAddPsaAttachment): Promise<TPsaAttachment> {
    return attachments.addAttachment(this.api, ticketId, input);
  }

  listAttachments(ticketId: number): Promise<TPsaAttachment[]> {
    return attachments.listAttachments(this.api, ticketId);
  }

  registerTicketWebhook(input: TRegisterPsaWebhook): Promise<TPsaWebhook> {
    return webhooks.registerTicketWebhook(this.api, input);
  }

  unregisterTicketWebhook(webhookId: number): Promise<void> {
    return webhooks.unregisterTicketWebhook(this.api, webhookId);
  }

  getRequestUsage(): Promise<TPsaRequestUsage> {
    return webhooks.getRequestUsage(this.api);
  }
}
