import { isRecord } from '../http';
import type { SimStore, SimTable, TSimLevel, TSimTicket } from '../store';
import type { TCwValidationError } from './common';

// Maps a ConnectWise Ticket body (POST/PUT, or the patched ticket of a PATCH) onto the logical ticket, validating references.

type TTicketFields = Omit<TSimTicket, 'id'>;

export interface TTicketInputResult {
  ticket: TTicketFields;
  initialNotes: { text: string; isDescription: boolean; isInternal: boolean; isResolution: boolean }[];
  skipCallback: boolean;
}

const SUMMARY_MAX = 100;
const LEVELS: readonly TSimLevel[] = ['Low', 'Medium', 'High'];
/** ConnectWise's limits on the free-text reporter fields. */
const REPORTER_LIMITS = { contactName: 62, contactEmailAddress: 250, contactPhoneNumber: 20 } as const;

function readLevel(value: unknown, field: 'impact' | 'severity', errors: TCwValidationError[]): TSimLevel | undefined {
  if (value === undefined || value === null) return undefined;
  const level = LEVELS.find((candidate) => typeof value === 'string' && candidate.toLowerCase() === value.toLowerCase());
  if (!level) errors.push({ code: 'InvalidField', message: `${field} must be one of Low, Medium, High.`, resource: 'ticket', field });
  return level;
}

function readReporter(input: Record<string, unknown>, field: keyof typeof REPORTER_LIMITS, errors: TCwValidationError[]): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    errors.push({ code: 'InvalidField', message: `${field} must be a string.`, resource: 'ticket', field });
    return undefined;
  }
  if (value.length > REPORTER_LIMITS[field]) errors.push({ code: 'InvalidField', message: `${field} must be at most ${REPORTER_LIMITS[field]} characters.`, resource: 'ticket', field });
  return value.trim();
}
const EXTERNAL_XREF_MAX = 100;

interface TReferenceLookup<TRow extends { id: number }> {
  table: SimTable<TRow>;
  label: string;
  field: string;
  matchesName: (row: TRow, name: string) => boolean;
  isAllowed?: (row: TRow) => boolean;
}

/** Resolves a reference object by id, then identifier or name, as ConnectWise accepts `{id}` or `{identifier}`/`{name}`. */
function resolveReference<TRow extends { id: number }>(
  value: unknown,
  lookup: TReferenceLookup<TRow>,
  errors: TCwValidationError[],
): TRow | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isRecord(value)) {
    errors.push({ code: 'InvalidField', message: `${lookup.label} must be an object reference such as {"id": 1}.`, resource: 'ticket', field: lookup.field });
    return undefined;
  }
  let row: TRow | undefined;
  if (typeof value.id === 'number') row = lookup.table.get(value.id);
  else {
    const name = typeof value.identifier === 'string' ? value.identifier : typeof value.name === 'string' ? value.name : undefined;
    if (name !== undefined) row = [...lookup.table.all()].find((candidate) => lookup.matchesName(candidate, name));
  }
  if (!row || (lookup.isAllowed && !lookup.isAllowed(row))) {
    const shown = JSON.stringify(value);
    errors.push({ code: 'InvalidObject', message: `${lookup.label} ${shown} is not valid or was not found.`, resource: 'ticket', field: lookup.field });
    return undefined;
  }
  return row;
}

function byName(row: { name: string }, name: string): boolean {
  return row.name.toLowerCase() === name.toLowerCase();
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function parseDate(value: unknown, field: string, errors: TCwValidationError[]): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    errors.push({ code: 'InvalidField', message: `${field} must be an ISO 8601 date.`, resource: 'ticket', field });
    return undefined;
  }
  return time;
}

export function readTicketInput(store: SimStore, input: Record<string, unknown>, base: TSimTicket | null): TTicketInputResult | { errors: TCwValidationError[] } {
  const errors: TCwValidationError[] = [];
  const now = store.now();
  const summary = input.summary;
  if (typeof summary !== 'string' || summary.trim() === '') {
    errors.push({ code: 'MissingRequiredField', message: 'summary is required.', resource: 'ticket', field: 'summary' });
  } else if (summary.length > SUMMARY_MAX) {
    errors.push({ code: 'InvalidField', message: `summary must be at most ${SUMMARY_MAX} characters.`, resource: 'ticket', field: 'summary' });
  }
  if (input.company === undefined || input.company === null) {
    errors.push({ code: 'MissingRequiredField', message: 'company is required.', resource: 'ticket', field: 'company' });
  }
  const company = resolveReference(input.company, { table: store.companies, label: 'Company', field: 'company', matchesName: (row, name) => row.identifier.toLowerCase() === name.toLowerCase() || byName(row, name) }, errors);
  const board = resolveReference(input.board, { table: store.boards, label: 'Board', field: 'board', matchesName: byName }, errors) ?? (base ? store.boards.get(base.boardId) : store.defaultBoard());
  if (!board) errors.push({ code: 'MissingRequiredField', message: 'board is required.', resource: 'ticket', field: 'board' });
  const boardId = board?.id ?? 0;
  const isBoardChanged = base !== null && base.boardId !== boardId;
  const statusInput = isBoardChanged && isRecord(input.status) && input.status.id === base.statusId ? undefined : input.status;
  const status =
    resolveReference(statusInput, { table: store.statuses, label: 'Status', field: 'status', matchesName: byName, isAllowed: (row) => row.boardId === boardId }, errors) ??
    (base && !isBoardChanged ? store.statuses.get(base.statusId) : store.newStatusOf(boardId));
  const isOnBoard = (row: { boardId: number }): boolean => row.boardId === boardId;
  const type = resolveReference(input.type, { table: store.boardTypes, label: 'Type', field: 'type', matchesName: byName, isAllowed: isOnBoard }, errors);
  const subType = resolveReference(
    input.subType,
    { table: store.boardSubTypes, label: 'SubType', field: 'subType', matchesName: byName, isAllowed: (row) => isOnBoard(row) && (!type || row.typeIds.includes(type.id)) },
    errors,
  );
  const item = resolveReference(input.item, { table: store.boardItems, label: 'Item', field: 'item', matchesName: byName, isAllowed: (row) => isOnBoard(row) && (!subType || row.subTypeIds.length === 0 || row.subTypeIds.includes(subType.id)) }, errors);
  const contact = resolveReference(input.contact, { table: store.contacts, label: 'Contact', field: 'contact', matchesName: (row, name) => `${row.firstName} ${row.lastName}`.toLowerCase() === name.toLowerCase() }, errors);
  const priority = resolveReference(input.priority, { table: store.priorities, label: 'Priority', field: 'priority', matchesName: byName }, errors);
  const owner = resolveReference(input.owner, { table: store.members, label: 'Member', field: 'owner', matchesName: (row, name) => row.identifier.toLowerCase() === name.toLowerCase() }, errors);
  const team = resolveReference(input.team, { table: store.boardTeams, label: 'Team', field: 'team', matchesName: byName, isAllowed: isOnBoard }, errors);
  const source = resolveReference(input.source, { table: store.sources, label: 'Source', field: 'source', matchesName: byName }, errors);
  const externalXRef = optionalText(input.externalXRef);
  if (externalXRef !== undefined && externalXRef.length > EXTERNAL_XREF_MAX) {
    errors.push({ code: 'InvalidField', message: `externalXRef must be at most ${EXTERNAL_XREF_MAX} characters.`, resource: 'ticket', field: 'externalXRef' });
  }
  const dueAt = parseDate(input.requiredDate, 'requiredDate', errors);
  // A PATCH sends back the whole presented ticket, whose defaults (Medium, the contact's own name) are no change.
  const unlessShown = <T>(value: T | undefined, shown: T | undefined): T | undefined => (value === shown ? undefined : value);
  const baseContact = base?.contactId ? store.contacts.get(base.contactId) : undefined;
  const impact = unlessShown(readLevel(input.impact, 'impact', errors), base ? (base.impact ?? 'Medium') : undefined);
  const severity = unlessShown(readLevel(input.severity, 'severity', errors), base ? (base.severity ?? 'Medium') : undefined);
  const reporterName = unlessShown(readReporter(input, 'contactName', errors), base?.reporterName || (baseContact ? `${baseContact.firstName} ${baseContact.lastName}` : undefined));
  const reporterEmail = unlessShown(readReporter(input, 'contactEmailAddress', errors), base?.reporterEmail || baseContact?.email);
  const reporterPhone = unlessShown(readReporter(input, 'contactPhoneNumber', errors), base?.reporterPhone || baseContact?.phone);
  if (errors.length > 0 || !company || !board || !status || typeof summary !== 'string') return { errors };
  const closedAt = status.isClosed ? (base?.closedAt ?? now) : null;
  const ticket: TTicketFields = {
    summary: summary.trim(),
    boardId: board.id,
    statusId: status.id,
    companyId: company.id,
    contactId: contact === undefined ? (base?.contactId ?? null) : (contact?.id ?? null),
    typeId: type === undefined ? (isBoardChanged ? null : (base?.typeId ?? null)) : (type?.id ?? null),
    subTypeId: subType === undefined ? (isBoardChanged ? null : (base?.subTypeId ?? null)) : (subType?.id ?? null),
    itemId: item === undefined ? (isBoardChanged ? null : (base?.itemId ?? null)) : (item?.id ?? null),
    priorityId: priority === undefined ? (base?.priorityId ?? [...store.priorities.all()].find((row) => row.isDefault)?.id ?? null) : (priority?.id ?? null),
    ownerId: owner === undefined ? (base?.ownerId ?? null) : (owner?.id ?? null),
    teamId: team === undefined ? (isBoardChanged ? null : (base?.teamId ?? null)) : (team?.id ?? null),
    sourceId: source === undefined ? (base?.sourceId ?? null) : (source?.id ?? null),
    ticketTypeValue: base?.ticketTypeValue ?? 1,
    ticketCategoryValue: base?.ticketCategoryValue ?? 1,
    description: base?.description ?? optionalText(input.initialDescription) ?? '',
    resolution: base?.resolution ?? optionalText(input.initialResolution) ?? '',
    externalReference: externalXRef ?? base?.externalReference ?? '',
    dueAt: dueAt === undefined ? (base?.dueAt ?? null) : dueAt,
    createdAt: base?.createdAt ?? now,
    updatedAt: now,
    closedAt,
    closedBy: closedAt === null ? null : (base?.closedBy ?? 'SimAPI'),
    impact: impact ?? base?.impact,
    severity: severity ?? base?.severity,
    reporterName: reporterName ?? base?.reporterName,
    reporterEmail: reporterEmail ?? base?.reporterEmail,
    reporterPhone: reporterPhone ?? base?.reporterPhone,
  };
  const initialNotes: TTicketInputResult['initialNotes'] = [];
  if (!base) {
    const description = optionalText(input.initialDescription);
    const analysis = optionalText(input.initialInternalAnalysis);
    const resolution = optionalText(input.initialResolution);
    if (description) initialNotes.push({ text: description, isDescription: true, isInternal: false, isResolution: false });
    if (analysis) initialNotes.push({ text: analysis, isDescription: false, isInternal: true, isResolution: false });
    if (resolution) initialNotes.push({ text: resolution, isDescription: false, isInternal: false, isResolution: true });
  }
  return { ticket, initialNotes, skipCallback: input.skipCallback === true };
}
