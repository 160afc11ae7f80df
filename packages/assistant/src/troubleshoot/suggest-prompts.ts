// The local prompt generator: without a model, the useful next questions are the ones
// the MSP's own knowledge can answer, so each prompt points at one retrieved source, best match first.
import { words } from '../text/tokenise';
import type { TRetrievedSource } from '../types';

const MAX_TITLE = 120;

function promptFor(source: TRetrievedSource): string {
  const title = source.title.trim().replace(/\s+/g, ' ').slice(0, MAX_TITLE);
  if (source.kind === 'article') return `Walk me through "${title}"`;
  if (source.kind === 'resolution') return `How was "${title}" resolved?`;
  return `What does "${title}" say?`;
}

/** Up to `limit` prompts built from the sources that share the most words with the text; none for blank text. */
export function suggestPromptsFromSources(text: string, sources: TRetrievedSource[], limit = 5): string[] {
  if (text.trim() === '' || limit <= 0) return [];
  const query = new Set(words(text));
  const ranked = sources
    .map((source, index) => {
      const terms = new Set(words(`${source.title} ${source.text}`));
      let shared = 0;
      for (const t of query) if (terms.has(t)) shared += 1;
      return { source, index, rank: (source.score ?? 0) + shared / Math.max(1, Math.sqrt(query.size * terms.size)) };
    })
    .sort((a, b) => b.rank - a.rank || a.index - b.index);
  const prompts: string[] = [];
  for (const { source } of ranked) {
    const prompt = promptFor(source);
    if (source.title.trim() !== '' && !prompts.includes(prompt)) prompts.push(prompt);
    if (prompts.length >= limit) break;
  }
  return prompts;
}
