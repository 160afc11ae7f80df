// The logical PSA state both protocol front-ends read and write; each front-end maps it to its own field names.

export interface TSimCompany {
  id: number;
  name: string;
  identifier: string;
  companyTypeId: number | null;
  phone: string;
  website: string;
  addressLine1: string;
  city: string;
  state: string;
  zip: string;
  isActive: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface TSimContact {
  id: number;
  companyId: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string;
  isPrimary: boolean;
  isActive: boolean;
  createdAt: number;
  updatedAt: number;
  /** Autotask's externalID, set by the integration that created the contact; seeded contacts have none. */
  externalReference?: string;
}

export interface TSimMember {
  id: number;
  identifier: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string;
  tier: string;
  isActive: boolean;
}

export interface TSimBoard {
  id: number;
  name: string;
  locationId: number | null;
  departmentId: number | null;
  isActive: boolean;
}

export interface TSimBoardType {
  id: number;
  boardId: number;
  name: string;
  isActive: boolean;
}

export interface TSimBoardSubType {
  id: number;
  boardId: number;
  name: string;
  typeIds: number[];
  isActive: boolean;
}

export interface TSimBoardItem {
  id: number;
  boardId: number;
  name: string;
  subTypeIds: number[];
  isActive: boolean;
}

export interface TSimStatus {
  id: number;
  boardId: number;
  name: string;
  sortOrder: number;
  isNew: boolean;
  isClosed: boolean;
  isActive: boolean;
  /** Autotask's status picklist value: 1 is New and 5 is Complete there, as system values. */
  autotaskValue: number;
}

export interface TSimPriority {
  id: number;
  name: string;
  sortOrder: number;
  color: string;
  isDefault: boolean;
}

export interface TSimNamed {
  id: number;
  name: string;
  isDefault: boolean;
}

export interface TSimCommunicationType {
  id: number;
  description: string;
  isEmail: boolean;
  isPhone: boolean;
  isFax: boolean;
  isDefault: boolean;
}

export interface TSimDepartment {
  id: number;
  identifier: string;
  name: string;
}

export interface TSimBoardTeam {
  id: number;
  boardId: number;
  name: string;
  leaderId: number | null;
  memberIds: number[];
  isDefault: boolean;
  notifyOnTicketDelete: boolean;
}

export interface TSimTicket {
  id: number;
  summary: string;
  boardId: number;
  statusId: number;
  companyId: number;
  contactId: number | null;
  typeId: number | null;
  subTypeId: number | null;
  itemId: number | null;
  priorityId: number | null;
  ownerId: number | null;
  /** ConnectWise board team; Autotask has no equivalent field. */
  teamId: number | null;
  sourceId: number | null;
  /** Autotask-only axes with no ConnectWise equivalent. */
  ticketTypeValue: number;
  ticketCategoryValue: number;
  description: string;
  resolution: string;
  externalReference: string;
  dueAt: number | null;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedBy: string | null;
  /** ConnectWise impact and severity; Medium when not set (seeded and Autotask-made tickets). */
  impact?: TSimLevel;
  severity?: TSimLevel;
  /** ConnectWise's free-text reporter (contactName, contactEmailAddress, contactPhoneNumber); the contact's own when not set. */
  reporterName?: string;
  reporterEmail?: string;
  reporterPhone?: string;
}

export type TSimLevel = 'Low' | 'Medium' | 'High';

/** Time worked on a ticket: ConnectWise `time/entries` charged to a ServiceTicket, Autotask `TimeEntries`. */
export interface TSimTimeEntry {
  id: number;
  ticketId: number;
  memberId: number;
  /** Autotask roleID; null for entries made through ConnectWise. */
  roleId: number | null;
  startAt: number;
  endAt: number;
  hours: number;
  notes: string;
  createdAt: number;
  via: 'connectwise' | 'autotask';
}

export interface TSimNote {
  id: number;
  ticketId: number;
  text: string;
  title: string;
  isDescription: boolean;
  isInternal: boolean;
  isResolution: boolean;
  memberId: number | null;
  contactId: number | null;
  createdAt: number;
  updatedAt: number;
  /** Autotask noteType / publish picklist values, so notes written through Autotask read back unchanged. */
  autotaskNoteType: number;
  autotaskPublish: number;
}

/** A file on a ticket: a ConnectWise document of record type Ticket, an Autotask ticket attachment. The bytes are kept. */
export interface TSimAttachment {
  id: number;
  ticketId: number;
  title: string;
  fileName: string;
  contentType: string;
  data: Buffer;
  createdAt: number;
  via: 'connectwise' | 'autotask';
}

export interface TSimCallback {
  id: number;
  description: string;
  url: string;
  objectId: number;
  type: string;
  level: string;
  isInactive: boolean;
  isSelfSuppressed: boolean;
  payloadVersion: string;
}

export interface TSimWebhook {
  id: number;
  name: string;
  webhookUrl: string;
  deactivationUrl: string;
  secretKey: string;
  notificationEmailAddress: string;
  isActive: boolean;
  onCreate: boolean;
  onUpdate: boolean;
  onDelete: boolean;
  webhookGuid: string;
  fields: { id: number; fieldId: number; isSubscribedField: boolean; isDisplayAlwaysField: boolean }[];
  /** Autotask resources whose changes make no callout (TicketWebhookExcludedResources). */
  excludedResources: { id: number; resourceId: number }[];
}

export interface TTicketChange {
  action: 'added' | 'updated' | 'deleted';
  ticket: TSimTicket;
  /** Logical field names that changed (empty for added/deleted). */
  changedFields: (keyof TSimTicket)[];
  /** `connectwise-ui`: a technician's edit in ConnectWise itself (self-suppressed callbacks still fire for it). */
  via: 'connectwise' | 'connectwise-ui' | 'autotask';
  /** ConnectWise `skipCallback` on the request that made the change. */
  isCallbackSkipped: boolean;
  /** The Autotask resource the change is attributed to (the API user, the impersonated resource or a UI user); null for ConnectWise changes. */
  actorResourceId: number | null;
}

export type TTicketChangeListener = (change: TTicketChange) => void;

/** An id-keyed table kept sorted by insertion; ids only grow, so insertion order is id order. */
export class SimTable<TRow extends { id: number }> {
  private readonly rows = new Map<number, TRow>();
  private nextId = 1;

  /** `onChange` hears every put, insert and delete (rows are replaced, never changed in place), so a saved copy can follow. */
  constructor(private readonly onChange: () => void = () => undefined) {}

  get size(): number {
    return this.rows.size;
  }

  get(id: number): TRow | undefined {
    return this.rows.get(id);
  }

  all(): IterableIterator<TRow> {
    return this.rows.values();
  }

  /** Inserts a row that already has an id (seeded data keeps the data file's ids). */
  put(row: TRow): TRow {
    this.rows.set(row.id, row);
    if (row.id >= this.nextId) this.nextId = row.id + 1;
    this.onChange();
    return row;
  }

  insert(row: Omit<TRow, 'id'>): TRow {
    const created = { ...row, id: this.nextId } as TRow;
    return this.put(created);
  }

  delete(id: number): boolean {
    const isDeleted = this.rows.delete(id);
    if (isDeleted) this.onChange();
    return isDeleted;
  }

  peekNextId(): number {
    return this.nextId;
  }

  /** Numbers the next insert at least `minimum`, so ids handed out before (and held elsewhere) are never given again. */
  raiseNextId(minimum: number): void {
    if (minimum <= this.nextId) return;
    this.nextId = minimum;
    this.onChange();
  }
}

export class SimStore {
  readonly companies = this.table<TSimCompany>();
  readonly contacts = this.table<TSimContact>();
  readonly members = this.table<TSimMember>();
  readonly boards = this.table<TSimBoard>();
  readonly boardTypes = this.table<TSimBoardType>();
  readonly boardSubTypes = this.table<TSimBoardSubType>();
  readonly boardItems = this.table<TSimBoardItem>();
  readonly statuses = this.table<TSimStatus>();
  readonly boardTeams = this.table<TSimBoardTeam>();
  readonly priorities = this.table<TSimPriority>();
  readonly sources = this.table<TSimNamed>();
  readonly companyTypes = this.table<TSimNamed>();
  readonly communicationTypes = this.table<TSimCommunicationType>();
  readonly departments = this.table<TSimDepartment>();
  readonly locations = this.table<TSimNamed>();
  readonly tickets = this.table<TSimTicket>();
  readonly notes = this.table<TSimNote>();
  readonly callbacks = this.table<TSimCallback>();
  readonly webhooks = this.table<TSimWebhook>();
  readonly timeEntries = this.table<TSimTimeEntry>();
  readonly attachments = this.table<TSimAttachment>();
  /** Notes per ticket, so note listings do not scan every note of a scaled store. */
  private readonly notesByTicket = new Map<number, number[]>();
  private readonly listeners = new Set<TTicketChangeListener>();
  private readonly changeListeners = new Set<() => void>();

  constructor(readonly now: () => number = Date.now) {}

  /** Every table tells the store's change listeners of each write (see onChange). */
  private table<TRow extends { id: number }>(): SimTable<TRow> {
    return new SimTable<TRow>(() => {
      for (const listener of this.changeListeners) listener();
    });
  }

  /** The tables by name, in declaration order: what a saved copy of the store holds. */
  tablesByName(): Map<string, SimTable<{ id: number }>> {
    return new Map(Object.entries(this).filter((entry): entry is [string, SimTable<{ id: number }>] => entry[1] instanceof SimTable));
  }

  /** Hears any change to any table (a row written or deleted, numbering raised); answers the way to stop listening. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  addNote(note: Omit<TSimNote, 'id'>): TSimNote {
    const created = this.notes.insert(note);
    this.indexNote(created);
    return created;
  }

  /** Puts a note under its own id (a saved store read back), keeping the per-ticket index. */
  putNote(note: TSimNote): TSimNote {
    const isNew = this.notes.get(note.id) === undefined;
    this.notes.put(note);
    if (isNew) this.indexNote(note);
    return note;
  }

  private indexNote(note: TSimNote): void {
    const list = this.notesByTicket.get(note.ticketId);
    if (list) list.push(note.id);
    else this.notesByTicket.set(note.ticketId, [note.id]);
  }

  notesOfTicket(ticketId: number): TSimNote[] {
    const ids = this.notesByTicket.get(ticketId) ?? [];
    return ids.map((id) => this.notes.get(id)).filter((note): note is TSimNote => note !== undefined);
  }

  timeEntriesOfTicket(ticketId: number): TSimTimeEntry[] {
    return [...this.timeEntries.all()].filter((entry) => entry.ticketId === ticketId);
  }

  attachmentsOfTicket(ticketId: number): TSimAttachment[] {
    return [...this.attachments.all()].filter((attachment) => attachment.ticketId === ticketId);
  }

  defaultBoard(): TSimBoard | undefined {
    for (const board of this.boards.all()) return board;
    return undefined;
  }

  newStatusOf(boardId: number): TSimStatus | undefined {
    const statuses = [...this.statuses.all()].filter((status) => status.boardId === boardId);
    return statuses.find((status) => status.isNew) ?? statuses[0];
  }

  onTicketChange(listener: TTicketChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Replaces a ticket and tells listeners which fields changed. */
  updateTicket(next: TSimTicket, via: TTicketChange['via'], isCallbackSkipped = false, actorResourceId: number | null = null): TSimTicket {
    const previous = this.tickets.get(next.id);
    this.tickets.put(next);
    const changedFields = previous ? (Object.keys(next) as (keyof TSimTicket)[]).filter((key) => key !== 'updatedAt' && previous[key] !== next[key]) : [];
    this.emitTicketChange({ action: 'updated', ticket: next, changedFields, via, isCallbackSkipped, actorResourceId });
    return next;
  }

  emitTicketChange(change: TTicketChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
