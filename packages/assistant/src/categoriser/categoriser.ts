// The local categoriser: TF-IDF features and two complement naive Bayes models — the type, then the
// subtype within that type — so a proposal is always a pair on the board. Trained on the MSP's closed
// tickets, its labelled knowledge articles and the board's own names and question lists (a subtype
// without history still gets a prior); confidence calibrated by a temperature per step fitted on
// out-of-fold predictions, and an abstain gate fitted the same way.
import { z } from 'zod';
import { DEFAULT_QUESTION_BANK } from '../questions/default-question-bank';
import { answersLikelihood, questionsForSubtype } from '../questions/diagnostic-questions';
import { DEFAULT_FEATURE_OPTIONS, type TFeatureOptions } from '../text/tokenise';
import type { TAnswer, TBoardCatalogue, TCandidate, TProposal, TQuestionBank, TTrainingTicket } from '../types';
import { candidateOf, indexBoard, labelOf, nameKey, type TTypeClass } from './board-index';
import { fitAbstainGate, fitTemperature } from './calibration';
import { ComplementNb, softmax, type TComplementNbSnapshot } from './complement-nb';
import { Vectoriser, type TVectoriserState } from './vectoriser';

export interface TCategoriserOptions {
  /** Additive smoothing of the naive Bayes feature counts. */
  smoothing: number;
  /** Weight of each board-name pseudo-ticket ("<type> <subtype>") relative to a real ticket. */
  nameWeight: number;
  /** Weight of each subtype's question-bank text (what its questions ask about). */
  questionWeight: number;
  /** Weight of each labelled knowledge article. */
  articleWeight: number;
  /** Weight of a closed ticket's resolution text, learnt beside its summary and description. */
  resolutionWeight: number;
  /** Out-of-fold folds used to fit the temperatures and the abstain gate. */
  folds: number;
  /** Precision the answered cases should reach out of fold; sets the abstain gate. */
  targetPrecision: number;
  /** Fixed gate instead of the fitted one (0 never abstains). */
  abstainBelow: number | null;
  features: TFeatureOptions;
}

export const DEFAULT_CATEGORISER_OPTIONS: TCategoriserOptions = {
  // Chosen by 5-fold cross-validation on the training part of the demo history (bench/categorise.bench.ts, BENCH_TUNE=1).
  // Question and article weights raised from 2 / 1 (CV gated subtype macro-F1 0.260 → 0.349, ungated top-1 0.641 → 0.643).
  smoothing: 0.5,
  nameWeight: 3,
  questionWeight: 4,
  articleWeight: 2,
  // Off: on the demo history resolutions lowered cross-validated top-1 (0.641 → 0.624 at 0.3).
  resolutionWeight: 0,
  folds: 5,
  targetPrecision: 0.92,
  abstainBelow: null,
  features: DEFAULT_FEATURE_OPTIONS,
};

/** A knowledge article labelled with the subtype it is about: more words for that subtype. */
export interface TLabelledArticle {
  title: string;
  text: string;
  typeName: string;
  subtypeName: string;
  boardId?: string | null;
}

/** What trainCategoriser learns from besides the tickets, and options to override. */
export interface TTrainOptions extends Partial<TCategoriserOptions> {
  articles?: TLabelledArticle[];
  /** The MSP's question bank: each subtype's questions describe it (default: the seed bank). */
  questionBank?: TQuestionBank;
}

/** What is read of a text to categorise: a problem is described long before this, and the cost stays bounded. */
export const MAX_TEXT_CHARS = 20_000;

/** Input of one categorisation. */
export interface TProposeInput {
  text: string;
  /** Answers to diagnostic questions; they re-rank the candidates through the question bank. */
  answers?: TAnswer[];
  questionBank?: TQuestionBank;
  /** Only propose categories of this board. */
  boardId?: string;
  /** How many candidates the proposal carries (default 3). */
  candidateCount?: number;
}

/** What training saw and what the fitted gate does out of fold. */
export interface TCategoriserStats {
  trainedOn: number;
  /** Tickets whose type/subtype names are not on the board (ignored). */
  skipped: number;
  updates: number;
  abstainBelow: number;
  temperature: { type: number; subtype: number };
  outOfFold: { precision: number; answeredRate: number; folds: number };
}

export interface TCategoriser {
  readonly board: TBoardCatalogue;
  readonly stats: TCategoriserStats;
  /** Categorises a text: a calibrated answer on the board, or an abstention with the top candidates. */
  propose(input: TProposeInput): TProposal;
  /** Learns from one closed ticket at once (online update); false when its names are not on the board. */
  update(ticket: TTrainingTicket): boolean;
  /** The whole model as a JSON string (the server stores it per MSP); see loadCategoriser. */
  serialise(): string;
  /** The model exactly as it stands as plain data and typed arrays (a worker thread hands it over); see categoriserFromSnapshot. */
  snapshot(): TCategoriserSnapshot;
  /**
   * The same model over an edited board whose predictionKey is unchanged (a tier, SLA or priority edit): proposals
   * carry the new values without a retrain. Throws when the edit changes what the model predicts.
   */
  withBoard(board: TBoardCatalogue): TCategoriser;
}

/**
 * What of a board the model's classes depend on: the boards' ids and their types' and subtypes' ids and names, in
 * order. A board edit that keeps it (tier, SLA hours, priority, a board's name) needs no retrain.
 */
export function predictionKey(board: TBoardCatalogue): string {
  return JSON.stringify(indexBoard(board).map((type) => [type.boardId, type.typeId, type.typeName, type.subtypes.map((subtype) => [subtype.id, subtype.name])]));
}

/**
 * A trained model as structured-clone data: what a worker thread posts to the thread that uses the model. Unlike
 * serialise() nothing is rounded, so the model rebuilt from it proposes exactly what the trained one does; it is not
 * validated when rebuilt, so it is only for a model this process's own code has just made, never for stored data.
 */
export interface TCategoriserSnapshot {
  board: TBoardCatalogue;
  options: TCategoriserOptions;
  stats: TCategoriserStats;
  temperature: { type: number; subtype: number };
  abstainBelow: number;
  vectoriser: TVectoriserState;
  typeModel: TComplementNbSnapshot;
  subtypeModels: TComplementNbSnapshot[];
}

/** The buffers of a snapshot, to transfer rather than copy when posting it to another thread. */
export function snapshotBuffers(snapshot: TCategoriserSnapshot): ArrayBuffer[] {
  return [snapshot.typeModel, ...snapshot.subtypeModels].flatMap((model) => [model.classTotals.buffer, model.features.buffer, model.values.buffer]).filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer);
}

interface TCore {
  vectoriser: Vectoriser;
  typeModel: ComplementNb;
  subtypeModels: ComplementNb[];
}

interface TLabelled {
  text: string;
  type: number;
  subtype: number;
  weight: number;
  /** A ticket's resolution: learnt with resolutionWeight, never part of what is categorised. */
  resolution?: string | null;
}

export function ticketText(ticket: Pick<TTrainingTicket, 'summary' | 'description'>): string {
  return `${ticket.summary}\n${ticket.description}`;
}

/**
 * The board's own description of each subtype, always trained on: its names, its question list,
 * and the knowledge articles labelled with it. A subtype without any ticket still has these.
 */
function priorDocuments(types: TTypeClass[], training: TTrainOptions, options: TCategoriserOptions): TLabelled[] {
  const bank = training.questionBank ?? DEFAULT_QUESTION_BANK;
  const out: TLabelled[] = [];
  types.forEach((type, t) =>
    type.subtypes.forEach((s, i) => {
      out.push({ text: `${type.typeName} ${s.name}`, type: t, subtype: i, weight: options.nameWeight });
      const questions = bank.entries.some((e) => nameKey(e.typeName) === nameKey(type.typeName) && nameKey(e.subtypeName) === nameKey(s.name))
        ? questionsForSubtype(bank, type.typeName, s.name)
        : [];
      if (questions.length > 0 && options.questionWeight > 0) {
        out.push({ text: questions.map((q) => q.text).join('\n'), type: t, subtype: i, weight: options.questionWeight });
      }
    }),
  );
  if (options.articleWeight > 0) {
    for (const article of training.articles ?? []) {
      const label = labelOf(types, article);
      if (label) out.push({ text: `${article.title}\n${article.text}`, ...label, weight: options.articleWeight });
    }
  }
  return out;
}

function fitCore(types: TTypeClass[], items: TLabelled[], options: TCategoriserOptions): TCore {
  const documents: TLabelled[] = [...items];
  if (options.resolutionWeight > 0) {
    for (const item of items) if (item.resolution) documents.push({ text: item.resolution, type: item.type, subtype: item.subtype, weight: options.resolutionWeight });
  }
  const vectoriser = new Vectoriser(options.features);
  for (const d of documents) vectoriser.observe(d.text);
  const vocabularySize = () => vectoriser.size;
  const typeModel = new ComplementNb(types.length, options.smoothing, vocabularySize);
  const subtypeModels = types.map((type) => new ComplementNb(type.subtypes.length, options.smoothing, vocabularySize));
  for (const d of documents) {
    const x = vectoriser.vectorise(d.text);
    typeModel.learn({ x, y: d.type, weight: d.weight });
    subtypeModels[d.type]?.learn({ x, y: d.subtype, weight: d.weight });
  }
  return { vectoriser, typeModel, subtypeModels };
}

/** Stratified fold number of each ticket (by its subtype), deterministic. */
function stratifiedFolds(tickets: TLabelled[], folds: number): number[] {
  const byLabel = new Map<string, number[]>();
  tickets.forEach((t, i) => {
    const key = `${t.type}/${t.subtype}`;
    byLabel.set(key, [...(byLabel.get(key) ?? []), i]);
  });
  const assignment = tickets.map(() => 0);
  let next = 0;
  for (const key of [...byLabel.keys()].sort()) {
    for (const i of byLabel.get(key) ?? []) {
      assignment[i] = next % folds;
      next += 1;
    }
  }
  return assignment;
}

interface TScored {
  type: number;
  subtype: number;
  probability: number;
}

function jointDistribution(core: TCore, types: TTypeClass[], text: string, temperature: { type: number; subtype: number }): TScored[] {
  const x = core.vectoriser.vectorise(text);
  const typeProbabilities = softmax(core.typeModel.scores(x), temperature.type);
  const out: TScored[] = [];
  types.forEach((type, t) => {
    const model = core.subtypeModels[t];
    const subtypeProbabilities = model && type.subtypes.length > 1 ? softmax(model.scores(x), temperature.subtype) : [1];
    type.subtypes.forEach((_, s) => out.push({ type: t, subtype: s, probability: (typeProbabilities[t] ?? 0) * (subtypeProbabilities[s] ?? 0) }));
  });
  return out;
}

const ZModelState = z.object({ classCount: z.number().int().min(0), classTotals: z.array(z.number()), rows: z.array(z.tuple([z.number().int().min(0), z.array(z.number())])) });

const ZSerialised = z.object({
  format: z.literal('switchboard-categoriser'),
  version: z.literal(1),
  board: z.custom<TBoardCatalogue>((v) => typeof v === 'object' && v !== null && Array.isArray((v as { boards?: unknown }).boards)),
  options: z.custom<TCategoriserOptions>((v) => typeof v === 'object' && v !== null),
  stats: z.custom<TCategoriserStats>((v) => typeof v === 'object' && v !== null),
  temperature: z.object({ type: z.number().positive(), subtype: z.number().positive() }),
  abstainBelow: z.number().min(0).max(1),
  vectoriser: z.object({ terms: z.array(z.string()), documentFrequency: z.array(z.number()), documentCount: z.number() }),
  typeModel: ZModelState,
  subtypeModels: z.array(ZModelState),
});

class Categoriser implements TCategoriser {
  private readonly types: TTypeClass[];

  constructor(
    readonly board: TBoardCatalogue,
    private readonly options: TCategoriserOptions,
    private readonly core: TCore,
    private readonly temperature: { type: number; subtype: number },
    private readonly abstainBelow: number,
    readonly stats: TCategoriserStats,
  ) {
    this.types = indexBoard(board);
  }

  propose(input: TProposeInput): TProposal {
    const bank = input.questionBank ?? DEFAULT_QUESTION_BANK;
    const answers = input.answers ?? [];
    let scored = jointDistribution(this.core, this.types, input.text.slice(0, MAX_TEXT_CHARS), this.temperature);
    if (input.boardId) scored = scored.filter((s) => this.types[s.type]?.boardId === input.boardId);
    if (answers.length > 0) {
      const known = new Set<string>();
      for (const s of scored) {
        const type = this.types[s.type];
        const sub = type?.subtypes[s.subtype];
        if (type && sub) for (const q of questionsForSubtype(bank, type.typeName, sub.name, type.boardId)) known.add(q.id);
      }
      scored = scored.map((s) => {
        const type = this.types[s.type];
        const sub = type?.subtypes[s.subtype];
        const factor = type && sub ? answersLikelihood(bank, type.typeName, sub.name, answers, known, type.boardId) : 1;
        return { ...s, probability: s.probability * factor };
      });
    }
    const total = scored.reduce((sum, s) => sum + s.probability, 0);
    scored.sort((a, b) => b.probability - a.probability);
    const candidates: TCandidate[] = [];
    for (const s of scored.slice(0, input.candidateCount ?? 3)) {
      const candidate = candidateOf(this.types, s.type, s.subtype, total > 0 ? s.probability / total : 0);
      if (candidate) candidates.push(candidate);
    }
    const best = candidates[0];
    if (!best) return { kind: 'abstain', candidates: [], confidence: 0, reason: 'The board has no categories to propose.' };
    if (best.confidence < this.abstainBelow) {
      return {
        kind: 'abstain',
        candidates,
        confidence: best.confidence,
        reason: `No confident match: the best category (${best.typeName} / ${best.subtypeName}) is only ${Math.round(best.confidence * 100)}% likely.`,
      };
    }
    return { kind: 'answer', choice: best, confidence: best.confidence, candidates };
  }

  update(ticket: TTrainingTicket): boolean {
    const label = labelOf(this.types, ticket);
    if (!label) return false;
    const documents: { text: string; weight: number }[] = [{ text: ticketText(ticket), weight: 1 }];
    if (ticket.resolution && this.options.resolutionWeight > 0) documents.push({ text: ticket.resolution, weight: this.options.resolutionWeight });
    for (const d of documents) {
      this.core.vectoriser.observe(d.text);
      const x = this.core.vectoriser.vectorise(d.text);
      this.core.typeModel.learn({ x, y: label.type, weight: d.weight });
      this.core.subtypeModels[label.type]?.learn({ x, y: label.subtype, weight: d.weight });
    }
    this.stats.updates += 1;
    return true;
  }

  withBoard(board: TBoardCatalogue): TCategoriser {
    if (predictionKey(board) !== predictionKey(this.board)) throw new Error('The board changed what the categoriser predicts; retrain it.');
    return new Categoriser(board, this.options, this.core, this.temperature, this.abstainBelow, this.stats);
  }

  snapshot(): TCategoriserSnapshot {
    return {
      board: this.board,
      options: this.options,
      stats: { ...this.stats },
      temperature: { ...this.temperature },
      abstainBelow: this.abstainBelow,
      vectoriser: this.core.vectoriser.state(),
      typeModel: this.core.typeModel.snapshot(),
      subtypeModels: this.core.subtypeModels.map((m) => m.snapshot()),
    };
  }

  serialise(): string {
    const state: z.infer<typeof ZSerialised> = {
      format: 'switchboard-categoriser',
      version: 1,
      board: this.board,
      options: this.options,
      stats: this.stats,
      temperature: this.temperature,
      abstainBelow: this.abstainBelow,
      vectoriser: this.core.vectoriser.state(),
      typeModel: this.core.typeModel.state(),
      subtypeModels: this.core.subtypeModels.map((m) => m.state()),
    };
    return JSON.stringify(state);
  }
}

/**
 * Trains the categoriser for one MSP on its board and its closed tickets. Tickets whose names are not
 * on the board are skipped (counted in stats). Fits the calibration and the abstain gate on
 * out-of-fold predictions, then the final model on everything.
 */
export function trainCategoriser(board: TBoardCatalogue, tickets: TTrainingTicket[], training: TTrainOptions = {}): TCategoriser {
  const { articles: _articles, questionBank: _questionBank, ...overrides } = training;
  const opts: TCategoriserOptions = { ...DEFAULT_CATEGORISER_OPTIONS, ...overrides };
  const types = indexBoard(board);
  const labelled: TLabelled[] = [];
  let skipped = 0;
  for (const ticket of tickets) {
    const label = labelOf(types, ticket);
    if (label) labelled.push({ text: ticketText(ticket), ...label, weight: 1, resolution: ticket.resolution ?? null });
    else skipped += 1;
  }
  const priors = priorDocuments(types, training, opts);

  let temperature = { type: 1, subtype: 1 };
  let gate = { abstainBelow: opts.abstainBelow ?? 0, precision: 0, answeredRate: 1 };
  const folds = Math.min(opts.folds, labelled.length);
  if (folds >= 2) {
    const fold = stratifiedFolds(labelled, folds);
    const typeSamples: { logits: Float64Array; label: number }[] = [];
    const subtypeSamples: { logits: Float64Array; label: number }[] = [];
    const heldOut: { core: TCore; item: TLabelled }[] = [];
    for (let f = 0; f < folds; f += 1) {
      const core = fitCore(types, [...labelled.filter((_, i) => fold[i] !== f), ...priors], opts);
      labelled.forEach((item, i) => {
        if (fold[i] !== f) return;
        const x = core.vectoriser.vectorise(item.text);
        typeSamples.push({ logits: core.typeModel.scores(x), label: item.type });
        const subModel = core.subtypeModels[item.type];
        if (subModel && subModel.classCount > 1) subtypeSamples.push({ logits: subModel.scores(x), label: item.subtype });
        heldOut.push({ core, item });
      });
    }
    temperature = { type: fitTemperature(typeSamples), subtype: fitTemperature(subtypeSamples) };
    const gateSamples = heldOut.map(({ core, item }) => {
      const best = jointDistribution(core, types, item.text, temperature).reduce((a, b) => (b.probability > a.probability ? b : a));
      return { confidence: best.probability, isCorrect: best.type === item.type && best.subtype === item.subtype };
    });
    const fitted = fitAbstainGate(gateSamples, opts.targetPrecision);
    gate = opts.abstainBelow === null ? fitted : { ...fitted, abstainBelow: opts.abstainBelow };
  }

  const core = fitCore(types, [...labelled, ...priors], opts);
  const stats: TCategoriserStats = {
    trainedOn: labelled.length,
    skipped,
    updates: 0,
    abstainBelow: gate.abstainBelow,
    temperature,
    outOfFold: { precision: gate.precision, answeredRate: gate.answeredRate, folds: folds >= 2 ? folds : 0 },
  };
  return new Categoriser(board, opts, core, temperature, gate.abstainBelow, stats);
}

/** Restores a categoriser from `serialise()`; throws a plain-words error for anything else. */
export function loadCategoriser(serialised: string): TCategoriser {
  let parsed: unknown;
  try {
    parsed = JSON.parse(serialised);
  } catch {
    throw new Error('The stored categoriser is not valid JSON; retrain it.');
  }
  const result = ZSerialised.safeParse(parsed);
  if (!result.success) throw new Error('The stored categoriser has an unknown format or version; retrain it.');
  const s = result.data;
  const types = indexBoard(s.board);
  if (s.typeModel.classCount !== types.length || s.subtypeModels.length !== types.length) {
    throw new Error('The stored categoriser does not match its board; retrain it.');
  }
  const vectoriserState: TVectoriserState = s.vectoriser;
  const options: TCategoriserOptions = { ...DEFAULT_CATEGORISER_OPTIONS, ...s.options };
  const vectoriser = new Vectoriser(options.features, vectoriserState);
  const vocabularySize = () => vectoriser.size;
  const core: TCore = {
    vectoriser,
    typeModel: new ComplementNb(s.typeModel.classCount, options.smoothing, vocabularySize, s.typeModel),
    subtypeModels: s.subtypeModels.map((m) => new ComplementNb(m.classCount, options.smoothing, vocabularySize, m)),
  };
  return new Categoriser(s.board, options, core, s.temperature, s.abstainBelow, { ...s.stats });
}

/** Rebuilds the model a worker thread trained from its snapshot(), exactly; see TCategoriserSnapshot. */
export function categoriserFromSnapshot(snapshot: TCategoriserSnapshot): TCategoriser {
  const vectoriser = new Vectoriser(snapshot.options.features, snapshot.vectoriser);
  const vocabularySize = () => vectoriser.size;
  const core: TCore = {
    vectoriser,
    typeModel: new ComplementNb(snapshot.typeModel.classCount, snapshot.options.smoothing, vocabularySize, snapshot.typeModel),
    subtypeModels: snapshot.subtypeModels.map((m) => new ComplementNb(m.classCount, snapshot.options.smoothing, vocabularySize, m)),
  };
  return new Categoriser(snapshot.board, snapshot.options, core, snapshot.temperature, snapshot.abstainBelow, { ...snapshot.stats });
}
