/** A value ConnectWise's `conditions` grammar can hold: quoted string, bare number/boolean, `null`, `[datetime]`. */
export type TConditionValue = string | number | boolean | null | Date;

export type TConditionOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'like';

/** A fragment of a `conditions` string that was built only from checked fields and escaped values. */
export class Condition {
  private constructor(readonly text: string) {}

  static compare(field: string, operator: TConditionOperator, value: TConditionValue): Condition {
    return new Condition(`${checkField(field)}${formatOperator(operator)}${formatValue(value)}`);
  }

  static in(field: string, values: readonly (string | number)[]): Condition {
    if (values.length === 0) throw new Error('An "in" condition needs at least one value.');
    return new Condition(`${checkField(field)} in (${values.map(formatValue).join(', ')})`);
  }

  static and(...conditions: Condition[]): Condition {
    return Condition.join('and', conditions);
  }

  static or(...conditions: Condition[]): Condition {
    return Condition.join('or', conditions);
  }

  toString(): string {
    return this.text;
  }

  private static join(word: 'and' | 'or', conditions: Condition[]): Condition {
    if (conditions.length === 0) throw new Error(`An "${word}" needs at least one condition.`);
    if (conditions.length === 1 && conditions[0]) return conditions[0];
    return new Condition(conditions.map((condition) => `(${condition.text})`).join(` ${word} `));
  }
}

export const eq = (field: string, value: TConditionValue): Condition => Condition.compare(field, '=', value);

const fieldPattern = /^[A-Za-z_][A-Za-z0-9_]*(\/[A-Za-z_][A-Za-z0-9_]*)*$/;

function checkField(field: string): string {
  // Field names are code, not user input; reject anything that could change the expression's shape.
  if (!fieldPattern.test(field)) throw new Error(`Not a ConnectWise field path: ${JSON.stringify(field)}`);
  return field;
}

function formatOperator(operator: TConditionOperator): string {
  return operator === 'contains' || operator === 'like' ? ` ${operator} ` : operator;
}

export function formatValue(value: TConditionValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('A condition number must be finite.');
    return String(value);
  }
  if (value instanceof Date) return `[${value.toISOString().replace(/\.\d{3}Z$/, 'Z')}]`;
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
