// The board as the categoriser sees it: a list of types (each a board/type pair) and, per type, its
// subtypes. Class indices point into these lists, so a proposal is always a pair that exists.
import type { TBoardCatalogue, TCandidate, TTrainingTicket } from '../types';

export interface TTypeClass {
  boardId: string;
  boardName: string;
  typeId: string;
  typeName: string;
  subtypes: { id: string; name: string; priorityId: string | null; tier: string | null; slaHours: number | null }[];
}

export function nameKey(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function indexBoard(board: TBoardCatalogue): TTypeClass[] {
  const types: TTypeClass[] = [];
  for (const b of board.boards) {
    for (const t of b.types) {
      if (t.subtypes.length === 0) continue; // a type without subtypes cannot be proposed as a pair
      types.push({
        boardId: b.id,
        boardName: b.name,
        typeId: t.id,
        typeName: t.name,
        subtypes: t.subtypes.map((s) => ({ id: s.id, name: s.name, priorityId: s.priorityId ?? null, tier: s.tier ?? null, slaHours: s.slaHours ?? null })),
      });
    }
  }
  return types;
}

/** Finds the (type, subtype) class of a ticket labelled by names; null when the board has no such pair. */
export function labelOf(types: TTypeClass[], ticket: Pick<TTrainingTicket, 'typeName' | 'subtypeName' | 'boardId'>): { type: number; subtype: number } | null {
  const typeKey = nameKey(ticket.typeName);
  const subtypeKey = nameKey(ticket.subtypeName);
  for (let t = 0; t < types.length; t += 1) {
    const type = types[t];
    if (!type || nameKey(type.typeName) !== typeKey) continue;
    if (ticket.boardId && type.boardId !== ticket.boardId) continue;
    const s = type.subtypes.findIndex((sub) => nameKey(sub.name) === subtypeKey);
    if (s >= 0) return { type: t, subtype: s };
  }
  return null;
}

export function candidateOf(types: TTypeClass[], type: number, subtype: number, confidence: number): TCandidate | null {
  const t = types[type];
  const s = t?.subtypes[subtype];
  if (!t || !s) return null;
  return {
    boardId: t.boardId,
    boardName: t.boardName,
    typeId: t.typeId,
    typeName: t.typeName,
    subtypeId: s.id,
    subtypeName: s.name,
    priorityId: s.priorityId,
    tier: s.tier,
    slaHours: s.slaHours,
    confidence,
  };
}
