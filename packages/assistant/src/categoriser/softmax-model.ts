// Multinomial logistic regression (softmax) over sparse TF-IDF vectors, trained with AdaGrad SGD and
// L2 regularisation. Weights are stored per feature row, so the model grows with the vocabulary and
// serialises only the features its classes have seen.
import type { TSparseVector } from './vectoriser';

export interface TExample {
  x: TSparseVector;
  y: number;
  weight: number;
}

export interface TSoftmaxTraining {
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
}

export interface TSoftmaxState {
  classCount: number;
  bias: number[];
  /** [featureIndex, weight per class] */
  rows: [number, number[]][];
}

/** A small deterministic PRNG (mulberry32): training is reproducible run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function softmax(logits: ArrayLike<number>, temperature = 1): number[] {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i += 1) max = Math.max(max, (logits[i] ?? 0) / temperature);
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < logits.length; i += 1) {
    const e = Math.exp((logits[i] ?? 0) / temperature - max);
    out.push(e);
    sum += e;
  }
  return out.map((e) => e / sum);
}

export class SoftmaxModel {
  readonly classCount: number;
  private readonly bias: Float64Array;
  private readonly rows: Map<number, Float64Array>;

  constructor(classCount: number, state?: TSoftmaxState) {
    this.classCount = classCount;
    this.bias = new Float64Array(classCount);
    this.rows = new Map();
    if (state) {
      state.bias.forEach((b, i) => (this.bias[i] = b));
      for (const [feature, weights] of state.rows) this.rows.set(feature, Float64Array.from(weights));
    }
  }

  logits(x: TSparseVector): Float64Array {
    const out = Float64Array.from(this.bias);
    for (let k = 0; k < x.indices.length; k += 1) {
      const row = this.rows.get(x.indices[k] ?? -1);
      if (!row) continue;
      const v = x.values[k] ?? 0;
      for (let c = 0; c < this.classCount; c += 1) out[c] = (out[c] ?? 0) + (row[c] ?? 0) * v;
    }
    return out;
  }

  /** Trains from scratch on the examples (AdaGrad, shuffled each epoch with a seeded PRNG). */
  train(examples: TExample[], options: TSoftmaxTraining): void {
    if (this.classCount < 2 || examples.length === 0) return;
    const random = seededRandom(options.seed);
    const order = examples.map((_, i) => i);
    const squaredGradients = new Map<number, Float64Array>();
    const biasSquared = new Float64Array(this.classCount);
    for (let epoch = 0; epoch < options.epochs; epoch += 1) {
      for (let i = order.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        const t = order[i] ?? 0;
        order[i] = order[j] ?? 0;
        order[j] = t;
      }
      for (const index of order) {
        const example = examples[index];
        if (example) this.step(example, options.learningRate, options.l2, squaredGradients, biasSquared);
      }
    }
  }

  /** One online update from a single example (a closed ticket), at a fixed learning rate. */
  learnOne(example: TExample, learningRate: number, l2: number): void {
    if (this.classCount < 2) return;
    this.step(example, learningRate, l2, null, null);
  }

  private step(
    example: TExample,
    learningRate: number,
    l2: number,
    squaredGradients: Map<number, Float64Array> | null,
    biasSquared: Float64Array | null,
  ): void {
    const probabilities = softmax(this.logits(example.x));
    const error = probabilities.map((p, c) => (p - (c === example.y ? 1 : 0)) * example.weight);
    for (let c = 0; c < this.classCount; c += 1) {
      const g = error[c] ?? 0;
      let rate = learningRate;
      if (biasSquared) {
        biasSquared[c] = (biasSquared[c] ?? 0) + g * g;
        rate = learningRate / Math.sqrt((biasSquared[c] ?? 0) + 1e-8);
      }
      this.bias[c] = (this.bias[c] ?? 0) - rate * g;
    }
    for (let k = 0; k < example.x.indices.length; k += 1) {
      const feature = example.x.indices[k] ?? -1;
      const v = example.x.values[k] ?? 0;
      let row = this.rows.get(feature);
      if (!row) {
        row = new Float64Array(this.classCount);
        this.rows.set(feature, row);
      }
      let accumulated: Float64Array | undefined;
      if (squaredGradients) {
        accumulated = squaredGradients.get(feature);
        if (!accumulated) {
          accumulated = new Float64Array(this.classCount);
          squaredGradients.set(feature, accumulated);
        }
      }
      for (let c = 0; c < this.classCount; c += 1) {
        const w = row[c] ?? 0;
        const g = (error[c] ?? 0) * v + l2 * w;
        let rate = learningRate;
        if (accumulated) {
          accumulated[c] = (accumulated[c] ?? 0) + g * g;
          rate = learningRate / Math.sqrt((accumulated[c] ?? 0) + 1e-8);
        }
        row[c] = w - rate * g;
      }
    }
  }

  state(): TSoftmaxState {
    const round = (n: number) => Math.round(n * 1e5) / 1e5;
    const rows: [number, number[]][] = [];
    for (const [feature, weights] of this.rows) {
      const rounded = Array.from(weights, round);
      if (rounded.some((w) => w !== 0)) rows.push([feature, rounded]);
    }
    return { classCount: this.classCount, bias: Array.from(this.bias, round), rows };
  }
}
