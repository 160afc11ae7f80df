import { performance } from 'node:perf_hooks';
import {
  createLlmEngine,
  createLocalEngine,
  trainCategoriser,
  type TBoardCatalogue,
  type TCategoriserOptions,
  type TProposal,
  type TTrainingTicket,
} from '@switchboard/assistant';
import { loadDemoData, type THistoricalTicket } from '@switchboard/psa-sim';

type TBoardTemplate = ReturnType<typeof loadDemoData>['boardTemplate'];

// Evaluates the assistant's categorisation on the demo history (issue #9 "Done when"): a deterministic
// stratified hold-out of about 20% (every fifth ticket of each subtype, by ticket id) is never trained
// on; the options are tuned by cross-validation on the training part only (BENCH_TUNE=1 prints the
// grid). Prints type and subtype macro-F1 (an abstention counts as a miss), the precision of the
// answered cases, the abstention rate and the per-proposal latency. With LLM_BASE_URL, LLM_API_KEY and
// LLM_MODEL (and LLM_PROVIDER=openai|anthropic, default openai) the same hold-out runs through the LLM engine.

const TARGETS = { subtypeMacroF1: 0.85, answeredPrecision: 0.92, p95Ms: 20 };

function boardFromTemplate(template: TBoardTemplate): TBoardCatalogue {
  return {
    boards: [
      {
        id: 'board-1',
        name: template.boardName,
        types: template.types.map((type, t) => ({
          id: `type-${t + 1}`,
          name: type.typeName,
          subtypes: type.subTypes.map((sub, s) => ({ id: `subtype-${t + 1}-${s + 1}`, name: sub.subTypeName, priorityId: sub.priority, tier: sub.tier, slaHours: sub.slaDeadLineInHours })),
        })),
      },
    ],
  };
}

function trainingTicket(ticket: THistoricalTicket): TTrainingTicket {
  return { summary: ticket.summary, description: ticket.description, typeName: ticket.type, subtypeName: ticket.subType, resolution: ticket.resolution };
}

/** Every fifth ticket of each subtype (ordered by id, starting with the third) is held out. */
export function splitHoldOut(tickets: THistoricalTicket[], every = 5, offset = 2): { train: THistoricalTicket[]; test: THistoricalTicket[] } {
  const bySubtype = new Map<string, THistoricalTicket[]>();
  for (const t of [...tickets].sort((a, b) => a.id - b.id)) {
    const key = `${t.type}/${t.subType}`;
    bySubtype.set(key, [...(bySubtype.get(key) ?? []), t]);
  }
  const train: THistoricalTicket[] = [];
  const test: THistoricalTicket[] = [];
  for (const group of bySubtype.values()) group.forEach((t, i) => (i % every === offset % every ? test : train).push(t));
  return { train, test };
}

interface TScore {
  typeMacroF1: number;
  subtypeMacroF1: number;
  answeredPrecision: number;
  abstentionRate: number;
  answered: number;
  total: number;
}

function macroF1(truth: string[], predicted: (string | null)[]): number {
  const classes = new Set(truth);
  let sum = 0;
  for (const c of classes) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    truth.forEach((t, i) => {
      const p = predicted[i] ?? null;
      if (p === c && t === c) tp += 1;
      else {
        if (p === c) fp += 1;
        if (t === c) fn += 1;
      }
    });
    const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
    const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    sum += precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  }
  return classes.size > 0 ? sum / classes.size : 0;
}

function score(test: THistoricalTicket[], proposals: TProposal[]): TScore {
  const truthType = test.map((t) => t.type);
  const truthSubtype = test.map((t) => `${t.type}/${t.subType}`);
  const predType = proposals.map((p) => (p.kind === 'answer' ? p.choice.typeName : null));
  const predSubtype = proposals.map((p) => (p.kind === 'answer' ? `${p.choice.typeName}/${p.choice.subtypeName}` : null));
  const answered = proposals.filter((p) => p.kind === 'answer').length;
  const correct = predSubtype.filter((p, i) => p !== null && p === truthSubtype[i]).length;
  return {
    typeMacroF1: macroF1(truthType, predType),
    subtypeMacroF1: macroF1(truthSubtype, predSubtype),
    answeredPrecision: answered > 0 ? correct / answered : 0,
    abstentionRate: (test.length - answered) / test.length,
    answered,
    total: test.length,
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

function crossValidate(board: TBoardCatalogue, train: THistoricalTicket[], options: Partial<TCategoriserOptions>): TScore {
  // 5 stratified folds of the training part; the hold-out is never touched.
  const proposals: TProposal[] = [];
  const order: THistoricalTicket[] = [];
  for (let f = 0; f < 5; f += 1) {
    const { train: inner, test: validation } = splitHoldOut(train, 5, f);
    const categoriser = trainCategoriser(board, inner.map(trainingTicket), options);
    for (const t of validation) {
      proposals.push(categoriser.propose({ text: `${t.summary}\n${t.description}` }));
      order.push(t);
    }
  }
  return score(order, proposals);
}

const fmt = (n: number) => n.toFixed(3);

async function main(): Promise<void> {
  const data = loadDemoData();
  const board = boardFromTemplate(data.boardTemplate);
  const { train, test } = splitHoldOut(data.historicalTickets);
  console.log(`categorise: ${data.historicalTickets.length} labelled tickets, ${train.length} for training, ${test.length} held out (never trained on)`);

  if (process.env.BENCH_TUNE === '1') {
    for (const epochs of [20, 40]) {
      for (const learningRate of [0.3, 1]) {
        for (const l2 of [0, 1e-5, 1e-4]) {
          for (const nameWeight of [1, 3]) {
            const s = crossValidate(board, train, { epochs, learningRate, l2, nameWeight });
            console.log(`tune epochs=${epochs} lr=${learningRate} l2=${l2} nameWeight=${nameWeight}: subtype F1 ${fmt(s.subtypeMacroF1)} precision ${fmt(s.answeredPrecision)} abstain ${fmt(s.abstentionRate)}`);
          }
        }
      }
    }
  }

  const started = performance.now();
  const categoriser = trainCategoriser(board, train.map(trainingTicket));
  const trainingMs = performance.now() - started;
  console.log(
    `local: trained in ${trainingMs.toFixed(0)} ms; gate ${fmt(categoriser.stats.abstainBelow)} (out of fold: precision ${fmt(categoriser.stats.outOfFold.precision)}, answered ${fmt(categoriser.stats.outOfFold.answeredRate)}); temperatures ${fmt(categoriser.stats.temperature.type)} / ${fmt(categoriser.stats.temperature.subtype)}; model ${(categoriser.serialise().length / 1024).toFixed(0)} KB`,
  );
  const engine = createLocalEngine({ categoriser });
  const proposals: TProposal[] = [];
  const latencies: number[] = [];
  for (const t of test) {
    const t0 = performance.now();
    const result = await engine.categorise({ text: `${t.summary}\n${t.description}` });
    latencies.push(performance.now() - t0);
    proposals.push(result.value);
  }
  latencies.sort((a, b) => a - b);
  const local = score(test, proposals);
  const p95 = percentile(latencies, 0.95);
  console.log(
    `local: type macro-F1 ${fmt(local.typeMacroF1)}, subtype macro-F1 ${fmt(local.subtypeMacroF1)} (target ≥ ${TARGETS.subtypeMacroF1}), answered precision ${fmt(local.answeredPrecision)} (target ≥ ${TARGETS.answeredPrecision}), abstention rate ${fmt(local.abstentionRate)} (${local.total - local.answered}/${local.total}), latency p50 ${percentile(latencies, 0.5).toFixed(2)} ms p95 ${p95.toFixed(2)} ms (target ≤ ${TARGETS.p95Ms})`,
  );
  const met = local.subtypeMacroF1 >= TARGETS.subtypeMacroF1 && local.answeredPrecision >= TARGETS.answeredPrecision && p95 <= TARGETS.p95Ms;
  console.log(`local: targets ${met ? 'met' : 'NOT met'}`);

  const baseUrl = process.env.LLM_BASE_URL;
  const apiKey = process.env.LLM_API_KEY;
  const model = process.env.LLM_MODEL;
  if (baseUrl && apiKey && model) {
    const provider = process.env.LLM_PROVIDER === 'anthropic' ? 'anthropic' : 'openai';
    const llm = createLlmEngine({ provider, baseUrl, apiKey, model, timeoutMs: Number(process.env.LLM_TIMEOUT_MS ?? 30_000), board, fallback: engine });
    const llmProposals: TProposal[] = [];
    const llmLatencies: number[] = [];
    let fallbacks = 0;
    for (const t of test) {
      const t0 = performance.now();
      const result = await llm.categorise({ text: `${t.summary}\n${t.description}` });
      llmLatencies.push(performance.now() - t0);
      if (result.engine !== 'llm') fallbacks += 1;
      llmProposals.push(result.value);
    }
    llmLatencies.sort((a, b) => a - b);
    const s = score(test, llmProposals);
    console.log(
      `llm (${provider}, ${model}): type macro-F1 ${fmt(s.typeMacroF1)}, subtype macro-F1 ${fmt(s.subtypeMacroF1)}, answered precision ${fmt(s.answeredPrecision)}, abstention rate ${fmt(s.abstentionRate)}, fell back to local ${fallbacks}/${test.length}, latency p50 ${percentile(llmLatencies, 0.5).toFixed(0)} ms p95 ${percentile(llmLatencies, 0.95).toFixed(0)} ms`,
    );
  } else {
    console.log('llm: skipped (set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to run the hold-out through an LLM endpoint)');
  }
}

await main();
