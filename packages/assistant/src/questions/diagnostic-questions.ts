// Diagnostic questions that separate the top candidate subtypes, and how answers re-rank them.
// The model: a question listed under a subtype is answered "yes" by a user with that problem with
// probability YES_IF_LISTED, and by anyone else with probability YES_IF_NOT_LISTED. Questions are
// picked by expected information gain over the candidates; answers update the categorisation by
// Bayes' rule. The questions themselves are data (the MSP's question bank).
import { nameKey } from '../categoriser/board-index';
import type { TAnswer, TBankQuestion, TCandidate, TProposal, TQuestion, TQuestionBank } from '../types';

export const YES_IF_LISTED = 0.8;
export const YES_IF_NOT_LISTED = 0.15;
/**
 * A candidate with less than this share of the candidates' probability is not asked about: "Does the
 * printer show offline?" to someone whose whole office has no internet (99.9% sure) tells them the
 * assistant did not listen. The leading candidate is always kept, so its questions still confirm it.
 */
export const PLAUSIBLE_SHARE = 0.05;

const OPTIONS: TQuestion['options'] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
  { value: 'unsure', label: 'Not sure' },
];

/**
 * The bank entry of one subtype. With its board known: that board's own entry, else one for any board (the seed); an
 * entry of another board never, as a same-named subtype there may ask other questions. Without the board: the first
 * entry of the names, so the bank lists its boards' own entries first.
 */
function entryOf(bank: TQuestionBank, typeKey: string, subtypeKey: string, boardId: string | undefined): TQuestionBank['entries'][number] | undefined {
  const named = bank.entries.filter((e) => nameKey(e.typeName) === typeKey && nameKey(e.subtypeName) === subtypeKey);
  if (!boardId) return named[0];
  return named.find((e) => e.boardId === boardId) ?? named.find((e) => e.boardId === undefined);
}

/** The question list of one subtype (of `boardId` when known): the bank's, or one question made from the board's own names. */
export function questionsForSubtype(bank: TQuestionBank, typeName: string, subtypeName: string, boardId?: string): TBankQuestion[] {
  const typeKey = nameKey(typeName);
  const subtypeKey = nameKey(subtypeName);
  const entry = entryOf(bank, typeKey, subtypeKey, boardId);
  if (entry && entry.questions.length > 0) return entry.questions;
  return [{ id: `about:${typeKey}/${subtypeKey}`, text: `Is your request about ${subtypeName} (${typeName})?` }];
}

/** The factor an answer multiplies a subtype's probability by (before renormalising). */
export function answerFactor(answer: TAnswer['answer'], isListed: boolean): number {
  if (answer === 'yes') return isListed ? YES_IF_LISTED : YES_IF_NOT_LISTED;
  if (answer === 'no') return isListed ? 1 - YES_IF_LISTED : 1 - YES_IF_NOT_LISTED;
  return 1;
}

/** The product of answer factors for one subtype (of `boardId` when known). Answers to questions no subtype lists change nothing. */
export function answersLikelihood(bank: TQuestionBank, typeName: string, subtypeName: string, answers: TAnswer[], knownQuestionIds: Set<string>, boardId?: string): number {
  if (answers.length === 0) return 1;
  const listed = new Set(questionsForSubtype(bank, typeName, subtypeName, boardId).map((q) => q.id));
  let factor = 1;
  for (const a of answers) {
    if (!knownQuestionIds.has(a.questionId)) continue;
    factor *= answerFactor(a.answer, listed.has(a.questionId));
  }
  return factor;
}

function entropy(probabilities: number[]): number {
  let h = 0;
  for (const p of probabilities) if (p > 0) h -= p * Math.log2(p);
  return h;
}

function expectedGain(prior: number[], listed: boolean[]): number {
  let gain = entropy(prior);
  for (const answer of ['yes', 'no'] as const) {
    const joint = prior.map((p, i) => p * answerFactor(answer, listed[i] ?? false));
    const pAnswer = joint.reduce((s, v) => s + v, 0);
    if (pAnswer <= 0) continue;
    gain -= pAnswer * entropy(joint.map((v) => v / pAnswer));
  }
  return gain;
}

/** The candidates worth asking about: the leading one and each with at least PLAUSIBLE_SHARE of the probability. */
function plausibleCandidates(candidates: TCandidate[]): TCandidate[] {
  const total = candidates.reduce((s, c) => s + c.confidence, 0);
  if (total <= 0) return candidates;
  const best = Math.max(...candidates.map((c) => c.confidence));
  return candidates.filter((c) => c.confidence === best || c.confidence / total >= PLAUSIBLE_SHARE);
}

/**
 * Up to `limit` questions that best separate the proposal's plausible candidates (by expected information
 * gain), skipping questions already answered and questions that split the candidates the same way as one
 * already chosen. With one plausible candidate, its own questions confirm it. Empty without candidates.
 */
export function diagnosticQuestions(proposal: TProposal, bank: TQuestionBank, limit = 3, answered: TAnswer[] = []): TQuestion[] {
  const candidates: TCandidate[] = plausibleCandidates(proposal.candidates);
  if (candidates.length === 0 || limit <= 0) return [];
  const total = candidates.reduce((s, c) => s + c.confidence, 0);
  const prior = candidates.map((c) => (total > 0 ? c.confidence / total : 1 / candidates.length));
  const answeredIds = new Set(answered.map((a) => a.questionId));
  const lists = candidates.map((c) => questionsForSubtype(bank, c.typeName, c.subtypeName, c.boardId));
  const byId = new Map<string, TBankQuestion>();
  for (const list of lists) for (const q of list) if (!answeredIds.has(q.id) && !byId.has(q.id)) byId.set(q.id, q);

  const scored = [...byId.values()].map((question) => {
    const listed = lists.map((list) => list.some((q) => q.id === question.id));
    return { question, listed, gain: expectedGain(prior, listed) };
  });
  // With one candidate left there is nothing to separate, but its questions still confirm it.
  scored.sort((a, b) => b.gain - a.gain || a.question.id.localeCompare(b.question.id));

  const chosen: TQuestion[] = [];
  const splits = new Set<string>();
  for (const { question, listed, gain } of scored) {
    if (chosen.length >= limit) break;
    const split = listed.map((l) => (l ? '1' : '0')).join('');
    if (candidates.length > 1 && (splits.has(split) || gain <= 1e-9)) continue;
    splits.add(split);
    chosen.push({
      id: question.id,
      text: question.text,
      options: OPTIONS,
      supports: candidates.filter((_, i) => listed[i]).map((c) => c.subtypeId),
    });
  }
  return chosen;
}
