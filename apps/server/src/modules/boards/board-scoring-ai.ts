import type { TBoardScoreProposal, TBoardScoreRequest } from '@switchboard/assistant';
import { SCORE_MAX, SLA_HOURS_MAX, type TScoredBoard, type TScoreSuggestion, type TSubTypeSuggestion } from '@switchboard/contracts';
import { priorityLevelScores, withSuggestion, type TPriorityLevel } from './board-scoring';

/**
 * A-052 with the MSP's AI model (decision 024): what history could not support goes to the model, and
 * its validated numbers replace only those defaults, each marked `llm` with the model's reason.
 */

/** More subtypes than this on one board and the rest keep their defaults: one answer stays bounded. */
export const MAX_SUBTYPES_FOR_AI = 60;
/** Subtypes with history give the model its yardstick; this many is plenty. */
const MAX_EXAMPLES = 40;

type TNumberField = 'priorityScore' | 'subTypeScore' | 'slaDeadLineInHours' | 'tier';
const NUMBER_FIELDS: TNumberField[] = ['priorityScore', 'subTypeScore', 'slaDeadLineInHours', 'tier'];

const categoryOf = (suggestion: TSubTypeSuggestion) => `${suggestion.typeName} / ${suggestion.subTypeName}`;
/** The model's handle for a suggestion: its place in `suggestions`, never a PSA id (new subtypes have none). */
const keyOf = (index: number) => `S${index + 1}`;
const needsModel = (suggestion: TSubTypeSuggestion) => NUMBER_FIELDS.some((field) => suggestion[field].source === 'default');

/** The request for the model: the subtypes with at least one default number, and the history-backed ones as examples. */
export function aiScoreRequest(scored: TScoredBoard, boardName: string): TBoardScoreRequest {
  const wanted = scored.suggestions.flatMap((suggestion, index) => (needsModel(suggestion) ? [{ key: keyOf(index), category: categoryOf(suggestion), closedTickets: suggestion.ticketCount }] : []));
  const examples = scored.suggestions
    .filter((suggestion) => !needsModel(suggestion))
    .slice(0, MAX_EXAMPLES)
    .map((suggestion) => ({
      category: categoryOf(suggestion),
      closedTickets: suggestion.ticketCount,
      priorityScore: suggestion.priorityScore.value,
      subTypeScore: suggestion.subTypeScore.value,
      slaHours: suggestion.slaDeadLineInHours.value,
      tier: suggestion.tier.value,
    }));
  return {
    boardName,
    priorities: scored.prioritySuggestions.map((entry) => ({ name: entry.priority, score: entry.priorityScore.value })),
    examples,
    wanted: wanted.slice(0, MAX_SUBTYPES_FOR_AI),
    limits: { scoreMax: SCORE_MAX, slaHoursMax: SLA_HOURS_MAX },
  };
}

/** The PSA priority whose level is nearest the model's priority score (ties: the more urgent). */
function nearestPriority(score: number, priorities: TPriorityLevel[]): TSubTypeSuggestion['suggestedPriority'] {
  let best: { id: number; name: string; distance: number; rank: number } | null = null;
  for (const [id, level] of priorityLevelScores(priorities)) {
    const distance = Math.abs(level.score - score);
    if (!best || distance < best.distance || (distance === best.distance && level.rank < best.rank)) best = { id, name: level.name, distance, rank: level.rank };
  }
  return best ? { priorityId: best.id, priority: best.name } : null;
}

/** The scored board with the model's numbers in place of the defaults it was asked about. */
export function applyAiProposals(scored: TScoredBoard, proposals: TBoardScoreProposal[], model: string, priorities: TPriorityLevel[]): { scored: TScoredBoard; applied: number } {
  const byKey = new Map(proposals.map((proposal) => [proposal.key, proposal]));
  const explanation = (reason: string) => `Suggested by ${model}: ${reason}`;
  let applied = 0;
  const suggestions = scored.suggestions.map((suggestion, index): TSubTypeSuggestion => {
    const proposal = byKey.get(keyOf(index));
    if (!proposal) return suggestion;
    applied += 1;
    const replace = (current: TScoreSuggestion, value: number): TScoreSuggestion => (current.source === 'default' ? { value, source: 'llm', explanation: explanation(proposal.reason) } : current);
    const priorityScore = replace(suggestion.priorityScore, proposal.priorityScore);
    return {
      ...suggestion,
      priorityScore,
      subTypeScore: replace(suggestion.subTypeScore, proposal.subTypeScore),
      slaDeadLineInHours: replace(suggestion.slaDeadLineInHours, proposal.slaHours),
      tier: suggestion.tier.source === 'default' ? { value: proposal.tier, source: 'llm', explanation: explanation(proposal.reason) } : suggestion.tier,
      suggestedPriority: priorityScore.source === 'llm' ? nearestPriority(priorityScore.value, priorities) : suggestion.suggestedPriority,
    };
  });

  let position = 0;
  const types = scored.board.mspConnectWiseBoardTypes.map((type) => ({
    ...type,
    mspConnectWiseBoardSubTypes: type.mspConnectWiseBoardSubTypes.map((subType) => {
      const suggestion = suggestions[position];
      position += 1;
      return suggestion ? withSuggestion(subType, suggestion) : subType;
    }),
  }));
  return { scored: { ...scored, suggestions, board: { ...scored.board, mspConnectWiseBoardTypes: types } }, applied };
}
