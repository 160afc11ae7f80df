// Text → feature terms for the categoriser: lower-cased, accent-free word tokens with a light suffix
// stemmer and stop words removed, plus word bigrams. Language-generic plumbing, no per-category rules.

import { canonicalWords } from './search-terms';
import { stem } from './stem';

export { stem } from './stem';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have having he her him his how i if in into is it its ' +
    'just me my myself no not now of off on once only or our out over own same she should so some such than that the their them then there ' +
    'these they this those to too under until up very was we were what when where which while who why will with would you your yours ' +
    'am any all also again get got im ive dont cant doesnt isnt wont didnt please thanks thank hi hello team anyone still today ' +
    'just know need want like one really since yesterday morning'
  ).split(' '),
);

/** The content words of a text, stemmed, in order. */
export function words(text: string): string[] {
  const normalised = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '');
  const out: string[] = [];
  for (const raw of normalised.split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    if (/^\d+$/.test(raw) && raw.length > 4) continue; // ticket numbers, phone numbers: noise
    out.push(stem(raw));
  }
  return out;
}

export interface TFeatureOptions {
  /** Adjacent word pairs ("printer_offline") besides single words. */
  wordBigrams: boolean;
  /** Character n-grams of each word (with boundary marks), [min, max] length; null for none. */
  charNgrams: [number, number] | null;
  /**
   * Words of one IT thesaurus group become the group's first word ("pw" and "pwd" become "password"), as
   * retrieval meets them (issue #9). Off by default: 5-fold CV on the training part of the demo history
   * (bench:categorise, BENCH_CV=1) gave ungated top-1 0.643 → 0.648 and top-3 0.810 → 0.824 but gated
   * subtype macro-F1 0.349 → 0.291 and answered precision 0.912 → 0.902. Absent in models saved before it.
   */
  thesaurus?: boolean;
}

export const DEFAULT_FEATURE_OPTIONS: TFeatureOptions = { wordBigrams: true, charNgrams: null };

/** The feature terms of one text: content words, and by option word bigrams and character n-grams. */
export function featureTerms(text: string, options: TFeatureOptions = DEFAULT_FEATURE_OPTIONS): string[] {
  const ws = options.thesaurus === true ? canonicalWords(words(text)) : words(text);
  const terms: string[] = [...ws];
  if (options.wordBigrams) for (let i = 0; i + 1 < ws.length; i += 1) terms.push(`${ws[i]}_${ws[i + 1]}`);
  if (options.charNgrams) {
    const [min, max] = options.charNgrams;
    for (const w of ws) {
      const marked = `<${w}>`;
      for (let n = min; n <= max; n += 1) for (let i = 0; i + n <= marked.length; i += 1) terms.push(`#${marked.slice(i, i + n)}`);
    }
  }
  return terms;
}
