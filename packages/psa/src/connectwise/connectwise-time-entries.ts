import { lookUpFirst } from '../http/create-options';
import { isSameTimeEntry, timeEntrySpan } from '../time-entry-span';
import type { TAddPsaTimeEntry, TPsaTimeEntry } from '../psa-client';
import { checkId } from '../record-id';
import type { ConnectWiseApi } from './connectwise-api';
import { Condition, eq } from './conditions';
import * as map from './connectwise-mappers';

const chargeToServiceTicket = 'ServiceTicket';

/** Time entries charged to one service ticket, optionally of one member. */
function entriesOf(api: ConnectWiseApi, ticketId: number, memberId?: number): Promise<TPsaTimeEntry[]> {
  const conditions = [eq('chargeToType', chargeToServiceTicket), eq('chargeToId', checkId(ticketId))];
  if (memberId !== undefined) conditions.push(eq('member/id', checkId(memberId)));
  return api.list('/time/entries', map.toTimeEntry, { conditions: Condition.and(...conditions) });
}

/**
 * `POST time/entries` charged to the ServiceTicket; ConnectWise derives actualHours from timeStart and timeEnd. A time
 * entry has no external reference, so an unknown outcome is resolved by ticket, member and start second: one member
 * cannot have worked two entries starting in the same second on one ticket.
 */
export async function addTimeEntry(api: ConnectWiseApi, input: TAddPsaTimeEntry): Promise<TPsaTimeEntry> {
  const span = timeEntrySpan(input);
  const body = {
    chargeToType: chargeToServiceTicket,
    chargeToId: checkId(input.ticketId),
    member: { id: checkId(input.memberId) },
    timeStart: span.startAt,
    timeEnd: span.endAt,
    notes: input.notes,
    // The notes stay on the time entry; the technician's notes reach the ticket through addNote, not twice.
    addToDetailDescriptionFlag: false,
    addToInternalAnalysisFlag: false,
    addToResolutionFlag: false,
  };
  return api.create('/time/entries', body, map.toTimeEntry, async () => {
    const entries = await entriesOf(api, input.ticketId, input.memberId);
    return entries.find((entry) => isSameTimeEntry(entry, { ...span, notes: input.notes })) ?? null;
  }, lookUpFirst);
}

export async function listTimeEntries(api: ConnectWiseApi, ticketId: number): Promise<TPsaTimeEntry[]> {
  return (await entriesOf(api, ticketId)).sort((a, b) => Date.parse(a.startAt) - Date.parse(b.startAt) || a.id - b.id);
}
