import { PsaError } from '../errors';
import { parsePsaPayload } from '../http/parse';
import type { TPsaNote } from '../psa-client';
import * as map from './autotask-mappers';
import { defaultOf, type TEntityFields } from './picklists';

export function toNote(row: map.TAutotaskNoteRow, ticketId: number, kindValues: map.TNoteKindValues): TPsaNote {
  return {
    id: row.id,
    ticketId: row.ticketID ?? ticketId,
    text: row.description ?? '',
    kind: map.noteKindOf(row, kindValues),
    isInternal: map.isInternalNote(row, kindValues),
    createdAt: row.createDateTime ?? null,
    createdBy: row.creatorResourceID === null || row.creatorResourceID === undefined ? null : String(row.creatorResourceID),
  };
}

/** The `{itemId}` Autotask answers a create or update with. */
export function itemIdOf(body: unknown): number {
  return parsePsaPayload(map.ZItemIdEnvelope, body, 'create result').itemId;
}

/** The `{item}` of a get by id; `{item: null}` means there is no such record. */
export function itemOf(body: unknown): unknown {
  const envelope = parsePsaPayload(map.ZItemEnvelope, body, 'record');
  if (envelope.item === null || envelope.item === undefined) throw new PsaError('not_found', 'Autotask has no such record.');
  return envelope.item;
}

/** Autotask notes need a title; the first line of the text serves. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  return (line || 'Note').slice(0, 250);
}

/** Note picklists read by label: who may see a note (publish) and its type, resolved per tenant. */
export function noteSettingsFrom(fields: TEntityFields) {
  const publish = fields.picklist('publish').filter((value) => value.isActive);
  const noteTypes = fields.picklist('noteType').filter((value) => value.isActive);
  const internal = publish.filter((value) => /internal/i.test(value.label));
  const everyone = publish.find((value) => /^all/i.test(value.label)) ?? publish.find((value) => !/internal/i.test(value.label));
  const resolutionType = noteTypes.find((value) => /resolution/i.test(value.label));
  const ordinaryType = defaultOf(noteTypes.filter((value) => value !== resolutionType)) ?? defaultOf(noteTypes);
  return {
    internalPublish: internal[0]?.value,
    everyonePublish: everyone?.value,
    ordinaryNoteType: ordinaryType?.value,
    resolutionNoteType: resolutionType?.value ?? ordinaryType?.value,
    kindValues: {
      internalPublishValues: new Set(internal.map((value) => value.value)),
      everyonePublishValues: new Set(everyone === undefined ? [] : [everyone.value]),
      resolutionNoteType: resolutionType?.value ?? null,
    },
  };
}
