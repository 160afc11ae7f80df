import { connectWiseCapabilities } from '../capabilities';
import { streamTickets } from './connectwise-ticket-stream';
import type { TPsaClientOptions } from '../client-options';
import type {
  PsaClient,
  TAddPsaAttachment,
  TAddPsaNote,
  TAddPsaTimeEntry,
  TAssignPsaTicket,
  TClosePsaTicket,
  TCreatePsaBoard,
  TCreatePsaContact,
  TCreatePsaStatus,
  TCreatePsaSubtype,
  TCreatePsaTeam,
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
  TUpdatePsaSubtype,
  TUpdatePsaTicket,
  TUpdatePsaType,
} from '../psa-client';
import { ConnectWiseApi, type TConnectWiseConfig, type TPatchOperation } from './connectwise-api';
import { eq } from './conditions';
import * as map from './connectwise-mappers';
import { checkId } from '../record-id';
import * as attachments from './connectwise-attachments';
import * as contacts from './connectwise-contacts';
import * as reference from './connectwise-reference-data';
import * as tickets from './connectwise-tickets';
import * as timeEntries from './connectwise-time-entries';
import * as webhooks from './connectwise-webhooks';

export type { TConnectWiseConfig } from './connectwise-api';

/** PsaClient over the ConnectWise Manage REST API (v3.0); the work is in the connectwise-*.ts files beside this one. */
export class ConnectWiseClient implements PsaClient {
  readonly psaType = 'connectwise' as const;
  readonly capabilities = connectWiseCapabilities;
  private readonly api: ConnectWiseApi;

  constructor(config: TConnectWiseConfig, options: TPsaClientOptions) {
    this.api = new ConnectWiseApi(config, options);
  }

  requestCount(): number {
    return this.api.transport.requestCount();
  }

  listBoards(): Promise<TPsaBoard[]> {
    return reference.listBoards(this.api);
  }

  listTypes(boardId: number | null): Promise<TPsaTicketType[]> {
    return reference.listTypes(this.api, boardId);
  }

  listSubtypes(boardId: number | null): Promise<TPsaSubtype[]> {
    return reference.listSubtypes(this.api, boardId);
  }

  listItems(boardId: number | null): Promise<TPsaItem[]> {
    return reference.listItems(this.api, boardId);
  }

  listTypeAssociations(boardId: number | null): Promise<TPsaTypeAssociation[]> {
    return reference.listTypeAssociations(this.api, boardId);
  }

  listStatuses(boardId: number | null): Promise<TPsaStatus[]> {
    return reference.listStatuses(this.api, boardId);
  }

  listPriorities(): Promise<TPsaPriority[]> {
    return reference.listPriorities(this.api);
  }

  listSources(): Promise<TPsaNamed[]> {
    return reference.listSources(this.api);
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

  listCommunicationTypes(): Promise<TPsaCommunicationType[]> {
    return reference.listCommunicationTypes(this.api);
  }

  listDepartments(): Promise<TPsaNamed[]> {
    return reference.listDepartments(this.api);
  }

  listLocations(): Promise<TPsaNamed[]> {
    return reference.listLocations(this.api);
  }

  /** ConnectWise notes are discussion, internal or resolution notes, with no type list (capabilities.noteTypes is false). */
  listNoteTypes(): Promise<TPsaNamed[]> {
    return Promise.resolve([]);
  }

  /** ConnectWise has only the board types (capabilities.ticketTypes is false). */
  listTicketTypes(): Promise<TPsaNamed[]> {
    return Promise.resolve([]);
  }

  createBoard(input: TCreatePsaBoard): Promise<TPsaBoard> {
    return reference.createBoard(this.api, input);
  }

  createStatus(boardId: number, input: TCreatePsaStatus): Promise<TPsaStatus> {
    return reference.createStatus(this.api, boardId, input);
  }

  createType(boardId: number, input: { name: string }): Promise<TPsaTicketType> {
    return reference.createType(this.api, boardId, input);
  }

  createSubtype(boardId: number, input: TCreatePsaSubtype): Promise<TPsaSubtype> {
    return reference.createSubtype(this.api, boardId, input);
  }

  updateType(boardId: number, typeId: number, input: TUpdatePsaType): Promise<TPsaTicketType> {
    return reference.updateType(this.api, boardId, typeId, input);
  }

  updateSubtype(boardId: number, subtypeId: number, input: TUpdatePsaSubtype): Promise<TPsaSubtype> {
    return reference.updateSubtype(this.api, boardId, subtypeId, input);
  }

  createTeam(boardId: number, input: TCreatePsaTeam): Promise<TPsaTeam> {
    const path = `/service/boards/${checkId(boardId)}/teams`;
    const toTeam = (row: unknown) => map.toTeam(row, boardId);
    // A retried create finds the team of that name instead of making a second one.
    const findExisting = async () => (await this.api.list(path, toTeam, { conditions: eq('name', input.name) }))[0] ?? null;
    return this.api.create(path, { name: input.name, members: input.memberIds }, toTeam, findExisting);
  }

  updateTeam(boardId: number, teamId: number, input: Partial<TCreatePsaTeam>): Promise<TPsaTeam> {
    const path = `/service/boards/${checkId(boardId)}/teams/${checkId(teamId)}`;
    const toTeam = (row: unknown) => map.toTeam(row, boardId);
    const operations: TPatchOperation[] = [];
    if (input.name !== undefined) operations.push({ op: 'replace', path: 'name', value: input.name });
    if (input.memberIds !== undefined) operations.push({ op: 'replace', path: 'members', value: input.memberIds });
    if (operations.length === 0) return this.api.get(path, toTeam);
    return this.api.patch(path, operations, toTeam);
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

  getRequestUsage(): Promise<null> {
    return Promise.resolve(null);
  }
}
