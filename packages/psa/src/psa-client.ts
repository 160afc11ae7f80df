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
  /**
   * The company's client types (ConnectWise `types[]`, many; Autotask's `companyType` picklist value and label, one).
   * Empty when the read does not name them: a company found through a contact's e-mail (findContactsByEmail).
   */
  types: TPsaNamed[];
  /** The company's main phone and city (ConnectWise `phoneNumber`/`city`, Autotask `phone`/`city`); null when blank or not read. */
  phone: string | null;
  city: string | null;
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
  /** Set when this call sends again a write that an earlier call may have created (see TPsaResend). */
  resend?: TPsaResend | null;
}

/**
 * Set by a caller that sends one write more than once (the durable outbox, after an earlier call for it threw or its
 * sender stopped mid-send), on the creates the PSA can find again only by their content: notes (ticket, kind, text) and
 * ConnectWise contacts (company, names, e-mail). Nothing of ours marks such a record, so an identical one may be
 * someone else's: an earlier note with the same words, an old contact of the same name.
 *
 * Without it, the call is the write's first: it is sent at once, and only when its own outcome is unknown (a timeout,
 * a dropped connection, a 5xx) is the record looked up, among those the PSA created since the call began.
 * With it, the record is looked up before the first send too, among those created since the write was first tried.
 * "Since" allows a few minutes for the PSA's clock (a ConnectWise date also drops its milliseconds).
 */
export interface TPsaResend {
  /**
   * How long ago the write was first tried, in milliseconds (when it was stored will do: longer is safe, shorter is
   * not). An age, not a time, so the caller's clock (an app's, which tests move on) need not agree with the client's.
   */
  firstTriedMsAgo: number;
  /** Ids of records known to be other writes' (an identical note the write before this one added): never taken for this one. */
  otherWritesIds?: readonly number[];
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
  sourceId: number | null;
  /** ISO 8601: ConnectWise requiredDate, Autotask dueDateTime. */
  dueAt: string | null;
  /** ConnectWise board team; null on Autotask. */
  teamId: number | null;
  /** ConnectWise impact and severity; null on Autotask. */
  impact: TPsaImpactLevel | null;
  severity: TPsaImpactLevel | null;
  /** Autotask ticket type and category picklist values; null on ConnectWise. */
  ticketTypeId: number | null;
  ticketCategoryId: number | null;
}

/** ConnectWise's impact and severity scale (spec 02 §3 options); Autotask tickets have neither field. */
export type TPsaImpactLevel = 'Low' | 'Medium' | 'High';

/** One line of the chat that led to a ticket (spec 02 §3 conversation, message). */
export interface TPsaConversationMessage {
  role: 'user' | 'assistant';
  content: string;
  /** ISO 8601; shown before the line when present. */
  at?: string | null;
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

/** How a stream pages, not what it yields. */
export interface TStreamOptions {
  /**
   * How many pages past the one being read may be requested already (default 0: the next page is asked for when the
   * caller has read this one). Each page is still asked for once the one before it has arrived: the same requests, in
   * the same order, one at a time; but a caller that stops before the end has sent up to this many it did not need, so
   * it is for callers that read to the end (the batch sync), not for one that stops at a first match.
   */
  readAhead?: number;
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
  /** Only these tickets (a batch of webhook events read back in one query). */
  ticketIds?: readonly number[];
}

/**
 * A ticket draft as the PSA takes it (spec 02 §3 ticket draft, ConnectWise details, Autotask details). Fields a PSA
 * does not have are ignored there; `capabilities` says which those are (impactSeverity, ticketTeams, ticketItems,
 * ticketTypes, reporterFields).
 */
export interface TCreatePsaTicket {
  /** Sent as externalXRef (ConnectWise) / externalID (Autotask) so a retried create is found, not duplicated. */
  idempotencyKey: string;
  /** title. ConnectWise summary (≤100), Autotask title (≤255). */
  summary: string;
  /** The initial description: ConnectWise initialDescription (the first Description note), Autotask description. */
  description: string;
  /** ConnectWise board / Autotask queue. */
  boardId: number;
  companyId: number;
  contactId?: number | null;
  /** Category: ConnectWise type / Autotask issue type. */
  typeId?: number | null;
  /** Subcategory: ConnectWise subtype / Autotask sub-issue type. */
  subtypeId?: number | null;
  /** ConnectWise item; ignored on Autotask (capabilities.ticketItems). */
  itemId?: number | null;
  /** ConnectWise priority id / Autotask priority picklist value; the PSA's default when absent. */
  priorityId?: number | null;
  /** The new-ticket status; the board's New status (ConnectWise) / the default non-closed status (Autotask) when absent. */
  statusId?: number | null;
  /** ConnectWise service source id / Autotask source picklist value. */
  sourceId?: number | null;
  ownerId?: number | null;
  /** Autotask only: the ticket type picklist value (Service Request, Incident, …). */
  ticketTypeId?: number | null;
  /** Autotask only: the ticket category picklist value. */
  ticketCategoryId?: number | null;
  /** ConnectWise only: the board team the ticket is dispatched to (capabilities.ticketTeams). */
  teamId?: number | null;
  /** ConnectWise only: impact and severity (capabilities.impactSeverity). */
  impact?: TPsaImpactLevel | null;
  severity?: TPsaImpactLevel | null;
  /** When the ticket is due (ISO 8601), e.g. now + the subtype's SLA hours: ConnectWise requiredDate, Autotask dueDateTime. */
  dueAt?: string | null;
  /** The reporter as typed in the draft (name, email, phone): ConnectWise contactName/contactEmailAddress/contactPhoneNumber (capabilities.reporterFields). */
  reporterName?: string | null;
  reporterEmail?: string | null;
  reporterPhone?: string | null;
  /**
   * The chat that led to the ticket, attached as an internal note titled "Conversation": ConnectWise
   * initialInternalAnalysis (sent with the create, so it lands or fails with the ticket), Autotask a TicketNote written
   * after the create (found again by its title on a retry).
   */
  conversation?: TPsaConversationMessage[] | null;
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
  /** The closing status; the board's closed status (ConnectWise, lowest sort order) / Complete = 5 (Autotask) when absent. */
  statusId?: number;
  /** Written as a Resolution note first (and, on Autotask, the ticket's resolution field). */
  resolution?: string;
  /** The technician the resolution note is written for (ConnectWise note member; see TAddPsaNote.memberId). */
  memberId?: number | null;
  /** Set when this call sends the close again after an earlier call threw: its resolution note may be there already (TPsaResend). */
  resend?: TPsaResend | null;
}

export interface TPsaTicketStatus {
  ticketId: number;
  statusId: number | null;
  statusName: string | null;
  isClosed: boolean;
}

/** Description, Internal, Resolution (spec 02 §7 addNotesToTicket flags). */
export type TPsaNoteKind = 'description' | 'internal' | 'resolution';

export interface TPsaNote {
  id: number;
  ticketId: number;
  text: string;
  kind: TPsaNoteKind;
  /**
   * Kept from the client's users, whatever the kind: both PSAs mark "internal" apart from the kind, so a resolution
   * note may be internal too. ConnectWise internalAnalysisFlag or internalFlag; Autotask any publish value other than
   * the one for all users (a missing one too).
   */
  isInternal: boolean;
  createdAt: string | null;
  createdBy: string | null;
  /** The member/resource the note is attributed to, where the PSA says. */
  memberId?: number | null;
}

export interface TAddPsaNote {
  text: string;
  /**
   * ConnectWise: description → detailDescriptionFlag, internal → internalAnalysisFlag, resolution → resolutionFlag.
   * Autotask: internal → publish "Internal Only", else "All Autotask Users"; resolution → the Resolution note type and
   * the ticket's resolution field.
   */
  kind: TPsaNoteKind;
  /** Autotask only: an explicit noteType picklist value (listNoteTypes), overriding the one the kind picks. */
  noteTypeId?: number | null;
  /**
   * The technician the note is written for: ConnectWise note `member`. Autotask attributes notes to the API user
   * (impersonation needs a per-tenant security setting), so there the text's "Technician: (id): " label says who.
   */
  memberId?: number | null;
  /** Set when this call sends again a note that an earlier call may have added (TPsaResend). */
  resend?: TPsaResend | null;
}

/**
 * Assigning (claiming) a ticket: ConnectWise owner + the board's status named `statusName`; Autotask
 * assignedResourceID + assignedResourceRoleID + the status labelled `statusName`.
 */
export interface TAssignPsaTicket {
  memberId: number;
  /** Default "Assigned". A board without a status of that name keeps the ticket's current status. */
  statusName?: string;
  /** Autotask only: the role the resource works the ticket in; the resource's default service-desk role when absent. */
  roleId?: number | null;
}

/** Releasing a ticket back to the queue (release, requeue): no owner, and the status named `statusName`. */
export interface TUnassignPsaTicket {
  /** Default: the board's New status (ConnectWise) / New = 1 (Autotask). */
  statusName?: string;
}

/** Time worked on a ticket (spec 02 §3 timer session; issue #10 time entries). */
export interface TAddPsaTimeEntry {
  ticketId: number;
  /** ConnectWise member / Autotask resource. */
  memberId: number;
  /** ISO 8601 instants; sent to the second. The end must be after the start. */
  startAt: string;
  endAt: string;
  /** ConnectWise notes / Autotask summaryNotes. */
  notes: string;
  /** Autotask only: the role the time is worked in; the resource's default service-desk role when absent. */
  roleId?: number | null;
}

export interface TPsaTimeEntry {
  id: number;
  ticketId: number;
  memberId: number;
  startAt: string;
  endAt: string | null;
  /** Derived by the PSA from start and end (ConnectWise actualHours, Autotask hoursWorked). */
  hours: number;
  notes: string;
}

/** A file on a ticket: a ConnectWise document of record type Ticket, an Autotask ticket attachment. */
export interface TPsaAttachment {
  id: number;
  fileName: string;
  /** In bytes, as the PSA counts them (ConnectWise `size`, Autotask `fileSize`). */
  size: number;
}

export interface TAddPsaAttachment {
  fileName: string;
  contentType: string;
  data: Uint8Array;
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

/** What an update may change on a board type; fields left out are kept. */
export interface TUpdatePsaType {
  isActive?: boolean;
}

/** What an update may change on a board subtype; fields left out are kept. `typeIds` replaces the whole list. */
export interface TUpdatePsaSubtype {
  typeIds?: number[];
  isActive?: boolean;
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

/** Where a directory stream starts: only records with a larger id (the streams run in id order), to resume an import. */
export interface TStreamFrom {
  afterId?: number;
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
  /** Tickets carry impact and severity (ConnectWise); Autotask has no such fields. */
  impactSeverity: boolean;
  /** Tickets can be given a board team (ConnectWise); Autotask dispatches by queue only. */
  ticketTeams: boolean;
  /** Tickets have a third level, the item, below the subtype (ConnectWise). */
  ticketItems: boolean;
  /** Tickets keep a free-text reporter name, e-mail and phone (ConnectWise); Autotask knows the contact only. */
  reporterFields: boolean;
  /** Time can be entered against a ticket (both). */
  timeEntries: boolean;
  /** Files can be attached to a ticket (both: ConnectWise documents, Autotask ticket attachments of at most 6–7 MB). */
  ticketAttachments: boolean;
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
  /** Reactivates (or deactivates) a board type; needs `capabilities.createTypes`. Safe to send again. */
  updateType(boardId: number, typeId: number, input: TUpdatePsaType): Promise<TPsaTicketType>;
  /**
   * Sets the types a board subtype is associated with (ConnectWise `typeAssociationIds`) and/or reactivates it;
   * needs `capabilities.createSubtypes` (an Autotask sub-issue type has one fixed parent). Safe to send again.
   */
  updateSubtype(boardId: number, subtypeId: number, input: TUpdatePsaSubtype): Promise<TPsaSubtype>;

  /** A board team (ConnectWise `service/boards/{id}/teams`); Autotask has none and rejects with not_supported. */
  createTeam(boardId: number, input: TCreatePsaTeam): Promise<TPsaTeam>;
  /** Renames a board team and/or replaces its member list; fields left out are kept. */
  updateTeam(boardId: number, teamId: number, input: Partial<TCreatePsaTeam>): Promise<TPsaTeam>;

  /** Members (active or not) with this e-mail address; an empty address matches nobody. */
  findMembersByEmail(email: string): Promise<TPsaMemberWithPhone[]>;
  /** Contacts (active or not) with this e-mail address, each with its company; an empty address matches nobody. */
  findContactsByEmail(email: string): Promise<TPsaContactWithCompany[]>;

  /** Companies in id order, from after `from.afterId` when given. */
  streamCompanies(from?: TStreamFrom): AsyncIterable<TPsaCompany>;
  /** How many companies `streamCompanies` will yield (one request; the PSA counts). */
  countCompanies(): Promise<number>;
  /** How many contacts `streamContacts(filter)` will yield. */
  countContacts(filter?: TListContactsFilter): Promise<number>;
  /** Contacts in id order, from after `from.afterId` when given. */
  streamContacts(filter?: TListContactsFilter, from?: TStreamFrom): AsyncIterable<TPsaContact>;
  /**
   * The writes below that create a record (contact, ticket, note, time entry) may be called again after a thrown error
   * (outcome unknown) and the PSA still holds the record once. Tickets, time entries and Autotask contacts are found by
   * a key only that write has (the idempotency key, or ticket + member + start), so they are always looked up first;
   * notes and ConnectWise contacts only when the caller says the call is a resend (`resend`, TPsaResend).
   */
  createContact(input: TCreatePsaContact): Promise<TPsaContact>;

  /** Pages through the PSA's tickets in id order; the filter is applied by the PSA, not in memory. */
  streamTickets(filter: TStreamTicketsFilter, options?: TStreamOptions): AsyncIterable<TPsaTicketRecord>;
  createTicket(input: TCreatePsaTicket): Promise<TPsaTicket>;
  getTicket(ticketId: number): Promise<TPsaTicket>;
  updateTicket(ticketId: number, input: TUpdatePsaTicket): Promise<TPsaTicket>;
  /** Writes the resolution note (if any), then sets the closing status; sent again with `resend`, it lands the same way. */
  closeTicket(ticketId: number, input?: TClosePsaTicket): Promise<TPsaTicket>;
  getTicketStatus(ticketId: number): Promise<TPsaTicketStatus>;

  /**
   * Safe to send again: a note of unknown outcome, or one sent again with `resend` after a thrown error, is looked up by
   * ticket, kind and exact text among the notes created since the call began (or since the write was first tried), and
   * the newest found is returned. A note with the same text as an earlier one is a new note, and is added.
   */
  addNote(ticketId: number, input: TAddPsaNote): Promise<TPsaNote>;
  listNotes(ticketId: number): Promise<TPsaNote[]>;

  /** Claims the ticket for a member (owner/primary resource + "Assigned" status). Repeatable: the same call lands the same way. */
  assignTicket(ticketId: number, input: TAssignPsaTicket): Promise<TPsaTicket>;
  /** Clears the owner/primary resource and moves the ticket back to the New status (release, requeue). Repeatable. */
  unassignTicket(ticketId: number, input?: TUnassignPsaTicket): Promise<TPsaTicket>;

  /**
   * Records time worked on a ticket (ConnectWise `time/entries` charged to the ServiceTicket; Autotask `TimeEntries`).
   * Safe to send again: an entry of unknown outcome is looked up by ticket, member and start time first.
   */
  addTimeEntry(input: TAddPsaTimeEntry): Promise<TPsaTimeEntry>;
  listTimeEntries(ticketId: number): Promise<TPsaTimeEntry[]>;

  /**
   * Attaches a file to a ticket (ConnectWise `system/documents` of record type Ticket; Autotask
   * `Tickets/{id}/Attachments`). Safe to send again: an attachment of unknown outcome (or one sent again after a thrown
   * error) is looked up by ticket, file name and size first, and the one found is returned. Two files of the same name
   * and size on one ticket therefore land once.
   */
  addAttachment(ticketId: number, input: TAddPsaAttachment): Promise<TPsaAttachment>;
  /** The files on a ticket, oldest first (names and sizes; not their bytes). */
  listAttachments(ticketId: number): Promise<TPsaAttachment[]>;

  /**
   * Registers (or reuses, per URL) the ticket webhook; on Autotask also subscribes the ticket fields whose changes should
   * call out and excludes the API user's own resource, so changes made through this client make no callout.
   */
  registerTicketWebhook(input: TRegisterPsaWebhook): Promise<TPsaWebhook>;
  /** Removes a webhook registered by `registerTicketWebhook`; one already gone counts as removed. */
  unregisterTicketWebhook(webhookId: number): Promise<void>;
  /** The PSA's own count of this tenant's requests, where it publishes one (Autotask); null otherwise. */
  getRequestUsage(): Promise<TPsaRequestUsage | null>;
  /** Requests this client has sent, retries included (for diagnostics and the benchmark). */
  requestCount(): number;
}
