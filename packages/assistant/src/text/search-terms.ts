import { IT_THESAURUS } from './it-thesaurus';
import { stem } from './stem';

// Query-time normalisation for full-text retrieval (issue #9, word forms). A query's words become
// groups of alternatives: the word itself, and when the word (or a phrase of up to three words) is in the
// IT thesaurus, every equal of its group. PostgreSQL then stems each alternative with its English
// configuration and, with `:*`, matches it as a prefix of the stored stems, so "locked" meets "lockout",
// "printing" meets "printer" and "synced" meets "syncing"; the thesaurus meets what stemming cannot
// ("pw" and "password", "e-mail" and "mail", "2fa" and "authenticator").

/** One word of the query with its alternatives (each a word or a phrase of words). */
export interface TSearchTermGroup {
  /** The word or phrase as the query has it. */
  source: string;
  alternatives: string[];
}

/**
 * Words that a help-desk request says whatever its problem ("not working", "keeps", "again", "issue"):
 * as search words they rank every text that says them, so they are left out like English stop words.
 */
const HELP_DESK_STOP_WORDS = new Set(
  ('work works working worked issue issues problem problems help need needs please thanks thank still again anymore keep keeps ' +
    'really today yesterday since getting get gets got trying tried unable cant wont doesnt isnt didnt able').split(' '),
);

/** Alternatives shorter than this match only as whole stems: "pc:*" or "ad:*" would match half the dictionary. */
const MIN_PREFIX_LENGTH = 4;
const MAX_PHRASE_WORDS = 3;
/** Bounds the tsquery of a long text (a ticket's whole description): its first words are enough to rank by. */
const MAX_GROUPS = 64;

/**
 * Lower-case words of letters and digits of any script, accents kept as the stored texts keep them ("café",
 * "zürich"), apostrophes joined ("printer's" → "printers"); everything else — tsquery operators included — a break.
 */
export function plainWords(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** A word or phrase as the thesaurus looks it up: each word stemmed, so "e-mails" finds "e mail" and "printers" "printer". */
const lookupKey = (words: readonly string[]) => words.map(stem).join(' ');

const groupOfEntry = new Map<string, readonly string[]>();
for (const group of IT_THESAURUS) for (const entry of group) groupOfEntry.set(lookupKey(plainWords(entry)), group);

/**
 * The query's words as groups of alternatives, in order and without repeats; the longest thesaurus
 * phrase wins ("multi factor" is one group, not two).
 */
export function searchTermGroups(query: string): TSearchTermGroup[] {
  const words = plainWords(query);
  const groups: TSearchTermGroup[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length && groups.length < MAX_GROUPS; ) {
    let taken = 1;
    let alternatives: string[] | undefined;
    for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 1; n -= 1) {
      const group = groupOfEntry.get(lookupKey(words.slice(i, i + n)));
      if (group) {
        taken = n;
        alternatives = group.map((entry) => plainWords(entry).join(' '));
        break;
      }
    }
    const source = words.slice(i, i + taken).join(' ');
    i += taken;
    const key = alternatives ? (alternatives[0] ?? source) : source;
    // A lone letter ("e" of a split "e-mail" that is no thesaurus phrase) finds nothing useful.
    if (seen.has(key) || (!alternatives && (source.length < 2 || HELP_DESK_STOP_WORDS.has(source)))) continue;
    seen.add(key);
    groups.push({ source, alternatives: alternatives ?? [source] });
  }
  return groups;
}

/** One alternative as tsquery text: a word as a prefix (when long enough), a phrase as words in a row. */
function alternativeQuery(alternative: string): string {
  const words = alternative.split(' ');
  if (words.length > 1) return `(${words.join(' <-> ')})`;
  return alternative.length >= MIN_PREFIX_LENGTH && !/^\p{N}+$/u.test(alternative) ? `${alternative}:*` : alternative;
}

/**
 * The text for `to_tsquery('english', …)` that matches any of the query's words in any of their forms:
 * groups OR-ed, each group's alternatives OR-ed. `equals: false` keeps each word as written (its stem as a
 * prefix, no thesaurus equals): what ranking weighs first, so a word the user wrote counts for more than
 * its equals. Only letters, digits and tsquery operators: safe to bind. Empty when the query has no words.
 */
export function tsQueryText(query: string, options: { equals?: boolean } = {}): string {
  const withEquals = options.equals !== false;
  return searchTermGroups(query)
    .map((group) => `(${(withEquals ? group.alternatives : [group.source]).map(alternativeQuery).join(' | ')})`)
    .join(' | ');
}

/**
 * Each group of the query alone as text for `to_tsquery('english', …)` (its alternatives OR-ed), in the
 * order of `tsQueryText`: ranking weighs the groups apart, a rare word more than a common one (inverse
 * document frequency). A group of English stop words only ("my") becomes an empty tsquery there.
 */
export function groupTsQueryTexts(query: string): string[] {
  return searchTermGroups(query).map((group) => group.alternatives.map(alternativeQuery).join(' | '));
}

/**
 * Stemmed content words with each thesaurus word or phrase (longest first) replaced by its group's first
 * entry, stemmed and joined by "_" ("2fa" → "mfa", "e mail" → "email"): the categoriser's features meet
 * the same equals as retrieval.
 */
export function canonicalWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let taken = 0;
    for (let n = Math.min(MAX_PHRASE_WORDS, words.length - i); n >= 1 && taken === 0; n -= 1) {
      const group = groupOfEntry.get(lookupKey(words.slice(i, i + n)));
      const first = group?.[0];
      if (first !== undefined) {
        out.push(plainWords(first).map(stem).join('_'));
        taken = n;
      }
    }
    if (taken === 0) {
      out.push(words[i] ?? '');
      taken = 1;
    }
    i += taken;
  }
  return out;
}
