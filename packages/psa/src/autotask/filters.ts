export type TAutotaskComparison = 'eq' | 'noteq' | 'gt' | 'gte' | 'lt' | 'lte' | 'beginsWith' | 'endsWith' | 'contains';

export type TAutotaskFilterValue = string | number | boolean;

/** One item of an Autotask query `filter` array; the top-level array is ANDed. */
export type TAutotaskFilter =
  | { op: 'and' | 'or'; items: TAutotaskFilter[] }
  | { op: TAutotaskComparison; field: string; value: TAutotaskFilterValue }
  | { op: 'in' | 'notIn'; field: string; value: TAutotaskFilterValue[] }
  | { op: 'exist' | 'notExist'; field: string };

/** Values travel as JSON, so user input cannot change a filter's shape; only field names need checking. */
const fieldPattern = /^[A-Za-z][A-Za-z0-9]*$/;

function checkField(field: string): string {
  if (!fieldPattern.test(field)) throw new Error(`Not an Autotask field name: ${JSON.stringify(field)}`);
  return field;
}

export const atFilter = {
  compare: (op: TAutotaskComparison, field: string, value: TAutotaskFilterValue): TAutotaskFilter => ({ op, field: checkField(field), value }),
  eq: (field: string, value: TAutotaskFilterValue): TAutotaskFilter => ({ op: 'eq', field: checkField(field), value }),
  in: (field: string, values: TAutotaskFilterValue[]): TAutotaskFilter => ({ op: 'in', field: checkField(field), value: values }),
  exists: (field: string): TAutotaskFilter => ({ op: 'exist', field: checkField(field) }),
  and: (...items: TAutotaskFilter[]): TAutotaskFilter => ({ op: 'and', items }),
  or: (...items: TAutotaskFilter[]): TAutotaskFilter => ({ op: 'or', items }),
  /** Autotask requires at least one filter; this one matches every record. */
  all: (): TAutotaskFilter => ({ op: 'gte', field: 'id', value: 0 }),
};
