import type { TPsaClientOptions } from '../client-options';
import { defaultTimeoutMs } from '../client-options';
import { PsaError } from '../errors';
import { autotaskBudgetLimits, RequestBudget } from '../http/budget';
import { systemClock, type TPsaClock } from '../http/clock';
import { parsePsaPayload } from '../http/parse';
import { HttpTransport } from '../http/request';
import { defaultRetryPolicy } from '../http/retry';
import type {
  PsaClient,
  TAddPsaNote,
  TClosePsaTicket,
  TCreatePsaContact,
  TCreatePsaTicket,
  TListContactsFilter,
  TPsaBoard,
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
  TPsaTicketType,
  TPsaTypeAssociation,
  TRegisterPsaWebhook,
  TUpdatePsaTicket,
} from '../psa-client';
import { autotaskAuthHeaders, listAutotaskRows, mapAutotaskError, streamAutotaskRows } from './autotask-http';
import * as map from './autotask-mappers';
import { checkId, firstLine, itemIdOf, itemOf, noteSettingsFrom, toNote } from './autotask-records';
import { atFilter, type TAutotaskFilter } from './filters';
import { defaultOf, isClosedStatus, parseEntityFields, type TEntityFields } from './picklists';
import { subscribedTicketFieldIds } from './webhook-fields';
import { defaultZoneDiscoveryUrl, discoverAutotaskApiBase } from './zone';

export interface TAutotaskConfig {
  psaType: 'autotask';
  username: string;
  secret: string;
  /** The API tracking identifier (ApiIntegrationCode header). */
  integrationCode: string;
  zoneDiscoveryUrl?: string;
  impersonationResourceId?: number;
}

const picklistTtlMs = 5 * 60_000;

const notSupported = (what: string): PsaError =>
  new PsaError('not_supported', `Autotask does not allow ${what} through its API; create it in Autotask (Admin › Features & Settings) and map to it here.`);

/** PsaClient over the Autotask PSA REST API (V1.0). */
export class AutotaskClient implements PsaClient {
  readonly psaType = 'autotask' as const;
  private readonly transport: HttpTransport;
  private readonly clock: TPsaClock;
  private apiBasePromise: Promise<string> | null = null;
  private readonly assertUrlAllowed: (url: string) => Promise<void>;
  private readonly fieldCache = new Map<string, { fetchedAt: number; fields: Promise<TEntityFields> }>();
  private apiUserResourcePromise: Promise<number> | null = null;

  constructor(
    private readonly config: TAutotaskConfig,
    options: TPsaClientOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.assertUrlAllowed = options.assertUrlAllowed ?? (() => Promise.resolve());
    const headers = autotaskAuthHeaders(config.username, config.secret, config.integrationCode, config.impersonationResourceId);
    this.transport = new HttpTransport({
      fetch: options.fetch ?? globalThis.fetch,
      clock: this.clock,
      timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
      retry: { ...defaultRetryPolicy, ...options.retry },
      budget: options.budget ?? new RequestBudget(autotaskBudgetLimits, this.clock),
      tenantKey: options.tenantKey,
      secrets: [config.secret, config.integrationCode],
      authHeaders: () => headers,
      mapError: mapAutotaskError,
      random: options.random,
    });
  }

  requestCount(): number {
    return this.transport.requestCount();
  }

  private apiBase(): Promise<string> {
    this.apiBasePromise ??= discoverAutotaskApiBase(this.transport, this.config.zoneDiscoveryUrl ?? defaultZoneDiscoveryUrl, this.config.username, this.assertUrlAllowed).catch(
      (error: unknown) => {
        this.apiBasePromise = null;
        throw error;
      },
    );
    return this.apiBasePromise;
  }

  private async call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body: unknown, parse: (body: unknown) => T, findExisting?: () => Promise<T | null>): Promise<T> {
    const entity = path.split('/')[1] ?? path;
    return this.onCurrentZone((apiBase) =>
      this.transport.send({ method, url: `${apiBase}${path}`, body, endpointKey: entity }, (response) => parse(response.body), { findExisting }),
    );
  }

  private async query<T>(entity: string, filter: TAutotaskFilter[], mapRow: (row: unknown) => T): Promise<T[]> {
    const rows = await this.onCurrentZone((apiBase) => listAutotaskRows(this.transport, apiBase, entity, { filter }));
    return rows.map(mapRow);
  }

  /** A tenant moved to another zone gets 401 from the old one, so a 401 asks for the zone again and retries once if it changed. */
  private async onCurrentZone<T>(run: (apiBase: string) => Promise<T>): Promise<T> {
    const apiBase = await this.apiBase();
    try {
      return await run(apiBase);
    } catch (error) {
      if (!(error instanceof PsaError) || error.kind !== 'bad_keys' || error.status !== 401) throw error;
      this.apiBasePromise = null;
      const currentBase = await this.apiBase();
      if (currentBase === apiBase) throw error;
      return run(currentBase);
    }
  }

  /** Picklists change rarely and cost a request each, so they are cached per client for a few minutes. */
  private fields(entity: string): Promise<TEntityFields> {
    const cached = this.fieldCache.get(entity);
    if (cached && this.clock.now() - cached.fetchedAt < picklistTtlMs) return cached.fields;
    const fields = this.call('GET', `/${entity}/entityInformation/fields`, undefined, parseEntityFields);
    fields.catch(() => this.fieldCache.delete(entity));
    this.fieldCache.set(entity, { fetchedAt: this.clock.now(), fields });
    return fields;
  }

  private async ticketPicklist(fieldName: string) {
    return (await this.fields('Tickets')).picklist(fieldName);
  }

  async listBoards(): Promise<TPsaBoard[]> {
    return (await this.ticketPicklist('queueID')).map((value) => ({ id: value.value, name: value.label, isActive: value.isActive }));
  }

  async listTypes(): Promise<TPsaTicketType[]> {
    return (await this.ticketPicklist('issueType')).map((value) => ({ id: value.value, name: value.label, boardId: null, isActive: value.isActive }));
  }

  async listSubtypes(): Promise<TPsaSubtype[]> {
    return (await this.ticketPicklist('subIssueType')).map((value) => ({
      id: value.value,
      name: value.label,
      boardId: null,
      typeIds: value.parentValue === null ? [] : [value.parentValue],
      isActive: value.isActive,
    }));
  }

  /** Autotask tickets have no third "item" level below the sub-issue type. */
  listItems(): Promise<TPsaItem[]> {
    return Promise.resolve([]);
  }

  async listTypeAssociations(): Promise<TPsaTypeAssociation[]> {
    const subtypes = await this.listSubtypes();
    return subtypes.flatMap((subtype) => subtype.typeIds.map((typeId) => ({ typeId, subtypeId: subtype.id, itemId: null })));
  }

  async listStatuses(): Promise<TPsaStatus[]> {
    return (await this.ticketPicklist('status')).map((value) => ({
      id: value.value,
      name: value.label,
      boardId: null,
      isClosed: isClosedStatus(value),
      isDefault: value.isDefault,
      isActive: value.isActive,
      sortOrder: value.sortOrder,
    }));
  }

  async listPriorities(): Promise<TPsaPriority[]> {
    return (await this.ticketPicklist('priority')).map((value) => ({ id: value.value, name: value.label, sortOrder: value.sortOrder, isDefault: value.isDefault }));
  }

  async listSources(): Promise<TPsaNamed[]> {
    return (await this.ticketPicklist('source')).map((value) => ({ id: value.value, name: value.label }));
  }

  async listTicketTypes(): Promise<TPsaNamed[]> {
    return (await this.ticketPicklist('ticketType')).map((value) => ({ id: value.value, name: value.label }));
  }

  /** The integration's own API user is a resource too, but not a technician anyone can pick. */
  async listMembers(): Promise<TPsaMember[]> {
    const members = await this.query('Resources', [atFilter.eq('isActive', true)], map.toMember);
    const apiUserName = this.config.username.toLowerCase();
    return members.filter((member) => member.identifier.toLowerCase() !== apiUserName);
  }

  /**
   * The resource Autotask attributes this API user's writes to. API users are resources whose userName is the API
   * username (the e-mail field is the fallback); it never changes for a set of keys, so it is looked up once per client.
   */
  private apiUserResourceId(): Promise<number> {
    this.apiUserResourcePromise ??= this.findApiUserResourceId().catch((error: unknown) => {
      this.apiUserResourcePromise = null;
      throw error;
    });
    return this.apiUserResourcePromise;
  }

  private async findApiUserResourceId(): Promise<number> {
    const username = this.config.username.trim();
    const candidates = await this.query('Resources', [atFilter.or(atFilter.eq('userName', username), atFilter.eq('email', username))], map.toMember);
    const wanted = username.toLowerCase();
    const resource = candidates.find((candidate) => candidate.identifier.toLowerCase() === wanted) ?? candidates.find((candidate) => candidate.email?.toLowerCase() === wanted);
    if (!resource) throw new PsaError('validation', 'Autotask has no resource for the API user, so its own ticket changes cannot be excluded from the webhook.');
    return resource.id;
  }

  async findMembersByEmail(email: string): Promise<TPsaMemberWithPhone[]> {
    const address = email.trim();
    if (address === '') return [];
    return this.query('Resources', [atFilter.eq('email', address)], map.toMemberWithPhone);
  }

  /** Autotask contacts carry only a companyID, so the companies are read in one `in` query after the contacts. */
  async findContactsByEmail(email: string): Promise<TPsaContactWithCompany[]> {
    const address = email.trim();
    if (address === '') return [];
    const contacts = await this.query('Contacts', [atFilter.eq('emailAddress', address)], map.toContact);
    const companyIds = [...new Set(contacts.flatMap((contact) => (contact.companyId === null ? [] : [contact.companyId])))];
    const companies = companyIds.length === 0 ? [] : await this.query('Companies', [atFilter.in('id', companyIds)], map.toCompany);
    return contacts.map((contact) => ({ ...contact, company: companies.find((company) => company.id === contact.companyId) ?? null }));
  }

  async listCompanyTypes(): Promise<TPsaNamed[]> {
    return (await this.fields('Companies')).picklist('companyType').map((value) => ({ id: value.value, name: value.label }));
  }

  listCommunicationTypes(): Promise<never> {
    return Promise.reject(new PsaError('not_supported', 'Autotask contacts have fixed e-mail and phone fields instead of communication types.'));
  }

  listDepartments() {
    return this.query('Departments', [atFilter.all()], map.toNamed);
  }

  listLocations() {
    return this.query('InternalLocations', [atFilter.all()], map.toNamed);
  }

  async listNoteTypes(): Promise<TPsaNamed[]> {
    return (await this.fields('TicketNotes')).picklist('noteType').map((value) => ({ id: value.value, name: value.label }));
  }

  createBoard(): Promise<never> {
    return Promise.reject(notSupported('creating queues'));
  }

  createStatus(): Promise<never> {
    return Promise.reject(notSupported('creating ticket statuses'));
  }

  createType(): Promise<never> {
    return Promise.reject(notSupported('creating issue types'));
  }

  createSubtype(): Promise<never> {
    return Promise.reject(notSupported('creating sub-issue types'));
  }

  // Autotask has no board (queue) teams of ConnectWise's kind: Switchboard keeps Autotask teams locally.
  createTeam(): Promise<TPsaTeam> {
    return Promise.reject(notSupported('board teams'));
  }

  updateTeam(): Promise<TPsaTeam> {
    return Promise.reject(notSupported('board teams'));
  }

  async *streamCompanies(): AsyncGenerator<TPsaCompany> {
    for await (const row of streamAutotaskRows(this.transport, await this.apiBase(), 'Companies', { filter: [atFilter.all()] })) yield map.toCompany(row);
  }

  async *streamContacts(filter: TListContactsFilter = {}): AsyncGenerator<TPsaContact> {
    const query = filter.companyId === undefined ? atFilter.all() : atFilter.eq('companyID', filter.companyId);
    for await (const row of streamAutotaskRows(this.transport, await this.apiBase(), 'Contacts', { filter: [query] })) yield map.toContact(row);
  }

  async createContact(input: TCreatePsaContact): Promise<TPsaContact> {
    const body = {
      companyID: input.companyId,
      firstName: input.firstName,
      lastName: input.lastName,
      emailAddress: input.email ?? undefined,
      phone: input.phone ?? undefined,
      isActive: 1,
      externalID: input.idempotencyKey,
    };
    const contactId = await this.call('POST', `/Companies/${checkId(input.companyId)}/Contacts`, body, itemIdOf, async () => {
      const matches = await this.query('Contacts', [atFilter.eq('externalID', input.idempotencyKey)], map.toContact);
      return matches[0]?.id ?? null;
    });
    return this.call('GET', `/Contacts/${contactId}`, undefined, (response) => map.toContact(itemOf(response)));
  }

  async createTicket(input: TCreatePsaTicket): Promise<TPsaTicket> {
    const statuses = await this.ticketPicklist('status');
    const priorities = await this.ticketPicklist('priority');
    const ownerRoleId = input.ownerId ? await this.defaultRoleOf(input.ownerId) : undefined;
    const body = {
      title: input.summary,
      description: input.description,
      queueID: input.boardId,
      companyID: input.companyId,
      contactID: input.contactId ?? undefined,
      issueType: input.typeId ?? undefined,
      subIssueType: input.subtypeId ?? undefined,
      priority: input.priorityId ?? defaultOf(priorities)?.value,
      status: input.statusId ?? defaultOf(statuses.filter((status) => !isClosedStatus(status)))?.value,
      source: input.sourceId ?? undefined,
      ticketType: input.ticketTypeId ?? undefined,
      assignedResourceID: input.ownerId ?? undefined,
      assignedResourceRoleID: ownerRoleId,
      externalID: input.idempotencyKey,
    };
    const ticketId = await this.call('POST', '/Tickets', body, itemIdOf, async () => (await this.findTicketByExternalId(input.idempotencyKey))?.id ?? null);
    return this.getTicket(ticketId);
  }

  /** Autotask needs a resource and a role together; the resource's default service-desk role is the usual pair. */
  private async defaultRoleOf(resourceId: number): Promise<number | undefined> {
    const resource = await this.call('GET', `/Resources/${checkId(resourceId)}`, undefined, (body) => parsePsaPayload(map.ZResourceRole, itemOf(body), 'resource'));
    return resource.defaultServiceDeskRoleID ?? undefined;
  }

  private async findTicketByExternalId(externalId: string): Promise<map.TAutotaskTicketRow | null> {
    const rows = await this.query('Tickets', [atFilter.eq('externalID', externalId)], (row) => parsePsaPayload(map.ZTicketRow, row, 'ticket'));
    return rows[0] ?? null;
  }

  async getTicket(ticketId: number): Promise<TPsaTicket> {
    const row = await this.call('GET', `/Tickets/${checkId(ticketId)}`, undefined, (body) => parsePsaPayload(map.ZTicketRow, itemOf(body), 'ticket'));
    const statuses = await this.ticketPicklist('status');
    const status = statuses.find((value) => value.value === row.status);
    return {
      id: row.id,
      number: row.ticketNumber ?? String(row.id),
      summary: row.title,
      boardId: row.queueID ?? null,
      statusId: row.status ?? null,
      statusName: status?.label ?? null,
      isClosed: status ? isClosedStatus(status) : false,
      priorityId: row.priority ?? null,
      typeId: row.issueType ?? null,
      subtypeId: row.subIssueType ?? null,
      itemId: null,
      companyId: row.companyID ?? null,
      contactId: row.contactID ?? null,
      ownerId: row.assignedResourceID ?? null,
      externalReference: row.externalID ?? null,
    };
  }

  async updateTicket(ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket> {
    const body: Record<string, unknown> = { id: checkId(ticketId) };
    if (input.summary !== undefined) body.title = input.summary;
    if (input.boardId !== undefined) body.queueID = input.boardId;
    if (input.statusId !== undefined) body.status = input.statusId;
    if (input.priorityId !== undefined) body.priority = input.priorityId;
    if (input.typeId !== undefined) body.issueType = input.typeId;
    if (input.subtypeId !== undefined) body.subIssueType = input.subtypeId;
    if (input.ownerId !== undefined) {
      body.assignedResourceID = input.ownerId;
      body.assignedResourceRoleID = input.ownerId === null ? null : await this.defaultRoleOf(input.ownerId);
    }
    if (Object.keys(body).length > 1) await this.call('PATCH', '/Tickets', body, itemIdOf);
    return this.getTicket(ticketId);
  }

  async closeTicket(ticketId: number, input: TClosePsaTicket = {}): Promise<TPsaTicket> {
    let statusId = input.statusId;
    if (statusId === undefined) {
      const complete = (await this.ticketPicklist('status')).find((status) => isClosedStatus(status) && status.isActive);
      if (!complete) throw new PsaError('validation', 'Autotask has no active Complete status to close the ticket with.');
      statusId = complete.value;
    }
    // The resolution note sets the ticket's resolution field too, so it reads back like ConnectWise's resolution note.
    if (input.resolution) await this.addNote(ticketId, { text: input.resolution, kind: 'resolution' });
    await this.call('PATCH', '/Tickets', { id: checkId(ticketId), status: statusId }, itemIdOf);
    return this.getTicket(ticketId);
  }

  async getTicketStatus(ticketId: number): Promise<TPsaTicketStatus> {
    const ticket = await this.getTicket(ticketId);
    return { ticketId: ticket.id, statusId: ticket.statusId, statusName: ticket.statusName, isClosed: ticket.isClosed };
  }

  private async noteSettings() {
    return noteSettingsFrom(await this.fields('TicketNotes'));
  }

  async addNote(ticketId: number, input: TAddPsaNote): Promise<TPsaNote> {
    const id = checkId(ticketId);
    const settings = await this.noteSettings();
    const publish = input.kind === 'internal' ? settings.internalPublish : settings.everyonePublish;
    if (input.kind === 'resolution') await this.call('PATCH', '/Tickets', { id, resolution: input.text }, itemIdOf);
    const body = {
      ticketID: id,
      title: input.kind === 'resolution' ? map.resolutionNoteTitle : firstLine(input.text),
      description: input.text,
      noteType: input.kind === 'resolution' ? settings.resolutionNoteType : settings.ordinaryNoteType,
      publish,
    };
    // Notes carry no external reference: an unknown outcome is resolved by finding the same text and kind.
    const noteId = await this.call('POST', `/Tickets/${id}/Notes`, body, itemIdOf, async () => {
      const notes = await this.listNotes(id);
      return notes.reverse().find((note) => note.text === input.text && note.kind === input.kind)?.id ?? null;
    });
    const row = await this.call('GET', `/TicketNotes/${noteId}`, undefined, (response) => parsePsaPayload(map.ZNoteRow, itemOf(response), 'note'));
    return toNote(row, id, settings.kindValues);
  }

  async listNotes(ticketId: number): Promise<TPsaNote[]> {
    const id = checkId(ticketId);
    const settings = await this.noteSettings();
    const rows = await this.query('TicketNotes', [atFilter.eq('ticketID', id)], (row) => parsePsaPayload(map.ZNoteRow, row, 'note'));
    return rows.sort((a, b) => a.id - b.id).map((row) => toNote(row, id, settings.kindValues));
  }

  async registerTicketWebhook(input: TRegisterPsaWebhook) {
    const findExisting = async () => {
      const rows = await this.query('TicketWebhooks', [atFilter.eq('webhookUrl', input.url)], (row) => parsePsaPayload(map.ZWebhookRow, row, 'webhook'));
      const existing = rows[0];
      return existing ? existing.id : null;
    };
    // Registering is idempotent per URL: an existing webhook for the same URL is reused.
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
    const id = existingId ?? (await this.call('POST', '/TicketWebhooks', body, itemIdOf, findExisting));
    await this.subscribeTicketWebhookFields(id);
    await this.excludeOwnChangesFromWebhook(id);
    return { id, url: input.url };
  }

  /**
   * Changes Switchboard makes through the API would otherwise come back as callouts and could loop once they are
   * ingested, so the API user's resource goes into the webhook's ExcludedResources (psa-apis.md §6.2). Adds it only once.
   */
  private async excludeOwnChangesFromWebhook(webhookId: number): Promise<void> {
    const resourceId = await this.apiUserResourceId();
    const excludedPath = `/TicketWebhooks/${checkId(webhookId)}/ExcludedResources`;
    const findExcluded = async () =>
      (await this.call('GET', excludedPath, undefined, (body) => parsePsaPayload(map.ZWebhookExcludedResourceList, body, 'webhook excluded resources').items)).find(
        (excluded) => excluded.resourceID === resourceId,
      )?.id ?? null;
    if ((await findExcluded()) !== null) return;
    await this.call('POST', excludedPath, { webhookID: webhookId, resourceID: resourceId }, itemIdOf, findExcluded);
  }

  /**
   * Autotask makes no create or update callout until the webhook has subscribed fields (psa-apis.md §6.2);
   * their ids are the values of the `fieldID` picklist of TicketWebhookFields. Adds only the missing ones.
   */
  private async subscribeTicketWebhookFields(webhookId: number): Promise<void> {
    const wantedIds = subscribedTicketFieldIds((await this.fields('TicketWebhookFields')).picklist('fieldID'));
    if (wantedIds.length === 0) throw new PsaError('validation', 'Autotask offers none of the ticket fields Switchboard subscribes its webhook to.');
    const fieldsPath = `/TicketWebhooks/${checkId(webhookId)}/Fields`;
    const listFields = () => this.call('GET', fieldsPath, undefined, (body) => parsePsaPayload(map.ZWebhookFieldList, body, 'webhook fields').items);
    const present = new Set((await listFields()).map((field) => field.fieldID));
    for (const fieldId of wantedIds.filter((id) => !present.has(id))) {
      const body = { webhookID: webhookId, fieldID: fieldId, isSubscribedField: true, isDisplayAlwaysField: false };
      await this.call('POST', fieldsPath, body, itemIdOf, async () => (await listFields()).find((field) => field.fieldID === fieldId)?.id ?? null);
    }
  }

  async getRequestUsage(): Promise<TPsaRequestUsage> {
    const threshold = await this.call('GET', '/ThresholdInformation', undefined, (body) => parsePsaPayload(map.ZThreshold, body, 'threshold information'));
    return { used: threshold.currentTimeframeRequestCount, limit: threshold.externalRequestThreshold, windowSeconds: threshold.requestThresholdTimeframe * 60 };
  }
}
