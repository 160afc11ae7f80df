/** A high (leading) surrogate not followed by a low one, or a low surrogate not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HAS_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source);

/**
 * The text with every lone surrogate replaced by U+FFFD (String#toWellFormed, which the ES2023 lib does not type yet).
 * PostgreSQL refuses a lone surrogate in jsonb (22P02), and JSON.parse lets the client send one ("\ud83d").
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Whether a JSON-like value holds a lone surrogate in a key or string (20 levels deep at most, as the input guard). */
export function hasLoneSurrogate(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return HAS_LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null || depth > 20) return false;
  for (const [key, child] of Object.entries(value)) if (hasLoneSurrogate(key, depth + 1) || hasLoneSurrogate(child, depth + 1)) return true;
  return false;
}

/** An object literal or a parsed query (whose prototype is null), not a Date, Buffer or class instance. */
const isPlainObject = (value: object): boolean => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** Every string of a JSON-like value made well formed (see `wellFormed`); other values are kept as they are. */
export function wellFormedDeep<T>(value: T): T {
  if (typeof value === 'string') return wellFormed(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => wellFormedDeep(item)) as T;
  if (typeof value === 'object' && value !== null && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [wellFormed(key), wellFormedDeep(item)])) as T;
  }
  return value;
}

/**
 * At most `max` UTF-16 units of the text (the length the PSAs count), cut between two code points: `slice` alone can
 * keep half of an emoji, a lone surrogate that PostgreSQL's jsonb refuses.
 */
export function cutText(text: string, max: number): string {
  const cut = wellFormed(text).slice(0, Math.max(0, max));
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
