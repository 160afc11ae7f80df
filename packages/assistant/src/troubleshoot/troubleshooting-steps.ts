// The spec's "10 best steps", built from texts the caller retrieved (knowledge articles, past
// resolutions, documents; retrieval and its tenant/company scoping live in the server). Steps keep the
// order their source gives them; the most relevant source leads, others add what it lacks; every step
// cites its source. Nothing here invents a step: each one is a sentence or list item of a source.
import { words } from '../text/tokenise';
import type { TRetrievedSource, TSourceRef, TStep } from '../types';

const MAX_STEP_LENGTH = 400;
/** Steps of the leading source kept before others may add theirs. */
const LEAD_SHARE = 0.7;
/**
 * A source ranked under this share of the best rank among the sources not filed under the problem's category gives
 * no step, unless it is filed under that category: it shares a word or two with the problem and little else, and its
 * steps were noise ("Chrome opening gambling sites" got a pre-logon VPN step). On the demo history's validation fold
 * (`npm run bench:retrieval`, queue troubleshooting; decision 040) 0.6 raised the share of steps citing a source of
 * the ticket's own subtype from 0.71 to 0.80, at 9.5 steps an answer instead of 10.
 */
const MIN_SHARE_OF_LEAD = 0.6;

function stripMarkdown(line: string): string {
  return line
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function clip(text: string): string {
  if (text.length <= MAX_STEP_LENGTH) return text;
  const cut = text.slice(0, MAX_STEP_LENGTH);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('; '));
  return end > MAX_STEP_LENGTH / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/**
 * The actionable lines of one text: its numbered items (outside "escalate" sections); failing those
 * its bullet items; failing those (unless `isProseAllowed` is false) its sentences.
 */
export function extractSteps(text: string, options: { isProseAllowed?: boolean } = {}): string[] {
  const numbered: string[] = [];
  const bullets: string[] = [];
  /** The lines outside headings and escalation sections: what the sentence fallback may read. */
  const kept: string[] = [];
  let isEscalationSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(raw);
    if (heading) {
      isEscalationSection = /escalat/i.test(heading[1] ?? '');
      continue;
    }
    if (isEscalationSection) continue;
    kept.push(raw);
    const item = /^\s{0,3}\d{1,2}[.)]\s+(.+)$/.exec(raw);
    if (item?.[1]) {
      numbered.push(stripMarkdown(item[1]));
      continue;
    }
    const bullet = /^\s*[-*•]\s+(.+)$/.exec(raw);
    if (bullet?.[1]) {
      // A bullet under a numbered item belongs to that item.
      const last = numbered.length - 1;
      if (/^\s{2,}/.test(raw) && last >= 0) numbered[last] = `${numbered[last] ?? ''} ${stripMarkdown(bullet[1])}`;
      else bullets.push(stripMarkdown(bullet[1]));
    }
  }
  const lines = numbered.length > 0 ? numbered : bullets;
  if (lines.length > 0) return lines.map(clip).filter((l) => l.length > 0);
  if (options.isProseAllowed === false) return [];
  return stripMarkdown(kept.join('\n'))
    .split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/)
    .map((s) => clip(s.trim()))
    // Fewer than three words that carry meaning is an outcome, not a step: "Scanning works.", "PDFs print.", "Tested with the user."
    .filter((s) => words(s).length >= 3);
}

function termSet(text: string): Set<string> {
  return new Set(words(text));
}

/**
 * Words a request says whatever its problem ("my new laptop…", "not working", "keeps", "again"): they never make a
 * source about the person's problem. "new" made "New starter laptop setup" a step for "my new monitor flickers".
 */
const WEAK_TOPIC_WORDS = new Set(
  words('new old work works working worked issue issues problem problems help keep keeps anymore getting trying tried unable able use using used set setting'),
);

/** The words of what the person wrote that can make a source on-topic. */
function topicTerms(text: string): Set<string> {
  return new Set(words(text).filter((word) => !WEAK_TOPIC_WORDS.has(word)));
}

/** How many terms two sets share. */
function sharedCount(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared += 1;
  return shared;
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  return sharedCount(a, b) / Math.sqrt(a.size * b.size);
}

function jaccard(a: Set<string>, b: Set<string>): number {
  const shared = sharedCount(a, b);
  const union = a.size + b.size - shared;
  return union > 0 ? shared / union : 1;
}

/**
 * A source's text without a first line that only repeats its title: a past resolution's text starts with
 * the ticket's summary ("VPN keeps asking for password"), which is the citation, not a step (without a
 * full stop it ran into the first sentence: "VPN keeps asking for password FortiClient's … session.").
 */
function bodyOf(source: TRetrievedSource): string {
  const [first = '', ...rest] = source.text.split(/\r?\n/);
  return rest.length > 0 && first.trim() === source.title.trim() ? rest.join('\n') : source.text;
}

export interface TTroubleshootOptions {
  /** What the user described (and the proposed category's names): ranks sources without a score. */
  query?: string;
  limit?: number;
  /**
   * Only sources about this text (what the person wrote): filed under the problem's category, or named
   * (title, heading, a past ticket's summary) with one of its words (two when some sources are filed under
   * the category) — not with a word of the category's
   * name ("Accounts & Access" made "Guest Wi-Fi access" a step for a locked account). The ticket chat's
   * "Try these steps" sets it: a source that mentions a word in passing ("How to submit a good ticket"
   * for a printer that is offline) gives no step.
   */
  onTopicOf?: string;
}

/**
 * Up to `limit` (default 10) troubleshooting steps from the retrieved sources, numbered from 1, each
 * citing its source. The best source (by the caller's score, else by overlap with the query) leads
 * with its steps in order; the next sources add steps that are not near-duplicates, unless they rank far
 * below the best of them (MIN_SHARE_OF_LEAD).
 */
export function troubleshootingSteps(sources: TRetrievedSource[], options: TTroubleshootOptions = {}): TStep[] {
  const limit = Math.max(0, Math.min(options.limit ?? 10, 50));
  if (limit === 0) return [];
  const query = termSet(options.query ?? '');
  const topic = options.onTopicOf === undefined ? null : topicTerms(options.onTopicOf);
  // Where sources are filed under the problem's category, a source from elsewhere must share two of the person's
  // words to join them: one common word ("office", "stuck") made "Cant sign into office 365" a printer step.
  const wordsNeeded = sources.some((source) => source.isOfCategory === true) ? 2 : 1;
  const sorted = sources
    .map((source, index) => {
      const relevance = overlap(query, termSet(`${source.title} ${source.text}`));
      // A knowledge article lists its steps; its prose is the introduction or the symptoms ("Use this when…",
      // "Symptoms: …"), which read as odd steps. Past resolutions and documents are often prose only.
      return { source, index, rank: (source.score ?? 0) + relevance, steps: extractSteps(bodyOf(source), { isProseAllowed: source.kind !== 'article' }) };
    })
    .filter((s) => s.steps.length > 0)
    .filter((s) => topic === null || s.source.isOfCategory === true || sharedCount(topic, termSet(s.source.title)) >= wordsNeeded)
    .sort((a, b) => b.rank - a.rank || a.index - b.index);
  // Measured against the best source not filed under the category: the category's boost says nothing of how well the
  // others match, and a ticket filed under a category its words do not fit kept only that category's steps.
  const best = sorted.find((s) => s.source.isOfCategory !== true)?.rank ?? 0;
  const ranked = sorted.filter((s) => s.source.isOfCategory === true || s.rank >= MIN_SHARE_OF_LEAD * best);

  const chosen: { text: string; terms: Set<string>; source: TSourceRef }[] = [];
  const add = (text: string, source: TRetrievedSource): void => {
    const terms = termSet(text);
    if (chosen.some((c) => jaccard(c.terms, terms) >= 0.6)) return;
    chosen.push({ text, terms, source: { kind: source.kind, id: source.id, title: source.title } });
  };
  const [lead, ...rest] = ranked;
  if (lead) {
    const leadLimit = rest.length > 0 ? Math.max(1, Math.ceil(limit * LEAD_SHARE)) : limit;
    for (const step of lead.steps.slice(0, leadLimit)) add(step, lead.source);
  }
  // The others take turns, each giving its next step, so one long source cannot crowd the rest out.
  const cursors = rest.map(() => 0);
  let isProgressing = true;
  while (chosen.length < limit && isProgressing) {
    isProgressing = false;
    rest.forEach((r, i) => {
      const position = cursors[i] ?? 0;
      if (chosen.length >= limit || position >= r.steps.length) return;
      const step = r.steps[position];
      cursors[i] = position + 1;
      isProgressing = true;
      if (step) add(step, r.source);
    });
  }
  if (lead && chosen.length < limit) for (const step of lead.steps) if (chosen.length < limit) add(step, lead.source);
  return chosen.slice(0, limit).map((c, i) => ({ n: i + 1, text: c.text, source: c.source }));
}
