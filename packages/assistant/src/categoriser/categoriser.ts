// The local categoriser: TF-IDF features and two softmax models — the type, then the subtype within
// that type — so a proposal is always a pair on the board. Trained on the MSP's closed tickets plus
// the board's own names (a subtype without history still gets a prior); confidence calibrated by a
// temperature per step fitted on out-of-fold predictions, and an abstain gate fitted the same way.
import { z } from 'zod';
import { DEFAULT_QUESTION_BANK } from '../questions/default-question-bank';
import { answersLikelihood, questionsForSubtype } from '../questions/diagnostic-questions';
import type { TAnswer, TBoardCatalogue, TCandidate, TProposal, TQuestionBank, TTrainingTicket } from '../types';
import { candidateOf, indexBoard, labelOf, type TTypeClass } from './board-index';
import { fitAbstainGate, fitTemperature } from './calibration';
import { SoftmaxModel, softmax, type TExample } from './softmax-model';
import { Vectoriser, type TVectoriserState } from './vectoriser';
import { DEFAULT_FEATURE_OPTIONS, type TFeatureOptions } from '../text/tokenise';

export interface TCategoriserOptions {
  /** Passes over the training data. */
  epochs: number;
  /** AdaGrad base learning rate. */
  learningRate: number;
  /** L2 penalty per update. */
  l2: number;
  /** Weight of each board-name pseudo-ticket ("<type> <subtype>") relative to a real ticket. */
  nameWeight: number;
  /** Out-of-fold folds used to fit the temperatures and the abstain gate. */
  folds: number;
  /** Precision the answered cases should reach out of fold; sets the abstain gate. */
  targetPrecision: number;
  /** Fixed gate instead of the fitted one (0 never abstains). */
  abstainBelow: number | null;
  /** Learning rate of the one-ticket online update when a ticket closes. */
  onlineLearningRate: number;
  seed: number;
  features: TFeatureOptions;
}

export const DEFAULT_CATEGORISER_OPTIONS: TCategoriserOptions = {
  epochs: 30,
  learningRate: 0.5,
  l2: 1e-5,
  nameWeight: 2,
  folds: 5,
  targetPrecision: 0.92,
  abstainBelow: null,
  onlineLearningRate: 0.3,
  seed: 7,
  features: DEFAULT_FEATURE_OPTIONS,
};

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
}

interface TCore {
  vectoriser: Vectoriser;
  typeModel: SoftmaxModel;
  subtypeModels: SoftmaxModel[];
}

interface TLabelled {
  text: string;
  type: number;
  subtype: number;
}

export function ticketText(ticket: Pick<TTrainingTicket, 'summary' | 'description'>): string {
  return `${ticket.summary}\n${ticket.description}`;
}

function nameText(type: TTypeClass, subtypeName: string): string {
  return `${type.typeName} ${subtypeName}`;
}

function fitCore(types: TTypeClass[], tickets: TLabelled[], options: TCategoriserOptions): TCore {
  const vectoriser = new Vectoriser(options.features);
  const names: TLabelled[] = [];
  types.forEach((type, t) => type.subtypes.forEach((s, i) => names.push({ text: nameText(type, s.name), type: t, subtype: i })));
  for (const ticket of tickets) vectoriser.observe(ticket.text);
  for (const name of names) vectoriser.observe(name.text);

  const typeExamples: TExample[] = [];
  const subtypeExamples: TExample[][] = types.map(() => []);
  const add = (item: TLabelled, weight: number) => {
    const x = vectoriser.vectorise(item.text);
    typeExamples.push({ x, y: item.type, weight });
    subtypeExamples[item.type]?.push({ x, y: item.subtype, weight });
  };
  for (const ticket of tickets) add(ticket, 1);
  for (const name of names) add(name, options.nameWeight);

  const training = { epochs: options.epochs, learningRate: options.learningRate, l2: options.l2, seed: options.seed };
  const typeModel = new SoftmaxModel(types.length);
  typeModel.train(typeExamples, training);
  const subtypeModels = types.map((type, t) => {
    const model = new SoftmaxModel(type.subtypes.length);
    model.train(subtypeExamples[t] ?? [], training);
    return model;
  });
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
  const typeProbabilities = softmax(core.typeModel.logits(x), temperature.type);
  const out: TScored[] = [];
  types.forEach((type, t) => {
    const model = core.subtypeModels[t];
    const subtypeProbabilities = model && type.subtypes.length > 1 ? softmax(model.logits(x), temperature.subtype) : [1];
    type.subtypes.forEach((_, s) => out.push({ type: t, subtype: s, probability: (typeProbabilities[t] ?? 0) * (subtypeProbabilities[s] ?? 0) }));
  });
  return out;
}

const ZSerialised = z.object({
  format: z.literal('switchboard-categoriser'),
  version: z.literal(1),
  board: z.custom<TBoardCatalogue>((v) => typeof v === 'object' && v !== null && Array.isArray((v as { boards?: unknown }).boards)),
  options: z.custom<TCategoriserOptions>((v) => typeof v === 'object' && v !== null),
  stats: z.custom<TCategoriserStats>((v) => typeof v === 'object' && v !== null),
  temperature: z.object({ type: z.number().positive(), subtype: z.number().positive() }),
  abstainBelow: z.number().min(0).max(1),
  vectoriser: z.object({ terms: z.array(z.string()), documentFrequency: z.array(z.number()), documentCount: z.number() }),
  typeModel: z.object({ classCount: z.number().int(), bias: z.array(z.number()), rows: z.array(z.tuple([z.number().int(), z.array(z.number())])) }),
  subtypeModels: z.array(z.object({ classCount: z.number().int(), bias: z.array(z.number()), rows: z.array(z.tuple([z.number().int(), z.array(z.number())])) })),
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
    let scored = jointDistribution(this.core, this.types, input.text, this.temperature);
    if (input.boardId) scored = scored.filter((s) => this.types[s.type]?.boardId === input.boardId);
    if (answers.length > 0) {
      const known = new Set<string>();
      for (const s of scored) {
        const type = this.types[s.type];
        const sub = type?.subtypes[s.subtype];
        if (type && sub) for (const q of questionsForSubtype(bank, type.typeName, sub.name)) known.add(q.id);
      }
      scored = scored.map((s) => {
        const type = this.types[s.type];
        const sub = type?.subtypes[s.subtype];
        const factor = type && sub ? answersLikelihood(bank, type.typeName, sub.name, answers, known) : 1;
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
    const text = ticketText(ticket);
    this.core.vectoriser.observe(text);
    const x = this.core.vectoriser.vectorise(text);
    this.core.typeModel.learnOne({ x, y: label.type, weight: 1 }, this.options.onlineLearningRate, this.options.l2);
    this.core.subtypeModels[label.type]?.learnOne({ x, y: label.subtype, weight: 1 }, this.options.onlineLearningRate, this.options.l2);
    this.stats.updates += 1;
    return true;
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
export function trainCategoriser(board: TBoardCatalogue, tickets: TTrainingTicket[], options: Partial<TCategoriserOptions> = {}): TCategoriser {
  const opts: TCategoriserOptions = { ...DEFAULT_CATEGORISER_OPTIONS, ...options };
  const types = indexBoard(board);
  const labelled: TLabelled[] = [];
  let skipped = 0;
  for (const ticket of tickets) {
    const label = labelOf(types, ticket);
    if (label) labelled.push({ text: ticketText(ticket), ...label });
    else skipped += 1;
  }

  let temperature = { type: 1, subtype: 1 };
  let gate = { abstainBelow: opts.abstainBelow ?? 0, precision: 0, answeredRate: 1 };
  const folds = Math.min(opts.folds, labelled.length);
  if (folds >= 2) {
    const fold = stratifiedFolds(labelled, folds);
    const typeSamples: { logits: Float64Array; label: number }[] = [];
    const subtypeSamples: { logits: Float64Array; label: number }[] = [];
    const heldOut: { core: TCore; item: TLabelled }[] = [];
    for (let f = 0; f < folds; f += 1) {
      const core = fitCore(types, labelled.filter((_, i) => fold[i] !== f), opts);
      labelled.forEach((item, i) => {
        if (fold[i] !== f) return;
        const x = core.vectoriser.vectorise(item.text);
        typeSamples.push({ logits: core.typeModel.logits(x), label: item.type });
        const subModel = core.subtypeModels[item.type];
        if (subModel && subModel.classCount > 1) subtypeSamples.push({ logits: subModel.logits(x), label: item.subtype });
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

  const core = fitCore(types, labelled, opts);
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
  const core: TCore = {
    vectoriser: new Vectoriser(options.features, vectoriserState),
    typeModel: new SoftmaxModel(s.typeModel.classCount, s.typeModel),
    subtypeModels: s.subtypeModels.map((m) => new SoftmaxModel(m.classCount, m)),
  };
  return new Categoriser(s.board, options, core, s.temperature, s.abstainBelow, { ...s.stats });
}
