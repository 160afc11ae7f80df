// Public types of the assistant engine (DESIGN §7). Plain data only: the server stores, audits and
// serves these shapes, so nothing here holds a function or a class instance.

/** One subtype (ConnectWise subtype / Autotask sub-issue type) of a board type, with what it fills in. */
export interface TBoardSubtype {
  id: string;
  name: string;
  priorityId?: string | null;
  tier?: string | null;
  slaHours?: number | null;
}

/** One type (category) of a board, with its subtypes (subcategories). */
export interface TBoardType {
  id: string;
  name: string;
  subtypes: TBoardSubtype[];
}

/** The MSP's own board configuration: the only categories the assistant may ever propose. */
export interface TBoardCatalogue {
  boards: { id: string; name: string; types: TBoardType[] }[];
}

/** A closed ticket the categoriser learns from, labelled by names as the PSA holds them. */
export interface TTrainingTicket {
  summary: string;
  description: string;
  typeName: string;
  subtypeName: string;
  /** When given, the ticket only matches this board; otherwise the first board holding the names. */
  boardId?: string | null;
  resolution?: string | null;
}

/** One category on the board with the engine's confidence that the text belongs to it (0..1). */
export interface TCandidate {
  boardId: string;
  boardName: string;
  typeId: string;
  typeName: string;
  subtypeId: string;
  subtypeName: string;
  priorityId: string | null;
  tier: string | null;
  slaHours: number | null;
  confidence: number;
}

/**
 * A categorisation: either a confident answer (a valid board/type/subtype triple) or an
 * abstention that asks instead of guessing. `candidates` holds the best few, best first, in both.
 */
export type TProposal =
  | { kind: 'answer'; choice: TCandidate; confidence: number; candidates: TCandidate[] }
  | { kind: 'abstain'; candidates: TCandidate[]; confidence: number; reason: string };

/** A user's reply to a diagnostic question. */
export interface TAnswer {
  questionId: string;
  answer: 'yes' | 'no' | 'unsure';
}

/** A yes/no diagnostic question of the question bank. */
export interface TBankQuestion {
  /** Stable id; the same id under two subtypes means the question does not tell them apart. */
  id: string;
  text: string;
}

/**
 * The editable per-subtype question lists, keyed by type and subtype name (so any board can use them). An entry with a
 * `boardId` is one board's own list: ConnectWise keeps types per board, so two boards may name a subtype alike and
 * still ask different questions (review s29).
 */
export interface TQuestionBank {
  entries: { boardId?: string; typeName: string; subtypeName: string; questions: TBankQuestion[] }[];
}

/** A question chosen for the user, with the candidate subtypes a "yes" speaks for. */
export interface TQuestion {
  id: string;
  text: string;
  options: { value: TAnswer['answer']; label: string }[];
  /** Subtype ids (of the candidates) whose question list holds this question. */
  supports: string[];
}

/** A text retrieved by the caller (tenant- and company-scoped SQL lives in the server). */
export interface TRetrievedSource {
  kind: 'article' | 'resolution' | 'document';
  id: string;
  title: string;
  text: string;
  /** Retrieval rank score, higher is better; used to order steps between sources. */
  score?: number;
  /** Filed under the type and subtype the problem was put in (an article's own category, a past ticket's). */
  isOfCategory?: boolean;
}

/** A reference to the source a step or an answer came from. */
export interface TSourceRef {
  kind: TRetrievedSource['kind'];
  id: string;
  title: string;
}

/** One troubleshooting step (the spec's "10 best steps"), always with its source. */
export interface TStep {
  n: number;
  text: string;
  source: TSourceRef;
}

/** The agent persona an answer is given as. */
export interface TAgentPersona {
  agentName: string;
  role: string;
  description: string;
  objectives: string[];
}

export interface TChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A piece of a streamed answer; the last one says which engine answered and what it cited. */
export type TAnswerChunk =
  | { type: 'delta'; text: string }
  | { type: 'end'; engine: TEngineKind; fallbackReason: string | null; sources: TSourceRef[] };

export type TEngineKind = 'local' | 'llm';

/** What every engine call reports besides its value: who answered, and why the LLM was not used. */
export interface TEngineResult<T> {
  value: T;
  engine: TEngineKind;
  /** Set when an LLM engine fell back to the local engine (timeout, error, invalid output). */
  fallbackReason: string | null;
}

export interface TCategoriseInput {
  text: string;
  answers?: TAnswer[];
  /** Restrict the proposal to one board (the user already picked it). */
  boardId?: string;
}

export interface TTroubleshootInput {
  text: string;
  proposal?: TProposal;
  sources: TRetrievedSource[];
  limit?: number;
}

export interface TAnswerInput {
  text: string;
  history?: TChatTurn[];
  sources: TRetrievedSource[];
  agent?: TAgentPersona;
  signal?: AbortSignal;
}

export interface TQuestionsInput {
  proposal: TProposal;
  /** Answers given so far: their questions are not asked again. */
  answers?: TAnswer[];
  limit?: number;
}

export interface TPromptsInput {
  /** What the user typed so far, or the troubleshoot message to build on. */
  text: string;
  sources: TRetrievedSource[];
  /** How many prompts (default 5, the spec's top 5). */
  limit?: number;
}

/**
 * The one assistant interface (DESIGN §7). The local engine works offline from the MSP's own data;
 * the LLM engine calls a model and falls back to a local engine on timeout, error or invalid output.
 */
export interface TAssistantEngine {
  readonly kind: TEngineKind;
  /** A categorisation on the MSP's board (never a pair that is not on it), or an abstention. */
  categorise(input: TCategoriseInput): Promise<TEngineResult<TProposal>>;
  /** Yes/no questions that separate the proposal's candidates (from the MSP's question bank). */
  questions(input: TQuestionsInput): Promise<TEngineResult<TQuestion[]>>;
  /** Up to `limit` (default 10) steps from the retrieved sources, each citing one of them. */
  troubleshoot(input: TTroubleshootInput): Promise<TEngineResult<TStep[]>>;
  /** A streamed chat answer grounded in the retrieved sources; the last chunk says who answered. */
  answer(input: TAnswerInput): AsyncIterable<TAnswerChunk>;
  /** The prompt generator: up to `limit` prompts the user could ask next; none for blank text. */
  suggestPrompts(input: TPromptsInput): Promise<TEngineResult<string[]>>;
}
