import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  createLlmEngine,
  DEFAULT_CATEGORISER_OPTIONS,
  DEFAULT_QUESTION_BANK,
  questionsForSubtype,
  type TAnswer,
  createLocalEngine,
  trainCategoriser,
  type TBoardCatalogue,
  type TLabelledArticle,
  type TTrainOptions,
  type TProposal,
  type TTrainingTicket,
} from '@switchboard/assistant';
import { startLlmServer, type TRecordedRequest, type TReply } from '@switchboard/assistant/testing';
import { loadDemoData, type THistoricalTicket } from '@switchboard/psa-sim';
import { splitHoldOut } from './demo-split';

type TBoardTemplate = ReturnType<typeof loadDemoData>['boardTemplate'];

// Evaluates the assistant's categorisation on the demo history (issue #9 "Done when"): a deterministic
// stratified hold-out of about 20% (every fifth ticket of each subtype, by ticket id) is never trained
// on; the options are tuned by cross-validation on the training part only (BENCH_TUNE=1 prints the
// grid). Prints type and subtype macro-F1 (an abstention counts as a miss), the precision of the
// answered cases, the abstention rate and the per-proposal latency. With LLM_BASE_URL, LLM_API_KEY and
// LLM_MODEL (and LLM_PROVIDER=openai|anthropic, default openai) the same hold-out runs through the LLM engine;
// without them it runs through the LLM engine against the local fake OpenAI-compatible server, as a
// protocol and latency check of the LLM path (the fake does not read the request: no accuracy figure).

/** Every how many requests the fake proposes a category that is not on the board (the engine must refuse it). */
const FAKE_OFF_BOARD_EVERY = 10;

/**
 * The fake model's categorisation: the first category the request offers, confidence 0.9, and every
 * FAKE_OFF_BOARD_EVERY-th time an id that is not on the board. It never looks at the ticket text.
 */
function fakeCategorisation(): (request: TRecordedRequest) => TReply {
  let count = 0;
  return (request) => {
    count += 1;
    const content = typeof request.body.messages === 'object' && Array.isArray(request.body.messages) ? (request.body.messages as { content?: unknown }[]).at(-1)?.content : undefined;
    const offered = typeof content === 'string' ? (JSON.parse(content) as { board?: { boardId: string; typeId: string; subtypeId: string }[] }).board?.[0] : undefined;
    if (!offered) return { kind: 'status', status: 400, body: { error: { message: 'no board in the request' } } };
    const category = { boardId: String(offered.boardId), typeId: String(offered.typeId), subtypeId: count % FAKE_OFF_BOARD_EVERY === 0 ? 'not-on-the-board' : String(offered.subtypeId) };
    return { kind: 'openai-json', content: JSON.stringify({ ...category, confidence: 0.9, alternatives: [], reason: 'protocol check' }) };
  };
}

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

interface TScore {
  typeMacroF1: number;
  subtypeMacroF1: number;
  answeredPrecision: number;
  abstentionRate: number;
  answered: number;
  total: number;
  /** Without the abstain gate: how often the best candidate is right, and how often the right one is among the three shown. */
  top1: number;
  top3: number;
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
    top1: proposals.filter((p, i) => p.candidates[0] && `${p.candidates[0].typeName}/${p.candidates[0].subtypeName}` === truthSubtype[i]).length / test.length,
    top3: proposals.filter((p, i) => p.candidates.slice(0, 3).some((c) => `${c.typeName}/${c.subtypeName}` === truthSubtype[i])).length / test.length,
  };
}

/** Expected calibration error over 5 confidence bins, and each bin's mean confidence vs accuracy. */
function calibration(test: THistoricalTicket[], proposals: TProposal[]): string {
  const bins = Array.from({ length: 5 }, () => ({ n: 0, confidence: 0, correct: 0 }));
  proposals.forEach((p, i) => {
    const top = p.candidates[0];
    const truth = test[i];
    if (!top || !truth) return;
    const bin = bins[Math.min(4, Math.floor(top.confidence * 5))];
    if (!bin) return;
    bin.n += 1;
    bin.confidence += top.confidence;
    if (top.typeName === truth.type && top.subtypeName === truth.subType) bin.correct += 1;
  });
  const total = bins.reduce((s, b) => s + b.n, 0);
  const ece = bins.reduce((s, b) => s + (b.n > 0 ? (b.n / total) * Math.abs(b.confidence / b.n - b.correct / b.n) : 0), 0);
  const detail = bins
    .map((b, i) => (b.n > 0 ? `${(i * 0.2).toFixed(1)}–${((i + 1) * 0.2).toFixed(1)}: ${b.n} at ${fmt(b.confidence / b.n)} conf, ${fmt(b.correct / b.n)} right` : null))
    .filter((x) => x !== null)
    .join('; ');
  return `ECE ${fmt(ece)} (${detail})`;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/** The demo knowledge articles that name a subtype: the MSP's own labelled knowledge, trained on beside the tickets. */
function loadArticles(): TLabelledArticle[] {
  const lines = readFileSync(new URL('../packages/psa-sim/data/kb-articles.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const articles: TLabelledArticle[] = [];
  for (const line of lines) {
    const a = JSON.parse(line) as { title: string; body: string; tags: string[]; type: string | null; subType: string | null };
    if (a.type && a.subType) articles.push({ title: a.title, text: `${a.tags.join(', ')}\n${a.body}`, typeName: a.type, subtypeName: a.subType });
  }
  return articles;
}

function crossValidate(board: TBoardCatalogue, train: THistoricalTicket[], options: TTrainOptions): TScore {
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

  const articles = loadArticles();
  if (process.env.BENCH_TUNE === '1') {
    for (const smoothing of [0.5, 1, 2]) {
      for (const nameWeight of [1, 3]) {
        for (const questionWeight of [0, 2, 4, 6]) {
          for (const articleWeight of [0, 1, 2, 3]) {
            const s = crossValidate(board, train, { articles, smoothing, nameWeight, questionWeight, articleWeight });
            console.log(
              `tune smoothing=${smoothing} nameWeight=${nameWeight} questionWeight=${questionWeight} articleWeight=${articleWeight}: type F1 ${fmt(s.typeMacroF1)} subtype F1 ${fmt(s.subtypeMacroF1)} precision ${fmt(s.answeredPrecision)} abstain ${fmt(s.abstentionRate)} | ungated top-1 ${fmt(s.top1)} top-3 ${fmt(s.top3)}`,
            );
          }
        }
      }
    }
  }

  if (process.env.BENCH_CV === '1') {
    // Issue #9: the IT thesaurus retrieval uses, applied to the features or not; 5-fold CV on the training part only.
    for (const thesaurus of [false, true]) {
      const s = crossValidate(board, train, { articles, features: { ...DEFAULT_CATEGORISER_OPTIONS.features, thesaurus } });
      console.log(
        `cv thesaurus=${thesaurus}: type F1 ${fmt(s.typeMacroF1)} subtype F1 ${fmt(s.subtypeMacroF1)} precision ${fmt(s.answeredPrecision)} abstain ${fmt(s.abstentionRate)} | ungated top-1 ${fmt(s.top1)} top-3 ${fmt(s.top3)}`,
      );
    }
  }

  const started = performance.now();
  const categoriser = trainCategoriser(board, train.map(trainingTicket), { articles });
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
  console.log(`local: without the gate, the best candidate is right for ${fmt(local.top1)} of the hold-out and the right one is among the three shown for ${fmt(local.top3)}`);
  console.log(`local: calibration of the best candidate's confidence on the hold-out — ${calibration(test, proposals)}`);

  // Informational only (nothing is chosen from it): what other gates would give on the hold-out.
  const gates = [0, 0.3, 0.5, 0.7, 0.8, 0.9].map((gate) => {
    const gated = proposals.map((p): TProposal => {
      const top = p.candidates[0];
      if (!top) return p;
      return top.confidence >= gate ? { kind: 'answer', choice: top, confidence: top.confidence, candidates: p.candidates } : { kind: 'abstain', candidates: p.candidates, confidence: top.confidence, reason: 'gate' };
    });
    const s = score(test, gated);
    return `${gate.toFixed(1)}: F1 ${fmt(s.subtypeMacroF1)} / precision ${fmt(s.answeredPrecision)} / abstain ${fmt(s.abstentionRate)}`;
  });
  console.log(`local: other gates on the hold-out (informational) — ${gates.join('; ')}`);

  // The chat flow asks before it guesses: the first answer carries the engine's diagnostic questions
  // (three, as ticket-chat.service asks them), the user answers, and the answers re-rank the proposal; while it
  // is still unsure, the second answer asks one more round of three (decision 038), whose answers re-rank it again.
  // A simulated user answers truthfully by the question list of the ticket's real subtype (an optimistic user:
  // every answer agrees with the bank).
  const afterRounds = async (rounds: number, limit: number | undefined): Promise<ReturnType<typeof score>> => {
    const final: TProposal[] = [];
    for (const [index, t] of test.entries()) {
      const text = `${t.summary}\n${t.description}`;
      const answers: TAnswer[] = [];
      let proposal = proposals[index] ?? (await engine.categorise({ text })).value;
      const truthIds = new Set(questionsForSubtype(DEFAULT_QUESTION_BANK, t.type, t.subType).map((q) => q.id));
      // The first round is always asked (the chat asks before it proposes); a later one only while still unsure.
      for (let round = 0; round < rounds && (round === 0 || proposal.kind === 'abstain'); round += 1) {
        const { value: questions } = await engine.questions({ proposal, answers, ...(limit === undefined ? {} : { limit }) });
        if (questions.length === 0) break;
        for (const q of questions) answers.push({ questionId: q.id, answer: truthIds.has(q.id) ? 'yes' : 'no' });
        proposal = (await engine.categorise({ text, answers })).value;
      }
      final.push(proposal);
    }
    return score(test, final);
  };
  const asked = await afterRounds(2, 3);
  console.log(
    `local after the chat's questions (as the product asks them: three, and three more while still unsure; simulated truthful user): type macro-F1 ${fmt(asked.typeMacroF1)}, subtype macro-F1 ${fmt(asked.subtypeMacroF1)}, answered precision ${fmt(asked.answeredPrecision)}, abstention rate ${fmt(asked.abstentionRate)}`,
  );
  // Informational: one round of three only (the chat before decision 038).
  const once = await afterRounds(1, 3);
  console.log(
    `local after one round of three questions only (the chat before decision 038; informational): subtype macro-F1 ${fmt(once.subtypeMacroF1)}, answered precision ${fmt(once.answeredPrecision)}, abstention rate ${fmt(once.abstentionRate)}`,
  );

  const baseUrl = process.env.LLM_BASE_URL;
  const apiKey = process.env.LLM_API_KEY;
  const model = process.env.LLM_MODEL;
  if (!(baseUrl && apiKey && model)) {
    await llmProtocolCheck(board, engine, test);
    console.log('llm: for the same figures from a real endpoint, set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL (and LLM_PROVIDER=anthropic for Claude)');
    return;
  }
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
}

/**
 * The hold-out through the LLM engine and the real openai SDK against the local fake server: shows the
 * LLM path works end to end (HTTP, JSON schema, validation against the board, fallback on an off-board
 * id) and what it adds in latency. Not an accuracy figure: the fake answers without reading the ticket.
 */
async function llmProtocolCheck(board: TBoardCatalogue, local: ReturnType<typeof createLocalEngine>, test: THistoricalTicket[]): Promise<void> {
  const server = await startLlmServer({ reply: fakeCategorisation() });
  try {
    const llm = createLlmEngine({ provider: 'openai', baseUrl: `${server.url}/v1`, apiKey: 'sk-bench', model: 'fake-model', timeoutMs: 5_000, board, fallback: local });
    const latencies: number[] = [];
    let byLlm = 0;
    let refused = 0;
    let other = 0;
    for (const t of test) {
      const t0 = performance.now();
      const result = await llm.categorise({ text: `${t.summary}\n${t.description}` });
      latencies.push(performance.now() - t0);
      if (result.engine === 'llm') byLlm += 1;
      else if (result.fallbackReason === 'The language model proposed a category that is not on the board.') refused += 1;
      else other += 1;
    }
    latencies.sort((a, b) => a - b);
    const requests = server.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const expectedRefusals = Math.floor(test.length / FAKE_OFF_BOARD_EVERY);
    const isWorking = requests === test.length && refused === expectedRefusals && other === 0 && byLlm === test.length - expectedRefusals;
    console.log(
      `llm protocol check (local fake OpenAI-compatible server through the openai SDK; NOT an accuracy figure: the fake answers the first category offered without reading the ticket): ${requests} requests for ${test.length} tickets, ${byLlm} proposals from the LLM path, ${refused} off-board ids refused and answered by the local engine (expected ${expectedRefusals}), ${other} other fallbacks; latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms p95 ${percentile(latencies, 0.95).toFixed(1)} ms — ${isWorking ? 'the LLM path works end to end' : 'THE LLM PATH DID NOT BEHAVE AS EXPECTED'}`,
    );
    if (!isWorking) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

await main();
