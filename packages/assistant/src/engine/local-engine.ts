// The default engine: no network, no model download. Categorises with the MSP's trained categoriser,
// asks from the MSP's question bank, and answers and troubleshoots only from the texts the caller
// retrieved, saying plainly that no AI model wrote the answer.
import type { TCategoriser } from '../categoriser/categoriser';
import { DEFAULT_QUESTION_BANK } from '../questions/default-question-bank';
import { diagnosticQuestions } from '../questions/diagnostic-questions';
import { suggestPromptsFromSources } from '../troubleshoot/suggest-prompts';
import { troubleshootingSteps } from '../troubleshoot/troubleshooting-steps';
import type { TAnswerChunk, TAnswerInput, TAssistantEngine, TProposal, TQuestionBank, TSourceRef } from '../types';

export interface TLocalEngineDeps {
  /** Absent where nothing is categorised (chat, troubleshooting, prompts): categorise() then abstains. */
  categoriser?: TCategoriser;
  /** The MSP's edited question bank; the default seed when the MSP has none. */
  questionBank?: TQuestionBank;
}

/** Words of the proposed categories, added to the user's text when ranking sources. */
export function proposalQuery(proposal: TProposal | undefined): string {
  if (!proposal) return '';
  return proposal.candidates.slice(0, 1).map((c) => `${c.typeName} ${c.subtypeName}`).join(' ');
}

export const LOCAL_ANSWER_INTRO = 'No AI model is configured, so this answer comes straight from your knowledge base and past resolutions.';
export const LOCAL_ANSWER_NOTHING_FOUND =
  'No AI model is configured, and nothing in your knowledge base or past resolutions matches this yet. A technician can help: choose "Talk to a technician".';

export const LOCAL_ANSWER_NOTHING_FOUND_AFTER_FALLBACK = 'Nothing in your knowledge base or past resolutions matches this yet. A technician can help: choose "Talk to a technician".';

/** Said when an AI model is configured but did not answer this time: the reason, then where the answer comes from. */
export function fallbackAnswerIntro(reason: string): string {
  return `The AI model could not answer this time (${reason.replace(/\.$/, '')}), so this answer comes straight from your knowledge base and past resolutions.`;
}

function sourceLabel(source: TSourceRef): string {
  const kind = source.kind === 'article' ? 'Knowledge article' : source.kind === 'resolution' ? 'Past resolution' : 'Document';
  return `${kind}: ${source.title}`;
}

/** The local engine for one MSP. */
export function createLocalEngine(deps: TLocalEngineDeps): TAssistantEngine {
  const bank = deps.questionBank ?? DEFAULT_QUESTION_BANK;
  return {
    kind: 'local',
    async categorise(input) {
      if (!deps.categoriser) return { value: { kind: 'abstain', candidates: [], confidence: 0, reason: 'No categoriser was given to this engine.' }, engine: 'local', fallbackReason: null };
      const proposal = deps.categoriser.propose({ text: input.text, answers: input.answers ?? [], questionBank: bank, ...(input.boardId ? { boardId: input.boardId } : {}) });
      return { value: proposal, engine: 'local', fallbackReason: null };
    },
    async questions(input) {
      return { value: diagnosticQuestions(input.proposal, bank, input.limit ?? 3, input.answers ?? []), engine: 'local', fallbackReason: null };
    },
    async troubleshoot(input) {
      const query = `${input.text} ${proposalQuery(input.proposal)}`;
      return { value: troubleshootingSteps(input.sources, { query, limit: input.limit ?? 10, onTopicOf: input.text }), engine: 'local', fallbackReason: null };
    },
    answer(input) {
      return localAnswer(input, null);
    },
    async suggestPrompts(input) {
      return { value: suggestPromptsFromSources(input.text, input.sources, input.limit ?? 5), engine: 'local', fallbackReason: null };
    },
  };
}

/**
 * The local answer as a stream: an honest line saying where it comes from, then the best steps of the
 * retrieved sources with their citations. Also what the LLM engine streams when it falls back.
 */
export async function* localAnswer(input: TAnswerInput, fallbackReason: string | null): AsyncGenerator<TAnswerChunk> {
  const steps = troubleshootingSteps(input.sources, { query: input.text, limit: 5 });
  if (steps.length === 0) {
    yield { type: 'delta', text: fallbackReason ? `${fallbackAnswerIntro(fallbackReason)} ${LOCAL_ANSWER_NOTHING_FOUND_AFTER_FALLBACK}` : LOCAL_ANSWER_NOTHING_FOUND };
    yield { type: 'end', engine: 'local', fallbackReason, sources: [] };
    return;
  }
  yield { type: 'delta', text: `${fallbackReason ? fallbackAnswerIntro(fallbackReason) : LOCAL_ANSWER_INTRO}\n\n` };
  const cited: TSourceRef[] = [];
  for (const step of steps) {
    if (!cited.some((c) => c.kind === step.source.kind && c.id === step.source.id)) cited.push(step.source);
    const index = cited.findIndex((c) => c.kind === step.source.kind && c.id === step.source.id) + 1;
    yield { type: 'delta', text: `${step.n}. ${step.text} [${index}]\n` };
  }
  yield { type: 'delta', text: `\nSources:\n${cited.map((c, i) => `[${i + 1}] ${sourceLabel(c)}`).join('\n')}\n` };
  yield { type: 'end', engine: 'local', fallbackReason, sources: cited };
}
