export type TPsaType = 'connectwise' | 'autotask';

export interface TPsaBoard {
  id: number;
  name: string;
  isActive: boolean;
}

export interface TPsaStatus {
  id: number;
  name: string;
  /** ConnectWise statuses belong to a board; Autotask statuses are one global picklist (null). */
  boardId: number | null;
  isClosed: boolean;
  isDefault: boolean;
  isActive: boolean;
  sortOrder: number;
}

export interface TPsaTicketType {
  id: number;
  name: string;
  boardId: number | null;
  isActive: boolean;
}

export interface TPsaSubtype {
  id: number;
  name: string;
  boardId: number | null;
  /** The types this subtype may be used with (ConnectWise associations, Autotask parent issue type). */
  typeIds: number[];
  isActive: boolean;
}

export interface TPsaItem {
  id: number;
  name: string;
  boardId: number | null;
  isActive: boolean;
}

export interface TPsaTypeAssociation {
  typeId: number;
  subtypeId: number | null;
  itemId: number | null;
}

export interface TPsaPriority {
  id: number;
  name: string;
  sortOrder: number;
  isDefault: boolean;
}

export interface TPsaNamed {
  id: number;
  name: string;
}

export interface TPsaMember {
  id: number;
  identifier: string;
  firstName: string;
  lastName: string;
  email: string | null;
  isActive: boolean;
}

/** A ConnectWise board team: members that tickets on the board can be dispatched to. */
export interface TPsaTeam {
  id: number;
  boardId: number;
  name: string;
  memberIds: number[];
}

export interface TCreatePsaTeam {
  name: string;
  memberIds: number[];
}

/** A member found by e-mail, with the phone activation copies onto the user. */
export interface TPsaMemberWithPhone extends TPsaMember {
  phone: string | null;
}

export interface TPsaCommunicationType {
  id: number;
  name: string;
  isEmail: boolean;
  isPhone: boolean;
}

export interface TPsaCompany {
  id: number;
  identifier: string | null;
  name: string;
  isActive: boolean;
}

export interface TPsaContact {
  id: number;
  companyId: number | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  isActive: boolean;
}

/** A contact found by e-mail, with its company (null when the contact has none or the PSA did not return it). */
export interface TPsaContactWithCompany extends TPsaContact {
  company: TPsaCompany | null;
}

export interface TCreatePsaContact {
  idempotencyKey: string;
  companyId: number;
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  /** ConnectWise communication types for the e-mail and phone items; the PSA's default e-mail/phone types when absent. */
  emailTypeId?: number | null;
  phoneTypeId?: number | null;
}

export interface TPsaTicket {
  id: number;
  /** What people call the ticket: the id on ConnectWise, the "T2024…" number on Autotask. */
  number: string;
  summary: string;
  boardId: number | null;
  statusId: number | null;
  statusName: string | null;
  isClosed: boolean;
  priorityId: number | null;
  typeId: number | null;
  subtypeId: number | null;
  itemId: number | null;
  companyId: number | null;
  contactId: number | null;
  ownerId: number | null;
  externalReference: string | null;
}

/** A ticket as a list/stream returns it for the synchronized copies: ids, the names the PSA gives, dates. */
export interface TPsaTicketRecord extends TPsaTicket {
  /** Names come with ConnectWise rows; Autotask rows carry ids only, so these are null there (callers map ids to names). */
  boardName: string | null;
  typeName: string | null;
  subtypeName: string | null;
  itemName: string | null;
  priorityName: string | null;
  companyName: string | null;
  contactName: string | null;
  ownerName: string | null;
  description: string | null;
  resolution: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  closedAt: string | null;
}

/** Which tickets `streamTickets` pages through; every given part must hold (AND). */
export interface TStreamTicketsFilter {
  boardIds?: readonly number[];
  /** Entered at or after (ConnectWise dateEntered, Autotask createDate). */
  createdFrom?: Date;
  /** Entered before. */
  createdBefore?: Date;
  /** Last changed at or after (ConnectWise lastUpdated, Autotask lastActivityDate): the reconcile's window. */
  updatedSince?: Date;
  /** Only tickets that are not closed. */
  openOnly?: boolean;
  /** Only ids above this one: a resumed sync skips what it already wrote (streams run in id order). */
  afterId?: number;
}

export interface TCreatePsaTicket {
  /** Sent as externalXRef (ConnectWise) / externalID (Autotask) so a retried create is found, not duplicated. */
  idempotencyKey: string;
  summary: string;
  description: string;
  boardId: number;
  companyId: number;
  contactId?: number | null;
  typeId?: number | null;
  subtypeId?: number | null;
  itemId?: number | null;
  priorityId?: number | null;
  statusId?: number | null;
  sourceId?: number | null;
  ownerId?: number | null;
  /** Autotask only: the ticket type picklist value. */
  ticketTypeId?: number | null;
}

export interface TUpdatePsaTicket {
  summary?: string;
  boardId?: number;
  statusId?: number;
  priorityId?: number;
  typeId?: number | null;
  subtypeId?: number | null;
  itemId?: number | null;
  ownerId?: number | null;
}

export interface TClosePsaTicket {
  statusId?: number;
  resolution?: string;
}

export interface TPsaTicketStatus {
  ticketId: number;
  statusId: number | null;
  statusName: string | null;
  isClosed: boolean;
}

export type TPsaNoteKind = 'description' | 'internal' | 'resolution';

export interface TPsaNote {
  id: number;
  ticketId: number;
  text: string;
  kind: TPsaNoteKind;
  createdAt: string | null;
  createdBy: string | null;
}

export interface TAddPsaNote {
  text: string;
  kind: TPsaNoteKind;
}

export interface TCreatePsaBoard {
  name: string;
  locationId: number;
  departmentId: number;
}

export interface TCreatePsaStatus {
  name: string;
  isClosed: boolean;
  sortOrder?: number;
}

export interface TCreatePsaSubtype {
  name: string;
  typeIds: number[];
}

export interface TRegisterPsaWebhook {
  url: string;
  description: string;
  /** Autotask signs callouts with this secret (HMAC-SHA1); ConnectWise publishes its own signing key. */
  secretKey: string;
  deactivationUrl?: string;
}

export interface TPsaWebhook {
  id: number;
  url: string;
}

export interface TPsaRequestUsage {
  used: number;
  limit: number;
  windowSeconds: number;
}

export interface TListContactsFilter {
  companyId?: number;
}

/** What a PSA allows through its API. Callers check these before offering an action, instead of catching errors. */
export interface TPsaCapabilities {
  /** Boards can be created (ConnectWise); Autotask queues are a picklist (decision 17). */
  createBoards: boolean;
  /** Board statuses can be created (ConnectWise); Autotask's status list is a picklist. */
  createStatuses: boolean;
  /** Board types can be created (ConnectWise); Autotask issue types are a picklist. */
  createTypes: boolean;
  /** Board subtypes can be created (ConnectWise); Autotask sub-issue types are a picklist. */
  createSubtypes: boolean;
  /** Contacts carry typed communication items (ConnectWise); Autotask contacts have fixed e-mail and phone fields. */
  communicationTypes: boolean;
  /** Notes are typed by a picklist (Autotask); ConnectWise notes are discussion, internal or resolution notes. */
  noteTypes: boolean;
  /** A ticket-type axis beside the board types (Autotask: Service Request, Incident, …). */
  ticketTypes: boolean;
}

export type TPsaCapability = keyof TPsaCapabilities;

/**
 * One interface over ConnectWise Manage and Autotask; every method throws PsaError on failure. A list the PSA does not
 * have (see `capabilities`) is empty; a create it does not allow rejects with kind 'not_supported'.
 */
export interface PsaClient {
  readonly psaType: TPsaType;
  readonly capabilities: Readonly<TPsaCapabilities>;

  listBoards(): Promise<TPsaBoard[]>;
  listTypes(boardId: number | null): Promise<TPsaTicketType[]>;
  listSubtypes(boardId: number | null): Promise<TPsaSubtype[]>;
  listItems(boardId: number | null): Promise<TPsaItem[]>;
  listTypeAssociations(boardId: number | null): Promise<TPsaTypeAssociation[]>;
  listStatuses(boardId: number | null): Promise<TPsaStatus[]>;
  listPriorities(): Promise<TPsaPriority[]>;
  listSources(): Promise<TPsaNamed[]>;
  listMembers(): Promise<TPsaMember[]>;
  listCompanyTypes(): Promise<TPsaNamed[]>;
  /** Empty unless `capabilities.communicationTypes`. */
  listCommunicationTypes(): Promise<TPsaCommunicationType[]>;
  listDepartments(): Promise<TPsaNamed[]>;
  listLocations(): Promise<TPsaNamed[]>;
  /** Empty unless `capabilities.noteTypes`. */
  listNoteTypes(): Promise<TPsaNamed[]>;
  /** Autotask's separate ticket-type axis (Service Request, Incident, …); empty unless `capabilities.ticketTypes`. */
  listTicketTypes(): Promise<TPsaNamed[]>;

  /**
   * Creates are safe to retry: when a create's outcome is unknown (5xx, timeout, dropped connection) the adapter
   * looks the record up by its natural key (name in its board, external reference) and returns it if it landed.
   * These four need `capabilities.createBoards` / `createStatuses` / `createTypes` / `createSubtypes`.
   */
  createBoard(input: TCreatePsaBoard): Promise<TPsaBoard>;
  createStatus(boardId: number, input: TCreatePsaStatus): Promise<TPsaStatus>;
  createType(boardId: number, input: { name: string }): Promise<TPsaTicketType>;
  createSubtype(boardId: number, input: TCreatePsaSubtype): Promise<TPsaSubtype>;

  /** A board team (ConnectWise `service/boards/{id}/teams`); Autotask has none and rejects with not_supported. */
  createTeam(boardId: number, input: TCreatePsaTeam): Promise<TPsaTeam>;
  /** Renames a board team and/or replaces its member list; fields left out are kept. */
  updateTeam(boardId: number, teamId: number, input: Partial<TCreatePsaTeam>): Promise<TPsaTeam>;

  /** Members (active or not) with this e-mail address; an empty address matches nobody. */
  findMembersByEmail(email: string): Promise<TPsaMemberWithPhone[]>;
  /** Contacts (active or not) with this e-mail address, each with its company; an empty address matches nobody. */
  findContactsByEmail(email: string): Promise<TPsaContactWithCompany[]>;

  streamCompanies(): AsyncIterable<TPsaCompany>;
  /** How many companies `streamCompanies` will yield (one request; the PSA counts). */
  countCompanies(): Promise<number>;
  /** How many contacts `streamContacts(filter)` will yield. */
  countContacts(filter?: TListContactsFilter): Promise<number>;
  streamContacts(filter?: TListContactsFilter): AsyncIterable<TPsaContact>;
  createContact(input: TCreatePsaContact): Promise<TPsaContact>;

  /** Pages through the PSA's tickets in id order; the filter is applied by the PSA, not in memory. */
  streamTickets(filter: TStreamTicketsFilter): AsyncIterable<TPsaTicketRecord>;
  createTicket(input: TCreatePsaTicket): Promise<TPsaTicket>;
  getTicket(ticketId: number): Promise<TPsaTicket>;
  updateTicket(ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket>;
  closeTicket(ticketId: number, input?: TClosePsaTicket): Promise<TPsaTicket>;
  getTicketStatus(ticketId: number): Promise<TPsaTicketStatus>;

  addNote(ticketId: number, input: TAddPsaNote): Promise<TPsaNote>;
  listNotes(ticketId: number): Promise<TPsaNote[]>;

  /**
   * Registers (or reuses, per URL) the ticket webhook; on Autotask also subscribes the ticket fields whose changes should
   * call out and excludes the API user's own resource, so changes made through this client make no callout.
   */
  registerTicketWebhook(input: TRegisterPsaWebhook): Promise<TPsaWebhook>;
  /** The PSA's own count of this tenant's requests, where it publishes one (Autotask); null otherwise. */
  getRequestUsage(): Promise<TPsaRequestUsage | null>;
  /** Requests this client has sent, retries included (for diagnostics and the benchmark). */
  requestCount(): number;
}
