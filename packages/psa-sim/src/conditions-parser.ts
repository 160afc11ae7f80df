// ConnectWise Manage `conditions` query language (psa-apis.md §1.3): comparisons joined by and/or with parentheses.

export type TConditionValue =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'date'; value: number; text: string }
  | { kind: 'null' };

export type TConditionOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'like' | 'not like' | 'not contains';

export type TConditionNode =
  | { kind: 'compare'; field: string; operator: TConditionOperator; value: TConditionValue }
  | { kind: 'in'; field: string; negated: boolean; values: TConditionValue[] }
  | { kind: 'and' | 'or'; left: TConditionNode; right: TConditionNode }
  | { kind: 'not'; operand: TConditionNode };

export class ConditionsSyntaxError extends Error {}

type TToken =
  | { kind: 'word'; text: string; position: number }
  | { kind: 'string'; text: string; position: number }
  | { kind: 'date'; text: string; position: number }
  | { kind: 'symbol'; text: string; position: number };

const SYMBOLS = ['<=', '>=', '!=', '<>', '=', '<', '>', '(', ')', ','];

function tokenize(source: string): TToken[] {
  const tokens: TToken[] = [];
  let index = 0;
  while (index < source.length) {
    const character = source.charAt(index);
    if (/\s/.test(character)) {
      index += 1;
      continue;
    }
    if (character === '"' || character === "'") {
      // A quote inside a string is escaped by doubling it or with a backslash.
      let text = '';
      let cursor = index + 1;
      let isClosed = false;
      while (cursor < source.length) {
        const current = source.charAt(cursor);
        if (current === '\\' && cursor + 1 < source.length) {
          text += source.charAt(cursor + 1);
          cursor += 2;
          continue;
        }
        if (current === character) {
          if (source.charAt(cursor + 1) === character) {
            text += character;
            cursor += 2;
            continue;
          }
          isClosed = true;
          cursor += 1;
          break;
        }
        text += current;
        cursor += 1;
      }
      if (!isClosed) throw new ConditionsSyntaxError(`Unterminated string starting at position ${index}`);
      tokens.push({ kind: 'string', text, position: index });
      index = cursor;
      continue;
    }
    if (character === '[') {
      const end = source.indexOf(']', index);
      if (end === -1) throw new ConditionsSyntaxError(`Unterminated date starting at position ${index}`);
      tokens.push({ kind: 'date', text: source.slice(index + 1, end).trim(), position: index });
      index = end + 1;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => source.startsWith(candidate, index));
    if (symbol) {
      tokens.push({ kind: 'symbol', text: symbol, position: index });
      index += symbol.length;
      continue;
    }
    const match = /^[A-Za-z0-9_/.+\-:@]+/.exec(source.slice(index));
    if (!match) throw new ConditionsSyntaxError(`Unexpected character '${character}' at position ${index}`);
    tokens.push({ kind: 'word', text: match[0], position: index });
    index += match[0].length;
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: TToken[]) {}

  parse(): TConditionNode {
    const node = this.parseOr();
    const extra = this.tokens[this.index];
    if (extra) throw new ConditionsSyntaxError(`Unexpected '${extra.text}' at position ${extra.position}`);
    return node;
  }

  private peekWord(): string | undefined {
    const token = this.tokens[this.index];
    return token?.kind === 'word' ? token.text.toLowerCase() : undefined;
  }

  private isSymbol(text: string): boolean {
    const token = this.tokens[this.index];
    return token?.kind === 'symbol' && token.text === text;
  }

  private expectSymbol(text: string): void {
    if (!this.isSymbol(text)) {
      const token = this.tokens[this.index];
      throw new ConditionsSyntaxError(token ? `Expected '${text}' at position ${token.position}` : `Expected '${text}' at end of conditions`);
    }
    this.index += 1;
  }

  // "and" binds tighter than "or", as in SQL.
  private parseOr(): TConditionNode {
    let left = this.parseAnd();
    while (this.peekWord() === 'or') {
      this.index += 1;
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): TConditionNode {
    let left = this.parseUnary();
    while (this.peekWord() === 'and') {
      this.index += 1;
      left = { kind: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): TConditionNode {
    if (this.peekWord() === 'not') {
      this.index += 1;
      return { kind: 'not', operand: this.parseUnary() };
    }
    if (this.isSymbol('(')) {
      this.index += 1;
      const inner = this.parseOr();
      this.expectSymbol(')');
      return inner;
    }
    return this.parseComparison();
  }

  private parseComparison(): TConditionNode {
    const fieldToken = this.tokens[this.index];
    if (fieldToken?.kind !== 'word') {
      throw new ConditionsSyntaxError(fieldToken ? `Expected a field name at position ${fieldToken.position}` : 'Expected a field name at end of conditions');
    }
    this.index += 1;
    const field = fieldToken.text;
    const operatorToken = this.tokens[this.index];
    if (!operatorToken) throw new ConditionsSyntaxError(`Expected an operator after '${field}'`);
    this.index += 1;
    if (operatorToken.kind === 'symbol') {
      const operator = operatorToken.text === '<>' ? '!=' : operatorToken.text;
      if (operator === '=' || operator === '!=' || operator === '<' || operator === '<=' || operator === '>' || operator === '>=') {
        return { kind: 'compare', field, operator, value: this.parseValue() };
      }
      throw new ConditionsSyntaxError(`Unexpected '${operatorToken.text}' at position ${operatorToken.position}`);
    }
    const word = operatorToken.text.toLowerCase();
    if (word === 'contains' || word === 'like') return { kind: 'compare', field, operator: word, value: this.parseValue() };
    if (word === 'in') return { kind: 'in', field, negated: false, values: this.parseList() };
    if (word === 'not') {
      const next = this.peekWord();
      this.index += 1;
      if (next === 'in') return { kind: 'in', field, negated: true, values: this.parseList() };
      if (next === 'like') return { kind: 'compare', field, operator: 'not like', value: this.parseValue() };
      if (next === 'contains') return { kind: 'compare', field, operator: 'not contains', value: this.parseValue() };
    }
    throw new ConditionsSyntaxError(`Unknown operator '${operatorToken.text}' at position ${operatorToken.position}`);
  }

  private parseList(): TConditionValue[] {
    this.expectSymbol('(');
    const values = [this.parseValue()];
    while (this.isSymbol(',')) {
      this.index += 1;
      values.push(this.parseValue());
    }
    this.expectSymbol(')');
    return values;
  }

  private parseValue(): TConditionValue {
    const token = this.tokens[this.index];
    if (!token) throw new ConditionsSyntaxError('Expected a value at end of conditions');
    this.index += 1;
    if (token.kind === 'string') return { kind: 'string', value: token.text };
    if (token.kind === 'date') {
      const time = Date.parse(token.text);
      if (Number.isNaN(time)) throw new ConditionsSyntaxError(`Invalid date '[${token.text}]' at position ${token.position}`);
      return { kind: 'date', value: time, text: token.text };
    }
    if (token.kind === 'word') {
      const lower = token.text.toLowerCase();
      if (lower === 'true' || lower === 'false') return { kind: 'boolean', value: lower === 'true' };
      if (lower === 'null') return { kind: 'null' };
      if (/^-?\d+(\.\d+)?$/.test(token.text)) return { kind: 'number', value: Number(token.text) };
    }
    throw new ConditionsSyntaxError(`Invalid value '${token.text}' at position ${token.position}; strings must be quoted and dates written in [brackets]`);
  }
}

export function parseConditions(source: string): TConditionNode {
  const tokens = tokenize(source);
  if (tokens.length === 0) throw new ConditionsSyntaxError('Conditions are empty');
  return new Parser(tokens).parse();
}

export type TFieldResolver = (path: string) => unknown;

function toComparable(actual: unknown, expected: TConditionValue): number | string | boolean | null | undefined {
  if (actual === null || actual === undefined) return actual;
  if (expected.kind === 'date') return typeof actual === 'string' ? Date.parse(actual) : typeof actual === 'number' ? actual : undefined;
  if (expected.kind === 'number') return typeof actual === 'number' ? actual : typeof actual === 'string' && actual.trim() !== '' ? Number(actual) : undefined;
  if (expected.kind === 'boolean') return typeof actual === 'boolean' ? actual : undefined;
  if (typeof actual === 'string') return actual.toLowerCase();
  if (typeof actual === 'number' || typeof actual === 'boolean') return String(actual).toLowerCase();
  return undefined;
}

function expectedComparable(expected: TConditionValue): number | string | boolean | null {
  if (expected.kind === 'null') return null;
  if (expected.kind === 'string') return expected.value.toLowerCase();
  return expected.value;
}

function likeToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${escaped}$`, 'is');
}

function compare(actual: unknown, operator: TConditionOperator, expected: TConditionValue): boolean {
  if (expected.kind === 'null') {
    const isNull = actual === null || actual === undefined || actual === '';
    if (operator === '=') return isNull;
    if (operator === '!=') return !isNull;
    return false;
  }
  const left = toComparable(actual, expected);
  const right = expectedComparable(expected);
  if (left === null || left === undefined || (typeof left === 'number' && Number.isNaN(left))) return operator === '!=';
  switch (operator) {
    case '=':
      return left === right;
    case '!=':
      return left !== right;
    case '<':
      return right !== null && left < right;
    case '<=':
      return right !== null && left <= right;
    case '>':
      return right !== null && left > right;
    case '>=':
      return right !== null && left >= right;
    case 'contains':
      return String(left).includes(String(right));
    case 'not contains':
      return !String(left).includes(String(right));
    case 'like':
      return likeToRegExp(String(right)).test(String(left));
    case 'not like':
      return !likeToRegExp(String(right)).test(String(left));
  }
}

export function evaluateConditions(node: TConditionNode, resolve: TFieldResolver): boolean {
  switch (node.kind) {
    case 'and':
      return evaluateConditions(node.left, resolve) && evaluateConditions(node.right, resolve);
    case 'or':
      return evaluateConditions(node.left, resolve) || evaluateConditions(node.right, resolve);
    case 'not':
      return !evaluateConditions(node.operand, resolve);
    case 'in': {
      const actual = resolve(node.field);
      const isMember = node.values.some((value) => compare(actual, '=', value));
      return node.negated ? !isMember : isMember;
    }
    case 'compare':
      return compare(resolve(node.field), node.operator, node.value);
  }
}

/** Reads a slash-separated path (`board/id`) from an object, falling back to `_info/<path>` as ConnectWise does for `lastUpdated`. */
export function resolveObjectPath(record: Record<string, unknown>, path: string): unknown {
  const read = (root: unknown, segments: string[]): unknown => {
    let current: unknown = root;
    for (const segment of segments) {
      if (current === null || typeof current !== 'object') return undefined;
      const entries = current as Record<string, unknown>;
      const key = segment in entries ? segment : Object.keys(entries).find((candidate) => candidate.toLowerCase() === segment.toLowerCase());
      if (key === undefined) return undefined;
      current = entries[key];
    }
    return current;
  };
  const segments = path.split('/');
  const direct = read(record, segments);
  if (direct !== undefined) return direct;
  return read(record, ['_info', ...segments]);
}
