import { z } from 'zod';

// Autotask REST query filters (psa-apis.md §3.4): a top-level array that is ANDed, with nested and/or groups.

export const AUTOTASK_FILTER_OPERATORS = ['eq', 'noteq', 'gt', 'gte', 'lt', 'lte', 'beginsWith', 'endsWith', 'contains', 'exist', 'notExist', 'in', 'notIn'] as const;

type TFilterOperator = (typeof AUTOTASK_FILTER_OPERATORS)[number];

export type TAutotaskFilter =
  | { op: 'and' | 'or'; items: TAutotaskFilter[] }
  | { op: TFilterOperator; field: string; value?: unknown; udf?: boolean };

const ZFilterValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number(), z.boolean()]))]);

export const ZAutotaskFilter: z.ZodType<TAutotaskFilter> = z.lazy(() =>
  z.union([
    z.object({ op: z.enum(['and', 'or']), items: z.array(ZAutotaskFilter).min(1) }),
    z.object({ op: z.enum(AUTOTASK_FILTER_OPERATORS), field: z.string().min(1), value: ZFilterValue.optional(), udf: z.boolean().optional() }),
  ]),
);

// Autotask accepts operator names in any case ("Eq", "beginswith").
function normalizeOperators(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(normalizeOperators);
  if (input === null || typeof input !== 'object') return input;
  const entries = Object.entries(input as Record<string, unknown>).map(([key, value]): [string, unknown] => {
    const lowerKey = key.toLowerCase();
    if (lowerKey === 'op' && typeof value === 'string') {
      const canonical = [...AUTOTASK_FILTER_OPERATORS, 'and', 'or'].find((candidate) => candidate.toLowerCase() === value.toLowerCase());
      return ['op', canonical ?? value];
    }
    if (lowerKey === 'items') return ['items', normalizeOperators(value)];
    if (lowerKey === 'field' || lowerKey === 'value' || lowerKey === 'udf') return [lowerKey, value];
    return [key, value];
  });
  return Object.fromEntries(entries);
}

export const ZAutotaskQuery = z.object({
  filter: z.array(ZAutotaskFilter).min(1),
  maxRecords: z.number().int().min(1).max(500).optional(),
  includeFields: z.array(z.string()).optional(),
});
export type TAutotaskQuery = z.infer<typeof ZAutotaskQuery>;

/** Parses a query body, accepting the property names in any case as Autotask does (`Filter`, `MaxRecords`, `IncludeFields`). */
export function parseAutotaskQuery(body: unknown): { ok: true; query: TAutotaskQuery } | { ok: false; message: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ok: false, message: 'The query body must be a JSON object.' };
  const record = body as Record<string, unknown>;
  const pick = (name: string): unknown => {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : record[key];
  };
  const parsed = ZAutotaskQuery.safeParse({
    filter: normalizeOperators(pick('filter')),
    maxRecords: pick('maxRecords') ?? undefined,
    includeFields: pick('includeFields') ?? undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: issue ? `Invalid query: ${issue.path.join('.')} ${issue.message}`.replace(/\s+/g, ' ') : 'Invalid query.' };
  }
  return { ok: true, query: parsed.data };
}

export function readFieldCaseInsensitive(record: Record<string, unknown>, field: string): unknown {
  if (field in record) return record[field];
  const lower = field.toLowerCase();
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
  return key === undefined ? undefined : record[key];
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

function asComparable(actual: unknown, expected: unknown): { left: number | string | boolean; right: number | string | boolean } | undefined {
  if (actual === null || actual === undefined || expected === null || expected === undefined) return undefined;
  if (typeof actual === 'boolean') {
    const right = typeof expected === 'boolean' ? expected : scalarText(expected).toLowerCase() === 'true' || expected === 1 || expected === '1';
    return { left: actual, right };
  }
  if (typeof actual === 'number') {
    const right = typeof expected === 'number' ? expected : Number(expected);
    return Number.isNaN(right) ? undefined : { left: actual, right };
  }
  const text = scalarText(actual);
  const expectedText = scalarText(expected);
  // Date-time fields compare as instants so "2024-01-01" and "2024-01-01T00:00:00Z" agree.
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && /^\d{4}-\d{2}-\d{2}/.test(expectedText)) {
    const left = Date.parse(text);
    const right = Date.parse(expectedText);
    if (!Number.isNaN(left) && !Number.isNaN(right)) return { left, right };
  }
  return { left: text.toLowerCase(), right: expectedText.toLowerCase() };
}

function matchesCondition(resolve: TFilterFieldResolver, filter: Extract<TAutotaskFilter, { field: string }>): boolean {
  const actual = resolve(filter.field);
  const isEmpty = actual === null || actual === undefined || actual === '';
  switch (filter.op) {
    case 'exist':
      return !isEmpty;
    case 'notExist':
      return isEmpty;
    case 'in':
    case 'notIn': {
      const values = Array.isArray(filter.value) ? filter.value : [filter.value];
      const isMember = values.some((value) => {
        const pair = asComparable(actual, value);
        return pair !== undefined && pair.left === pair.right;
      });
      return filter.op === 'in' ? isMember : !isMember;
    }
    default: {
      const pair = asComparable(actual, filter.value);
      if (!pair) return filter.op === 'noteq' ? !(isEmpty && (filter.value === null || filter.value === undefined)) : false;
      const { left, right } = pair;
      switch (filter.op) {
        case 'eq':
          return left === right;
        case 'noteq':
          return left !== right;
        case 'gt':
          return left > right;
        case 'gte':
          return left >= right;
        case 'lt':
          return left < right;
        case 'lte':
          return left <= right;
        case 'beginsWith':
          return String(left).startsWith(String(right));
        case 'endsWith':
          return String(left).endsWith(String(right));
        case 'contains':
          return String(left).includes(String(right));
      }
    }
  }
}

/** Reads a field by name (any case) from the row being filtered. */
export type TFilterFieldResolver = (field: string) => unknown;

export function matchesAutotaskFilterWith(resolve: TFilterFieldResolver, filter: TAutotaskFilter): boolean {
  if (filter.op === 'and' || filter.op === 'or') {
    const items = (filter as { items: TAutotaskFilter[] }).items;
    return filter.op === 'and' ? items.every((item) => matchesAutotaskFilterWith(resolve, item)) : items.some((item) => matchesAutotaskFilterWith(resolve, item));
  }
  return matchesCondition(resolve, filter as Extract<TAutotaskFilter, { field: string }>);
}

export function matchesAutotaskFilters(record: Record<string, unknown>, filters: TAutotaskFilter[]): boolean {
  return filters.every((filter) => matchesAutotaskFilterWith((field) => readFieldCaseInsensitive(record, field), filter));
}
