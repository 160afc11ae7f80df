// Complement naive Bayes (Rennie et al., 2003) over TF-IDF vectors: each class is scored by how badly
// the text fits every OTHER class, which stays stable when classes have very different amounts of
// history (a few tickets for "Server Hardware", dozens for "Password Reset"). The model is its
// weighted feature sums, so learning one more ticket is exact: add its vector to its class.
import type { TSparseVector } from './vectoriser';

export interface TExample {
  x: TSparseVector;
  y: number;
  weight: number;
}

export interface TComplementNbState {
  classCount: number;
  /** Sum of all feature values per class. */
  classTotals: number[];
  /** [featureIndex, summed value per class] */
  rows: [number, number[]][];
}

/**
 * The model exactly as it stands, as typed arrays a worker thread can transfer (nothing rounded, unlike state()): the
 * features in the order they were first seen, each feature's per-class sums one after the other in `values`.
 */
export interface TComplementNbSnapshot {
  classCount: number;
  classTotals: Float64Array;
  grandTotal: number;
  features: Int32Array;
  values: Float64Array;
}

export function softmax(scores: ArrayLike<number>, temperature = 1): number[] {
  let max = -Infinity;
  for (let i = 0; i < scores.length; i += 1) max = Math.max(max, (scores[i] ?? 0) / temperature);
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < scores.length; i += 1) {
    const e = Math.exp((scores[i] ?? 0) / temperature - max);
    out.push(e);
    sum += e;
  }
  return out.map((e) => e / sum);
}

export class ComplementNb {
  readonly classCount: number;
  private readonly classTotals: Float64Array;
  private readonly rows: Map<number, Float64Array>;
  private grandTotal = 0;

  /** `smoothing` is the additive (Lidstone) smoothing per feature; `vocabularySize` reads the current vocabulary. */
  constructor(
    classCount: number,
    private readonly smoothing: number,
    private readonly vocabularySize: () => number,
    state?: TComplementNbState | TComplementNbSnapshot,
  ) {
    this.classCount = classCount;
    this.classTotals = new Float64Array(classCount);
    this.rows = new Map();
    if (state && 'rows' in state) {
      state.classTotals.forEach((v, i) => (this.classTotals[i] = v));
      for (const [feature, values] of state.rows) this.rows.set(feature, Float64Array.from(values));
    } else if (state) {
      this.classTotals.set(state.classTotals);
      // Views into the one transferred buffer: adopting a snapshot copies nothing.
      state.features.forEach((feature, i) => this.rows.set(feature, state.values.subarray(i * classCount, (i + 1) * classCount)));
    }
    // A snapshot carries the running total as learnt: summed again in another order it could differ in the last bit.
    this.grandTotal = state && 'grandTotal' in state ? state.grandTotal : this.classTotals.reduce((s, v) => s + v, 0);
  }

  /** Adds one example's (weighted) feature values to its class. */
  learn(example: TExample): void {
    if (example.y < 0 || example.y >= this.classCount) return;
    for (let k = 0; k < example.x.indices.length; k += 1) {
      const feature = example.x.indices[k] ?? -1;
      const value = (example.x.values[k] ?? 0) * example.weight;
      let row = this.rows.get(feature);
      if (!row) {
        row = new Float64Array(this.classCount);
        this.rows.set(feature, row);
      }
      row[example.y] = (row[example.y] ?? 0) + value;
      this.classTotals[example.y] = (this.classTotals[example.y] ?? 0) + value;
      this.grandTotal += value;
    }
  }

  /** One score per class (higher is better), to be turned into probabilities with a temperature. */
  scores(x: TSparseVector): Float64Array {
    const out = new Float64Array(this.classCount);
    if (this.classCount < 2) return out;
    const alpha = this.smoothing;
    const vocabulary = Math.max(1, this.vocabularySize());
    const complementTotals = Array.from(this.classTotals, (t) => Math.log(this.grandTotal - t + alpha * vocabulary));
    for (let k = 0; k < x.indices.length; k += 1) {
      const v = x.values[k] ?? 0;
      const row = this.rows.get(x.indices[k] ?? -1);
      let featureTotal = 0;
      if (row) for (let c = 0; c < this.classCount; c += 1) featureTotal += row[c] ?? 0;
      for (let c = 0; c < this.classCount; c += 1) {
        const complementCount = featureTotal - (row?.[c] ?? 0) + alpha;
        // score = −Σ x·log P(feature | not c): a text that fits the complement badly fits c well.
        out[c] = (out[c] ?? 0) - v * (Math.log(complementCount) - (complementTotals[c] ?? 0));
      }
    }
    return out;
  }

  snapshot(): TComplementNbSnapshot {
    const features = new Int32Array(this.rows.size);
    const values = new Float64Array(this.rows.size * this.classCount);
    let i = 0;
    for (const [feature, row] of this.rows) {
      features[i] = feature;
      values.set(row, i * this.classCount);
      i += 1;
    }
    return { classCount: this.classCount, classTotals: Float64Array.from(this.classTotals), grandTotal: this.grandTotal, features, values };
  }

  state(): TComplementNbState {
    const round = (n: number) => Math.round(n * 1e5) / 1e5;
    const rows: [number, number[]][] = [];
    for (const [feature, values] of this.rows) rows.push([feature, Array.from(values, round)]);
    return { classCount: this.classCount, classTotals: Array.from(this.classTotals, round), rows };
  }
}
