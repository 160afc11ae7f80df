import type { TPsaClientOptions } from '../client-options';
import { defaultTimeoutMs } from '../client-options';
import { PsaError } from '../errors';
import { connectWiseBudgetLimits, RequestBudget } from '../http/budget';
import { systemClock } from '../http/clock';
import { parsePsaPayload } from '../http/parse';
import { HttpTransport } from '../http/request';
import { defaultRetryPolicy } from '../http/retry';
import type {
  PsaClient,
  TAddPsaNote,
  TClosePsaTicket,
  TCreatePsaBoard,
  TCreatePsaContact,
  TCreatePsaStatus,
  TCreatePsaSubtype,
  TCreatePsaTeam,
  TCreatePsaTicket,
  TListContactsFilter,
  TPsaBoard,
  TPsaCompany,
  TPsaContact,
  TPsaContactWithCompany,
  TPsaMemberWithPhone,
  TPsaNote,
  TPsaStatus,
  TPsaTeam,
  TPsaTicket,
  TPsaTicketStatus,
  TPsaTypeAssociation,
  TRegisterPsaWebhook,
  TUpdatePsaTicket,
} from '../psa-client';
import { Condition, eq } from './conditions';
import {
  connectWiseApiVersion,
  connectWiseAuthHeaders,
  discoverConnectWiseApiBase,
  listConnectWiseRows,
  mapConnectWiseError,
  streamConnectWiseRows,
} from './connectwise-http';
import * as map from './connectwise-mappers';

export interface TConnectWiseConfig {
  psaType: 'connectwise';
  /** The site the admin signs in to, e.g. https://na.myconnectwise.net; the codebase is discovered from it. */
  siteUrl: string;
  companyId: string;
  publicKey: string;
  privateKey: string;
  /** The integration's clientId from developer.connectwise.com, required on every call. */
  clientId: string;
  apiVersion?: string;
}

type TPatchOperation = { op: 'replace'; path: string; value: unknown };

const reference = (id: number | null | undefined): { id: number } | undefined => (id === null || id === undefined ? undefined : { id });

/** PsaClient over the ConnectWise Manage REST API (v3.0). */
export class ConnectWiseClient implements PsaClient {
  readonly psaType = 'connectwise' as const;
  private readonly transport: HttpTransport;
  private apiBasePromise: Promise<string> | null = null;
  private readonly assertUrlAllowed: (url: string) => Promise<void>;

  constructor(
    private readonly config: TConnectWiseConfig,
    options: TPsaClientOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.assertUrlAllowed = options.assertUrlAllowed ?? (() => Promise.resolve());
    const headers = connectWiseAuthHeaders(config.companyId, config.publicKey, config.privateKey, config.clientId, config.apiVersion ?? connectWiseApiVersion);
    this.transport = new HttpTransport({
      fetch: options.fetch ?? globalThis.fetch,
      clock,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      retry: { ...defaultRetryPolicy, ...options.retry },
      budget: options.budget ?? new RequestBudget(connectWiseBudgetLimits, clock),
      tenantKey: options.tenantKey,
      secrets: [config.privateKey, config.publicKey, headers.Authorization ?? ''],
      authHeaders: () => headers,
      mapError: mapConnectWiseError,
      random: options.random,
    });
  }

  requestCount(): number {
    return this.transport.requestCount();
  }

  private apiBase(): Promise<string> {
    this.apiBasePromise ??= discoverConnectWiseApiBase(this.transport, this.config.siteUrl, this.config.companyId, this.assertUrlAllowed).catch((error: unknown) => {
      this.apiBasePromise = null;
      throw error;
    });
    return this.apiBasePromise;
  }

  private async list<T>(path: string, mapRow: (row: unknown) => T, query: Parameters<typeof listConnectWiseRows>[3] = {}): Promise<T[]> {
    const rows = await listConnectWiseRows(this.transport, await this.apiBase(), path, query);
    return rows.map(mapRow);
  }

  private async get<T>(path: string, mapRow: (row: unknown) => T): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.send({ method: 'GET', url, endpointKey: path.replace(/\/\d+/g, '/{id}') }, (response) => mapRow(response.body));
  }

  private async post<T>(path: string, body: unknown, mapRow: (row: unknown) => T, findExisting?: () => Promise<T | null>): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.send({ method: 'POST', url, body, endpointKey: path.replace(/\/\d+/g, '/{id}') }, (response) => mapRow(response.body), {
      findExisting,
    });
  }

  private async patch<T>(path: string, operations: TPatchOperation[], mapRow: (row: unknown) => T): Promise<T> {
    const url = `${await this.apiBase()}${path}`;
    return this.transport.send({ method: 'PATCH', url, body: operations, endpointKey: path.replace(/\/\d+/g, '/{id}') }, (response) =>
      mapRow(response.body),
    );
  }

  listBoards(): Promise<TPsaBoard[]> {
    return this.list('/service/boards', map.toBoard, { conditions: eq('inactiveFlag', false) });
  }

  async listTypes(boardId: number | null) {
    const board = requireBoard(boardId);
    return this.list(`/service/boards/${board}/types`, (row) => map.toType(row, board));
  }

  async listSubtypes(boardId: number | null) {
    const board = requireBoard(boardId);
    return this.list(`/service/boards/${board}/subtypes`, (row) => map.toSubtype(row, board));
  }

  async listItems(boardId: number | null) {
    const board = requireBoard(boardId);
    return this.list(`/service/boards/${board}/items`, (row) => map.toItem(row, board));
  }

  async listTypeAssociations(boardId: number | null): Promise<TPsaTypeAssociation[]> {
    const board = requireBoard(boardId);
    const associations = await this.list(`/service/boards/${board}/typeSubTypeItemAssociations`, map.toAssociation);
    return associations.filter((association): association is TPsaTypeAssociation => association !== null);
  }

  async listStatuses(boardId: number | null): Promise<TPsaStatus[]> {
    const board = requireBoard(boardId);
    return this.list(`/service/boards/${board}/statuses`, (row) => map.toStatus(row, board), { orderBy: 'sortOrder asc' });
  }

  listPriorities() {
    return this.list('/service/priorities', map.toPriority, { orderBy: 'sortOrder asc' });
  }

  listSources() {
    return this.list('/service/sources', map.toNamed);
  }

  listMembers() {
    return this.list('/system/members', map.toMember, { conditions: eq('inactiveFlag', false) });
  }

  async findMembersByEmail(email: string): Promise<TPsaMemberWithPhone[]> {
    const address = email.trim();
    if (address === '') return [];
    // The mapper reads primaryEmail and falls back to officeEmail, so a member is found by either.
    return this.list('/system/members', map.toMemberWithPhone, { conditions: Condition.or(eq('primaryEmail', address), eq('officeEmail', address)) });
  }

  async findContactsByEmail(email: string): Promise<TPsaContactWithCompany[]> {
    const address = email.trim();
    if (address === '') return [];
    // E-mail addresses are communication items, which only childConditions can filter on (psa-apis.md §1.3).
    const childConditions = Condition.and(eq('communicationItems/value', address), eq('communicationItems/communicationType', 'Email'));
    return this.list('/company/contacts', map.toContactWithCompany, { childConditions });
  }

  listCompanyTypes() {
    return this.list('/company/companies/types', map.toNamed);
  }

  listCommunicationTypes() {
    return this.list('/company/communicationTypes', map.toCommunicationType);
  }

  listDepartments() {
    return this.list('/system/departments', map.toNamed);
  }

  listLocations() {
    return this.list('/system/locations', map.toNamed);
  }

  listNoteTypes(): Promise<never> {
    return Promise.reject(
      new PsaError('not_supported', 'ConnectWise has no note types; a note is a discussion, internal or resolution note.'),
    );
  }

  listTicketTypes(): Promise<never> {
    return Promise.reject(new PsaError('not_supported', 'ConnectWise has no separate ticket-type list; use the board types.'));
  }

  createBoard(input: TCreatePsaBoard): Promise<TPsaBoard> {
    return this.post('/service/boards', { name: input.name, location: { id: input.locationId }, department: { id: input.departmentId } }, map.toBoard);
  }

  createStatus(boardId: number, input: TCreatePsaStatus) {
    const body = { name: input.name, closedStatus: input.isClosed, sortOrder: input.sortOrder, inactive: false, displayOnBoard: true };
    return this.post(`/service/boards/${boardId}/statuses`, body, (row) => map.toStatus(row, boardId));
  }

  createType(boardId: number, input: { name: string }) {
    return this.post(`/service/boards/${boardId}/types`, { name: input.name, inactiveFlag: false }, (row) => map.toType(row, boardId));
  }

  createSubtype(boardId: number, input: TCreatePsaSubtype) {
    return this.post(`/service/boards/${boardId}/subtypes`, { name: input.name, typeAssociationIds: input.typeIds, inactiveFlag: false }, (row) =>
      map.toSubtype(row, boardId),
    );
  }

  createTeam(boardId: number, input: TCreatePsaTeam): Promise<TPsaTeam> {
    return this.post(`/service/boards/${checkId(boardId)}/teams`, { name: input.name, members: input.memberIds }, (row) => map.toTeam(row, boardId));
  }

  updateTeam(boardId: number, teamId: number, input: Partial<TCreatePsaTeam>): Promise<TPsaTeam> {
    const operations: TPatchOperation[] = [];
    if (input.name !== undefined) operations.push({ op: 'replace', path: 'name', value: input.name });
    if (input.memberIds !== undefined) operations.push({ op: 'replace', path: 'members', value: input.memberIds });
    if (operations.length === 0) return this.get(`/service/boards/${checkId(boardId)}/teams/${checkId(teamId)}`, (row) => map.toTeam(row, boardId));
    return this.patch(`/service/boards/${checkId(boardId)}/teams/${checkId(teamId)}`, operations, (row) => map.toTeam(row, boardId));
  }

  async *streamCompanies(): AsyncGenerator<TPsaCompany> {
    const apiBase = await this.apiBase();
    for await (const row of streamConnectWiseRows(this.transport, apiBase, '/company/companies', { conditions: eq('deletedFlag', false) })) {
      yield map.toCompany(row);
    }
  }

  async *streamContacts(filter: TListContactsFilter = {}): AsyncGenerator<TPsaContact> {
    const apiBase = await this.apiBase();
    const conditions = filter.companyId === undefined ? undefined : eq('company/id', filter.companyId);
    for await (const row of streamConnectWiseRows(this.transport, apiBase, '/company/contacts', { conditions })) {
      yield map.toContact(row);
    }
  }

  async createContact(input: TCreatePsaContact): Promise<TPsaContact> {
    const communicationItems = [];
    if (input.email || input.phone) {
      const types = await this.listCommunicationTypes();
      const emailTypeId = input.emailTypeId ?? types.find((type) => type.isEmail)?.id;
      const phoneTypeId = input.phoneTypeId ?? types.find((type) => type.isPhone)?.id;
      if (input.email && emailTypeId !== undefined) communicationItems.push({ type: { id: emailTypeId }, communicationType: 'Email', value: input.email, defaultFlag: true });
      if (input.phone && phoneTypeId !== undefined) communicationItems.push({ type: { id: phoneTypeId }, communicationType: 'Phone', value: input.phone, defaultFlag: true });
    }
    const body = { firstName: input.firstName, lastName: input.lastName, company: { id: input.companyId }, communicationItems };
    // ConnectWise contacts have no external reference, so an unknown outcome is resolved by name and email in the company.
    return this.post('/company/contacts', body, map.toContact, async () => {
      const conditions = Condition.and(eq('company/id', input.companyId), eq('firstName', input.firstName), eq('lastName', input.lastName));
      const childConditions = input.email ? eq('communicationItems/value', input.email) : undefined;
      const matches = await this.list('/company/contacts', map.toContact, { conditions, childConditions, orderBy: 'id desc' });
      return matches[0] ?? null;
    });
  }

  createTicket(input: TCreatePsaTicket): Promise<TPsaTicket> {
    const body = {
      summary: input.summary,
      initialDescription: input.description,
      board: { id: input.boardId },
      company: { id: input.companyId },
      contact: reference(input.contactId),
      type: reference(input.typeId),
      subType: reference(input.subtypeId),
      item: reference(input.itemId),
      priority: reference(input.priorityId),
      status: reference(input.statusId),
      source: reference(input.sourceId),
      owner: reference(input.ownerId),
      externalXRef: input.idempotencyKey,
    };
    return this.post('/service/tickets', body, map.toTicket, () => this.findTicketByExternalReference(input.idempotencyKey));
  }

  private async findTicketByExternalReference(externalReference: string): Promise<TPsaTicket | null> {
    const tickets = await this.list('/service/tickets', map.toTicket, { conditions: eq('externalXRef', externalReference) });
    return tickets[0] ?? null;
  }

  async getTicket(ticketId: number): Promise<TPsaTicket> {
    return this.get(`/service/tickets/${checkId(ticketId)}`, map.toTicket);
  }

  async updateTicket(ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket> {
    const operations: TPatchOperation[] = [];
    const replace = (path: string, value: unknown): void => {
      if (value !== undefined) operations.push({ op: 'replace', path, value });
    };
    replace('summary', input.summary);
    replace('board', reference(input.boardId));
    replace('status', reference(input.statusId));
    replace('priority', reference(input.priorityId));
    replace('type', input.typeId === null ? null : reference(input.typeId));
    replace('subType', input.subtypeId === null ? null : reference(input.subtypeId));
    replace('item', input.itemId === null ? null : reference(input.itemId));
    replace('owner', input.ownerId === null ? null : reference(input.ownerId));
    if (operations.length === 0) return this.getTicket(ticketId);
    return this.patch(`/service/tickets/${checkId(ticketId)}`, operations, map.toTicket);
  }

  async closeTicket(ticketId: number, input: TClosePsaTicket = {}): Promise<TPsaTicket> {
    const ticket = await this.getTicket(ticketId);
    let statusId = input.statusId;
    if (statusId === undefined) {
      const statuses = await this.listStatuses(ticket.boardId);
      const closing = statuses.filter((status) => status.isClosed && status.isActive).sort((a, b) => a.sortOrder - b.sortOrder)[0];
      if (!closing) throw new PsaError('validation', 'The ticket\'s board has no closed status to close it with.', { fieldMessages: [{ field: 'status', message: 'No closed status on this board.' }] });
      statusId = closing.id;
    }
    if (input.resolution) await this.addNote(ticketId, { text: input.resolution, kind: 'resolution' });
    return this.updateTicket(ticketId, { statusId });
  }

  async getTicketStatus(ticketId: number): Promise<TPsaTicketStatus> {
    const ticket = await this.getTicket(ticketId);
    return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
  }

  async addNote(ticketId: number, input: TAddPsaNote): Promise<TPsaNote> {
    const id = checkId(ticketId);
    const body = {
      text: input.text,
      detailDescriptionFlag: input.kind === 'description',
      internalAnalysisFlag: input.kind === 'internal',
      resolutionFlag: input.kind === 'resolution',
      // Notes written by the product should not e-mail the contact unless the MSP's workflow does so itself.
      processNotifications: false,
    };
    // Notes carry no external reference: an unknown outcome is resolved by finding the same text and kind.
    return this.post(`/service/tickets/${id}/notes`, body, (row) => map.toNote(row, id), async () => {
      const notes = await this.listNotes(id);
      return notes.reverse().find((note) => note.text === input.text && note.kind === input.kind) ?? null;
    });
  }

  async listNotes(ticketId: number): Promise<TPsaNote[]> {
    const id = checkId(ticketId);
    return this.list(`/service/tickets/${id}/notes`, (row) => map.toNote(row, id));
  }

  async registerTicketWebhook(input: TRegisterPsaWebhook) {
    const findExisting = async () => {
      const rows = await listConnectWiseRows(this.transport, await this.apiBase(), '/system/callbacks', { conditions: eq('url', input.url) });
      const existing = rows[0];
      return existing === undefined ? null : parsePsaPayload(map.ZCallback, existing, 'callback');
    };
    // Registering is idempotent per URL: an existing callback for the same URL is reused.
    const existing = await findExisting();
    if (existing) return existing;
    const body = { url: input.url, description: input.description, type: 'ticket', level: 'owner', objectId: 1, inactiveFlag: false, isSelfSuppressedFlag: true };
    return this.post('/system/callbacks', body, (row) => parsePsaPayload(map.ZCallback, row, 'callback'), findExisting);
  }

  getRequestUsage(): Promise<null> {
    return Promise.resolve(null);
  }
}

function requireBoard(boardId: number | null): number {
  if (boardId === null) {
    throw new PsaError('validation', 'ConnectWise keeps this list per board; choose a board first.', { fieldMessages: [{ field: 'boardId', message: 'Required.' }] });
  }
  return checkId(boardId);
}

function checkId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new PsaError('validation', 'Not a valid record id.', { fieldMessages: [{ field: 'id', message: 'Must be a positive integer.' }] });
  return id;
}

