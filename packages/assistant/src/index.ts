// @switchboard/assistant — the assistant engine (DESIGN §7, issue #9). One interface, two engines:
// the local engine (default, offline: a per-MSP classifier, the question bank, steps from retrieved
// texts) and the LLM engine (OpenAI-compatible or Anthropic, validated against the board, falling back
// to the local engine). Pure library: no database, no HTTP server, no configuration reading; the
// server retrieves texts (tenant- and company-scoped), stores the serialised model per MSP and audits.
//
// Typical use in the server:
//   const categoriser = trainCategoriser(board, closedTickets);          // store categoriser.serialise()
//   const local = createLocalEngine({ categoriser: loadCategoriser(stored), questionBank });
//   const engine = llmConfigured ? createLlmEngine({ provider, baseUrl, apiKey, model, timeoutMs, board, fallback: local }) : local;
//   const { value: proposal, engine: used, fallbackReason } = await engine.categorise({ text, answers });
//   const { value: questions } = await engine.questions({ proposal, answers });
//   const { value: steps } = await engine.troubleshoot({ text, proposal, sources });
//   for await (const chunk of engine.answer({ text, history, sources, agent })) …   // SSE
//   const { value: prompts } = await engine.suggestPrompts({ text, sources });     // A-097 top 5
//   categoriser.update(closedTicket);                                    // when a ticket closes

export type {
  TAgentPersona,
  TAnswer,
  TAnswerChunk,
  TAnswerInput,
  TAssistantEngine,
  TBankQuestion,
  TBoardCatalogue,
  TBoardSubtype,
  TBoardType,
  TCandidate,
  TCategoriseInput,
  TChatTurn,
  TEngineKind,
  TEngineResult,
  TPromptsInput,
  TProposal,
  TQuestion,
  TQuestionBank,
  TQuestionsInput,
  TRetrievedSource,
  TSourceRef,
  TStep,
  TTrainingTicket,
  TTroubleshootInput,
} from './types';

export {
  DEFAULT_CATEGORISER_OPTIONS,
  categoriserFromSnapshot,
  loadCategoriser,
  predictionKey,
  snapshotBuffers,
  trainCategoriser,
  type TCategoriser,
  type TCategoriserSnapshot,
  type TCategoriserOptions,
  type TCategoriserStats,
  type TLabelledArticle,
  type TTrainOptions,
  type TProposeInput,
} from './categoriser/categoriser';
export { DEFAULT_QUESTION_BANK } from './questions/default-question-bank';
export { diagnosticQuestions, questionsForSubtype } from './questions/diagnostic-questions';
export { extractSteps, troubleshootingSteps, type TTroubleshootOptions } from './troubleshoot/troubleshooting-steps';
export { suggestPromptsFromSources } from './troubleshoot/suggest-prompts';
export { createLocalEngine, fallbackAnswerIntro, LOCAL_ANSWER_INTRO, LOCAL_ANSWER_NOTHING_FOUND, LOCAL_ANSWER_NOTHING_FOUND_AFTER_FALLBACK, type TLocalEngineDeps } from './engine/local-engine';
export { createLlmEngine, SYSTEM_ANSWER, SYSTEM_CATEGORISE, SYSTEM_PROMPTS, SYSTEM_TROUBLESHOOT, type TLlmEngineConfig } from './engine/llm-engine';
export {
  BOARD_SCORE_TIERS,
  suggestBoardScores,
  SYSTEM_BOARD_SCORES,
  type TBoardScoreExample,
  type TBoardScoreProposal,
  type TBoardScoreQuestion,
  type TBoardScoreRequest,
  type TBoardScoreResult,
  type TBoardScoreTier,
} from './engine/board-scores';
export type { TLlmConnection, TLlmProvider } from './engine/llm-transport';
export { testLlmConnection, TEST_SYSTEM_PROMPT, type TLlmConnectionTestResult } from './engine/llm-connection-test';
export { embedTexts, EMBEDDING_BATCH, EmbeddingOutputError, type TEmbeddingConnection } from './engine/embeddings';
export { IT_THESAURUS } from './text/it-thesaurus';
export { groupTsQueryTexts, plainWords, searchTermGroups, tsQueryText, type TSearchTermGroup } from './text/search-terms';
