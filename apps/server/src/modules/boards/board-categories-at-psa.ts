import type { PsaClient, TPsaSubtype, TPsaTicketType } from '@switchboard/psa';
import { validation } from '../../lib/app-error';
import { withPsaErrors } from '../integrations/psa-errors';

export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Ours (the spec words no such case): a new category whose name the PSA holds as an inactive type it cannot reactivate. */
export const typeInactiveMessage = (typeName: string) =>
  `The PSA already has an inactive category "${typeName}" that it cannot reactivate from here. Reactivate it in the PSA and reload the board, or choose another name.`;

/** Ours: a new subcategory whose name the PSA holds on this board but cannot put (active) under this category. */
export const subTypeNotUnderTypeMessage = (subTypeName: string, typeName: string) =>
  `The PSA already has a subcategory "${subTypeName}" on this board and cannot add it under the category "${typeName}". Add it under "${typeName}" in the PSA and reload the board, or choose another name.`;

export interface TBoardCategoryCounts {
  types: number;
  subTypes: number;
}

/**
 * One board's types and subtypes at the PSA, found by name (trimmed, any case), else made so, else created — the one
 * way put a category or subcategory on a board. `known` is what the PSA listed for the board;
 * it is kept current as calls change the PSA, and `created` / `updated` count those calls. `canUpdate` says whether
 * the PSA lets an existing type or subtype be reactivated or re-associated (ConnectWise yes, Autotask no).
 */
export function boardCategoriesAtPsa(client: PsaClient, boardId: number, canUpdate: { types: boolean; subTypes: boolean }, known: { types: TPsaTicketType[]; subtypes: TPsaSubtype[] }) {
  const types: TPsaTicketType[] = [...known.types];
  const subtypes: TPsaSubtype[] = [...known.subtypes];
  const created: TBoardCategoryCounts = { types: 0, subTypes: 0 };
  // Types reactivated, subtypes associated with one more type or reactivated.
  const updated: TBoardCategoryCounts = { types: 0, subTypes: 0 };

  /** The board's type of this name, active: found (reactivated if need be) or created. `at` names the field a refusal is about. */
  async function typeNamed(name: string, at: string): Promise<TPsaTicketType> {
    const existing = types.find((candidate) => sameName(candidate.name, name));
    if (!existing) {
      const type = await withPsaErrors(() => client.createType(boardId, { name: name.trim() }));
      types.push(type);
      created.types += 1;
      return type;
    }
    if (existing.isActive) return existing;
    // A-030 lists active types only: an inactive one reused as it is would vanish from the editor on reload.
    const refusal = typeInactiveMessage(existing.name);
    if (!canUpdate.types) throw validation(refusal, [{ name: at, reason: refusal }]);
    const type = await withPsaErrors(() => client.updateType(boardId, existing.id, { isActive: true }));
    if (!type.isActive) throw validation(refusal, [{ name: at, reason: refusal }]);
    types.splice(types.indexOf(existing), 1, type);
    updated.types += 1;
    return type;
  }

  /**
   * The board's subtype of this name, active and associated with the type: found, else the one of that name made so
   * at the PSA (its other associations kept), else created. ConnectWise keeps one subtype per name per board and links
   * it to types by its `typeAssociationIds`, refusing a second subtype of the name, so "Other" under two categories is
   * one subtype associated with both; reusing it without the association stores a row A-030 never shows (it lists a
   * type's associated, active subtypes), which the next save then drops, and the PSA refuses tickets of that type and subtype.
   */
  async function subtypeNamed(name: string, type: TPsaTicketType, at: string): Promise<TPsaSubtype> {
    const named = subtypes.filter((candidate) => sameName(candidate.name, name));
    const isUnder = (candidate: TPsaSubtype) => candidate.typeIds.includes(type.id);
    const existing = named.find((candidate) => isUnder(candidate) && candidate.isActive) ?? named.find(isUnder) ?? named.find((candidate) => candidate.isActive) ?? named[0];
    if (!existing) {
      const subtype = await withPsaErrors(() => client.createSubtype(boardId, { name: name.trim(), typeIds: [type.id] }));
      subtypes.push(subtype);
      created.subTypes += 1;
      return subtype;
    }
    if (existing.isActive && isUnder(existing)) return existing;
    const refusal = subTypeNotUnderTypeMessage(existing.name, type.name);
    if (!canUpdate.subTypes) throw validation(refusal, [{ name: at, reason: refusal }]);
    const change = { ...(isUnder(existing) ? {} : { typeIds: [...existing.typeIds, type.id] }), ...(existing.isActive ? {} : { isActive: true }) };
    const subtype = await withPsaErrors(() => client.updateSubtype(boardId, existing.id, change));
    // What the PSA answers is what A-030 will show: store nothing it did not take.
    if (!subtype.isActive || !isUnder(subtype)) throw validation(refusal, [{ name: at, reason: refusal }]);
    subtypes.splice(subtypes.indexOf(existing), 1, subtype);
    updated.subTypes += 1;
    return subtype;
  }

  /** The type or subtype of that id as the PSA holds it after the calls so far. */
  const typeById = (id: number | null) => types.find((candidate) => candidate.id === id);
  const subtypeById = (id: number | null) => subtypes.find((candidate) => candidate.id === id);

  return { typeNamed, subtypeNamed, typeById, subtypeById, created, updated };
}
