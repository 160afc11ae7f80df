// Confidence calibration on out-of-fold predictions: a softmax temperature that minimises the
// negative log-likelihood, and the abstain gate that keeps the answered cases' precision at a target.
import { softmax } from './softmax-model';

/** The temperature (searched on a log grid, 0.1–10) under which the held-out log-likelihood is best. */
export function fitTemperature(samples: { logits: ArrayLike<number>; label: number }[]): number {
  if (samples.length === 0) return 1;
  let best = 1;
  let bestLoss = Infinity;
  for (let step = -20; step <= 20; step += 1) {
    const temperature = Math.pow(10, step / 20);
    let loss = 0;
    for (const sample of samples) loss -= Math.log(Math.max(softmax(sample.logits, temperature)[sample.label] ?? 0, 1e-12));
    if (loss < bestLoss) {
      bestLoss = loss;
      best = temperature;
    }
  }
  return best;
}

export interface TGate {
  abstainBelow: number;
  /** Out-of-fold precision and answered share at that gate. */
  precision: number;
  answeredRate: number;
}

/**
 * The lowest confidence gate whose answered cases reach the target precision out of fold (so as
 * few abstentions as the target allows). When no gate reaches it, the gate with the best precision
 * that still answers at least a fifth of the cases.
 */
export function fitAbstainGate(samples: { confidence: number; isCorrect: boolean }[], targetPrecision: number): TGate {
  if (samples.length === 0) return { abstainBelow: 0.5, precision: 0, answeredRate: 0 };
  const sorted = [...samples].sort((a, b) => b.confidence - a.confidence);
  let correct = 0;
  let chosen: TGate | null = null;
  let fallback: TGate | null = null;
  for (let i = 0; i < sorted.length; i += 1) {
    const sample = sorted[i];
    if (!sample) continue;
    if (sample.isCorrect) correct += 1;
    const next = sorted[i + 1];
    if (next && next.confidence === sample.confidence) continue; // a gate cannot split ties
    const answered = i + 1;
    const gate: TGate = { abstainBelow: sample.confidence, precision: correct / answered, answeredRate: answered / sorted.length };
    if (gate.precision >= targetPrecision) chosen = gate;
    if (gate.answeredRate >= 0.2 && (!fallback || gate.precision > fallback.precision)) fallback = gate;
  }
  return chosen ?? fallback ?? { abstainBelow: 1, precision: 0, answeredRate: 0 };
}
