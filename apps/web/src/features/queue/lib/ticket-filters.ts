import type { TBoardChoices, TChoice } from './board-choices';
import type { TTicketFilters } from '../queue-types';

/**
 * The values each filter offers, from the MSP's configured boards: types narrow to the
 * chosen board, subtypes to the chosen type. Values are the PSA ids the server filters by.
 */
export function filterOptions(boards: readonly TBoardChoices[], field: keyof TTicketFilters, filters: TTicketFilters): TChoice[] {
  const inBoard = filters.board === 'all' ? boards : boards.filter((board) => board.boardId === filters.board);
  const unique = (items: TChoice[]) => [...new Map(items.map((item) => [item.id, item])).values()].sort((a, b) => a.name.localeCompare(b.name));
  switch (field) {
    case 'board':
      return boards.map((board) => ({ id: board.boardId, name: board.boardName }));
    case 'type':
      return unique(inBoard.flatMap((board) => board.types.map((type) => ({ id: type.id, name: type.name }))));
    case 'subtype': {
      const types = inBoard.flatMap((board) => board.types).filter((type) => filters.type === 'all' || type.id === filters.type);
      return unique(types.flatMap((type) => type.subtypes.map((subtype) => ({ id: subtype.id, name: subtype.name }))));
    }
    case 'priority':
      return unique(inBoard.flatMap((board) => board.priorities));
  }
}

/** Setting one filter clears the ones below it: a subtype belongs to a type, a type to a board. */
export function setFilter(filters: TTicketFilters, field: keyof TTicketFilters, value: string): TTicketFilters {
  if (field === 'board') return { ...filters, board: value, type: 'all', subtype: 'all' };
  if (field === 'type') return { ...filters, type: value, subtype: 'all' };
  return { ...filters, [field]: value };
}
