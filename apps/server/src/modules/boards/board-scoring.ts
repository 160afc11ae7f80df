import { BOARD_DEFAULTS, SLA_HOURS_MAX, type TEditableBoard, type TPsaType, type TScoredBoard, type TScoreSuggestion, type TSubTypeSuggestion, type TTier } from '@switchboard/contracts';

/**
 * A-052 from history (the MSP's AI model, when it has one, fills the gaps: board-scoring-ai.ts): the board's priority and subtype scores, tiers and SLA hours suggested
 * from the MSP's own closed tickets, each number with the sentence that says where it came from.
 */

/** One closed ticket of the board, as the synchronized copy holds it. */
export interface THistoryTicket {
  typeId: string | null;
  typeName: string | null;
  subtypeId: string | null;
  subtypeName: string | null;
  priorityId: string | null;
  priorityName: string | null;
  timeSpentMinutes: number | null;
  createdAt: Date | null;
  closedAt: Date | null;
}

export interface TPriorityLevel {
  id: number;
  name: string;
  sortOrder: number;
}

/** Fewer closed tickets than this and a subtype keeps the 01 §5 defaults: a couple of tickets say little. */
export const MIN_TICKETS_FOR_SUGGESTION = 3;
/** The SLA suggestion: the share of closed tickets resolved within it. */
export const SLA_PERCENTILE = 0.8;
/** Median minutes of work per ticket up to which a subtype suggests Tier1, then Tier2; above, Tier3. */
export const TIER_MINUTES = { Tier1: 30, Tier2: 90 } as const;
const TIER_RULES: Record<TTier, string> = {
  Tier1: `${TIER_MINUTES.Tier1} min or less: Tier1`,
  Tier2: `${TIER_MINUTES.Tier1 + 1}–${TIER_MINUTES.Tier2} min: Tier2`,
  Tier3: `over ${TIER_MINUTES.Tier2} min: Tier3`,
};

const sameName = (a: string | null, b: string | null) => a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
const formatNumber = (value: number) => Math.round(value).toLocaleString('en-US');
const plural = (count: number, one: string, many = `${one}s`) => `${formatNumber(count)} ${count === 1 ? one : many}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** Nearest-rank percentile. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[rank - 1] ?? 0;
}

/**
 * The score a priority level stands for: the PSA's priorities in their own order, the first worth
 * 100 and each next one 100/N less (four priorities: 100, 75, 50, 25 — the default template's).
 */
export function priorityLevelScores(priorities: TPriorityLevel[]): Map<number, { score: number; rank: number; name: string }> {
  const ordered = [...priorities].sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id);
  const levels = new Map<number, { score: number; rank: number; name: string }>();
  ordered.forEach((priority, index) => levels.set(priority.id, { score: Math.round((100 * (ordered.length - index)) / ordered.length), rank: index + 1, name: priority.name }));
  return levels;
}

function findPriority(ticket: THistoryTicket, priorities: TPriorityLevel[]): TPriorityLevel | undefined {
  return priorities.find((priority) => String(priority.id) === ticket.priorityId) ?? priorities.find((priority) => sameName(priority.name, ticket.priorityName));
}

/** A ticket belongs to a subtype by the PSA's ids, or by names when the subtype is new or the copy lacks ids. */
function isTicketOf(ticket: THistoryTicket, type: { typeId: number | null; typeName: string }, subType: { subTypeId: number | null; subTypeName: string }): boolean {
  const subtypeMatches = subType.subTypeId !== null && ticket.subtypeId !== null ? ticket.subtypeId === String(subType.subTypeId) : sameName(ticket.subtypeName, subType.subTypeName);
  if (!subtypeMatches) return false;
  if (type.typeId !== null && ticket.typeId !== null) return ticket.typeId === String(type.typeId);
  return ticket.typeName === null || sameName(ticket.typeName, type.typeName);
}

const defaultSuggestion = (value: number, why: string): TScoreSuggestion => ({ value, source: 'default', explanation: why });

interface TSubTypeStats {
  tickets: THistoryTicket[];
  totalMinutes: number;
  minutesKnown: number;
}

/** Scores a board from its closed-ticket history; with too little history every number is the 01 §5 default, and says so. */
export function scoreBoard(board: TEditableBoard, history: THistoryTicket[], priorities: TPriorityLevel[], psaType: TPsaType): TScoredBoard {
  const levels = priorityLevelScores(priorities);
  const defaultSla = BOARD_DEFAULTS.slaHours[psaType];

  const stats = new Map<string, TSubTypeStats>();
  const keyOf = (typeIndex: number, subIndex: number) => `${typeIndex}:${subIndex}`;
  board.mspConnectWiseBoardTypes.forEach((type, typeIndex) =>
    type.mspConnectWiseBoardSubTypes.forEach((subType, subIndex) => {
      const tickets = history.filter((ticket) => isTicketOf(ticket, type, subType));
      const timed = tickets.filter((ticket) => ticket.timeSpentMinutes !== null);
      stats.set(keyOf(typeIndex, subIndex), { tickets, totalMinutes: timed.reduce((sum, ticket) => sum + (ticket.timeSpentMinutes ?? 0), 0), minutesKnown: timed.length });
    }),
  );
  const eligible = [...stats.values()].filter((entry) => entry.tickets.length >= MIN_TICKETS_FOR_SUGGESTION);
  const useMinutes = eligible.some((entry) => entry.minutesKnown > 0);
  const weightOf = (entry: TSubTypeStats) => (useMinutes ? entry.totalMinutes : entry.tickets.length);
  let busiest: { weight: number; name: string } = { weight: 0, name: '' };
  board.mspConnectWiseBoardTypes.forEach((type, typeIndex) =>
    type.mspConnectWiseBoardSubTypes.forEach((subType, subIndex) => {
      const entry = stats.get(keyOf(typeIndex, subIndex));
      if (entry && entry.tickets.length >= MIN_TICKETS_FOR_SUGGESTION && weightOf(entry) > busiest.weight) busiest = { weight: weightOf(entry), name: `${type.typeName} / ${subType.subTypeName}` };
    }),
  );

  const suggestions: TSubTypeSuggestion[] = [];
  const scoredTypes = board.mspConnectWiseBoardTypes.map((type, typeIndex) => ({
    ...type,
    mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((subType, subIndex) => {
      const entry = stats.get(keyOf(typeIndex, subIndex)) ?? { tickets: [], totalMinutes: 0, minutesKnown: 0 };
      const suggestion = suggestForSubType(type, subType, entry);
      suggestions.push(suggestion);
      return withSuggestion(subType, suggestion);
    }),
  }));

  function suggestForSubType(type: TEditableBoard['mspConnectWiseBoardTypes'][number], subType: TEditableBoard['mspConnectWiseBoardTypes'][number]['mspConnectWiseBoardSubTypes'][number], entry: TSubTypeStats): TSubTypeSuggestion {
    const count = entry.tickets.length;
    const base = { typeId: type.typeId, typeName: type.typeName, subTypeId: subType.subTypeId, subTypeName: subType.subTypeName, ticketCount: count };
    if (count < MIN_TICKETS_FOR_SUGGESTION) {
      const why =
        history.length === 0
          ? 'No closed tickets of this board in the synchronized history yet, so the 01 §5 default applies.'
          : `Only ${plural(count, 'closed ticket')} of this subtype in the history (${MIN_TICKETS_FOR_SUGGESTION} needed), so the 01 §5 default applies.`;
      return {
        ...base,
        priorityScore: defaultSuggestion(BOARD_DEFAULTS.priorityScore, why),
        subTypeScore: defaultSuggestion(BOARD_DEFAULTS.subTypeScore, why),
        slaDeadLineInHours: defaultSuggestion(subType.isNew ? BOARD_DEFAULTS.newSubTypeSlaHours : defaultSla, why),
        tier: { value: BOARD_DEFAULTS.tier, source: 'default', explanation: why },
        suggestedPriority: null,
      };
    }
    return {
      ...base,
      priorityScore: suggestPriorityScore(entry.tickets),
      subTypeScore: suggestSubTypeScore(entry),
      slaDeadLineInHours: suggestSla(entry.tickets),
      tier: suggestTier(entry),
      suggestedPriority: mostCommonPriority(entry.tickets),
    };
  }

  function suggestPriorityScore(tickets: THistoryTicket[]): TScoreSuggestion {
    const counts = new Map<number, number>();
    for (const ticket of tickets) {
      const priority = findPriority(ticket, priorities);
      if (priority) counts.set(priority.id, (counts.get(priority.id) ?? 0) + 1);
    }
    const rated = [...counts.values()].reduce((sum, value) => sum + value, 0);
    if (rated === 0) return defaultSuggestion(BOARD_DEFAULTS.priorityScore, `None of the ${plural(tickets.length, 'ticket')} has a priority the PSA still knows, so the 01 §5 default applies.`);
    let total = 0;
    const parts: string[] = [];
    for (const [priorityId, count] of [...counts.entries()].sort((a, b) => (levels.get(a[0])?.rank ?? 0) - (levels.get(b[0])?.rank ?? 0))) {
      const level = levels.get(priorityId);
      if (!level) continue;
      total += level.score * count;
      parts.push(`${formatNumber(count)} × ${level.name} (${level.score})`);
    }
    const value = Math.round(total / rated);
    return { value, source: 'history', explanation: `Mean priority of ${plural(rated, 'closed ticket')}: ${parts.join(', ')}.` };
  }

  function suggestSubTypeScore(entry: TSubTypeStats): TScoreSuggestion {
    const weight = weightOf(entry);
    const value = busiest.weight === 0 ? 0 : Math.round((100 * weight) / busiest.weight);
    const what = useMinutes ? `${formatNumber(entry.totalMinutes)} min of work over ${plural(entry.tickets.length, 'ticket')}` : plural(entry.tickets.length, 'ticket');
    const measure = useMinutes ? `${formatNumber(busiest.weight)} min` : plural(busiest.weight, 'ticket');
    return { value, source: 'history', explanation: `${what}; the busiest subtype of this board (${busiest.name}, ${measure}) scores 100.` };
  }

  function suggestSla(tickets: THistoryTicket[]): TScoreSuggestion {
    const hours = tickets.flatMap((ticket) => (ticket.createdAt && ticket.closedAt && ticket.closedAt >= ticket.createdAt ? [(ticket.closedAt.getTime() - ticket.createdAt.getTime()) / 3_600_000] : []));
    if (hours.length < MIN_TICKETS_FOR_SUGGESTION) {
      return defaultSuggestion(defaultSla, `Only ${plural(hours.length, 'ticket')} with both an opened and a closed time, so the 01 §5 default applies.`);
    }
    const value = Math.min(SLA_HOURS_MAX, Math.max(1, Math.ceil(percentile(hours, SLA_PERCENTILE))));
    return {
      value,
      source: 'history',
      explanation: `${Math.round(SLA_PERCENTILE * 100)}% of ${plural(hours.length, 'closed ticket')} were resolved within ${formatNumber(value)} h (median ${formatNumber(Math.max(1, median(hours)))} h).`,
    };
  }

  function suggestTier(entry: TSubTypeStats): TSubTypeSuggestion['tier'] {
    const minutes = entry.tickets.flatMap((ticket) => (ticket.timeSpentMinutes === null ? [] : [ticket.timeSpentMinutes]));
    if (minutes.length < MIN_TICKETS_FOR_SUGGESTION) return { value: BOARD_DEFAULTS.tier, source: 'default', explanation: 'Too few tickets with time entries, so the default tier applies.' };
    const middle = median(minutes);
    const value: TTier = middle <= TIER_MINUTES.Tier1 ? 'Tier1' : middle <= TIER_MINUTES.Tier2 ? 'Tier2' : 'Tier3';
    return {
      value,
      source: 'history',
      explanation: `Median ${formatNumber(middle)} min of work per ticket over ${plural(minutes.length, 'ticket')} (${TIER_RULES[value]}).`,
    };
  }

  function mostCommonPriority(tickets: THistoryTicket[]): TSubTypeSuggestion['suggestedPriority'] {
    const counts = new Map<number, { count: number; priority: TPriorityLevel }>();
    for (const ticket of tickets) {
      const priority = findPriority(ticket, priorities);
      if (priority) counts.set(priority.id, { count: (counts.get(priority.id)?.count ?? 0) + 1, priority });
    }
    const top = [...counts.values()].sort((a, b) => b.count - a.count || (levels.get(a.priority.id)?.rank ?? 0) - (levels.get(b.priority.id)?.rank ?? 0))[0];
    return top ? { priorityId: top.priority.id, priority: top.priority.name } : null;
  }

  const usage = new Map<number, number>();
  for (const ticket of history) {
    const priority = findPriority(ticket, priorities);
    if (priority) usage.set(priority.id, (usage.get(priority.id) ?? 0) + 1);
  }
  const prioritySuggestions = [...priorities]
    .sort((a, b) => a.sortOrder - b.sortOrder || a.id - b.id)
    .map((priority) => {
      const level = levels.get(priority.id) ?? { score: 0, rank: 0, name: priority.name };
      return {
        priorityId: priority.id,
        priority: priority.name,
        priorityScore: {
          value: level.score,
          source: 'psa' as const,
          explanation: `Priority ${level.rank} of ${priorities.length} in the PSA's order: 100 × ${priorities.length - level.rank + 1}/${priorities.length} = ${level.score}; ${plural(usage.get(priority.id) ?? 0, 'closed ticket')} of this board had it.`,
        },
      };
    });

  const dates = history.flatMap((ticket) => (ticket.createdAt ? [ticket.createdAt.getTime()] : []));
  return {
    board: {
      ...board,
      mspConnectWiseBoardTypes: scoredTypes,
      priorities: prioritySuggestions.map((entry) => ({ priorityId: entry.priorityId, priority: entry.priority, priorityScore: entry.priorityScore.value })),
    },
    suggestions,
    prioritySuggestions,
    history: {
      ticketCount: history.length,
      from: dates.length === 0 ? null : new Date(dates.reduce((a, b) => Math.min(a, b))).toISOString(),
      to: dates.length === 0 ? null : new Date(dates.reduce((a, b) => Math.max(a, b))).toISOString(),
    },
    method: 'ticket-history',
    ai: null,
  };
}

/** A subtype with a suggestion's numbers (and its suggested priority, when it has one) applied. */
export function withSuggestion<T extends object>(subType: T, suggestion: TSubTypeSuggestion): T {
  return {
    ...subType,
    priorityScore: suggestion.priorityScore.value,
    subTypeScore: suggestion.subTypeScore.value,
    slaDeadLineInHours: suggestion.slaDeadLineInHours.value,
    tier: suggestion.tier.value,
    ...(suggestion.suggestedPriority ? { priorityId: suggestion.suggestedPriority.priorityId, priority: suggestion.suggestedPriority.priority } : {}),
  };
}
