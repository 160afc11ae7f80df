// TF-IDF vectoriser with a growable vocabulary: sublinear term frequency × smoothed IDF, L2-normalised.
// Document frequencies are kept (not only the IDF), so a closed ticket can update them incrementally.
import { DEFAULT_FEATURE_OPTIONS, featureTerms, type TFeatureOptions } from '../text/tokenise';

export interface TSparseVector {
  indices: number[];
  values: number[];
}

export interface TVectoriserState {
  terms: string[];
  documentFrequency: number[];
  documentCount: number;
}

export class Vectoriser {
  private readonly indexOf = new Map<string, number>();
  private readonly terms: string[];
  private readonly documentFrequency: number[];
  private documentCount: number;

  constructor(
    private readonly features: TFeatureOptions = DEFAULT_FEATURE_OPTIONS,
    state: TVectoriserState = { terms: [], documentFrequency: [], documentCount: 0 },
  ) {
    this.terms = [...state.terms];
    this.documentFrequency = [...state.documentFrequency];
    this.documentCount = state.documentCount;
    this.terms.forEach((term, i) => this.indexOf.set(term, i));
  }

  get size(): number {
    return this.terms.length;
  }

  /** Counts a document's terms into the vocabulary and document frequencies. */
  observe(text: string): void {
    const seen = new Set(featureTerms(text, this.features));
    for (const term of seen) {
      let index = this.indexOf.get(term);
      if (index === undefined) {
        index = this.terms.length;
        this.terms.push(term);
        this.documentFrequency.push(0);
        this.indexOf.set(term, index);
      }
      this.documentFrequency[index] = (this.documentFrequency[index] ?? 0) + 1;
    }
    this.documentCount += 1;
  }

  /** The TF-IDF vector of a text; terms never observed are dropped. */
  vectorise(text: string): TSparseVector {
    const counts = new Map<number, number>();
    for (const term of featureTerms(text, this.features)) {
      const index = this.indexOf.get(term);
      if (index !== undefined) counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    const indices: number[] = [];
    const values: number[] = [];
    let norm = 0;
    for (const [index, count] of counts) {
      const df = this.documentFrequency[index] ?? 0;
      const idf = Math.log((1 + this.documentCount) / (1 + df)) + 1;
      const value = (1 + Math.log(count)) * idf;
      indices.push(index);
      values.push(value);
      norm += value * value;
    }
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < values.length; i += 1) values[i] = (values[i] ?? 0) * scale;
    return { indices, values };
  }

  state(): TVectoriserState {
    return { terms: [...this.terms], documentFrequency: [...this.documentFrequency], documentCount: this.documentCount };
  }
}
