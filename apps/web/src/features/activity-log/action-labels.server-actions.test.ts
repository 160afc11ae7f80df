import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionLabel } from './action-labels';

/**
 * Every audit action the server records, read from its source the way a person would grep for them (the web app may
 * not import server code, DESIGN §2): `action: …` in an event, the action argument of a helper that takes
 * `action` (e.g. `audit(tx, actor, 'role.create', …)`), and `psa_write.` + each kind of PSA write the outbox defines.
 */
const serverSrc = join(__dirname, '..', '..', '..', '..', 'server', 'src');
const ACTION = /^[a-z][a-z_-]*(\.[a-zA-Z][a-zA-Z_-]*)+$/;
const literalsOf = (code: string) => [...code.matchAll(/'([^'\n]+)'/g)].map((match) => match[1] ?? '').filter((text) => ACTION.test(text));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The arguments of the call whose `(` is at `open`, split at its top-level commas; a parameter list's `<…>` (types) nest too. */
function argumentsAt(code: string, open: number, isParameterList = false): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let index = open; index < code.length; index += 1) {
    const character = code[index];
    const isAngle = isParameterList && (character === '<' || (character === '>' && code[index - 1] !== '='));
    if (character === '(' || character === '{' || character === '[' || (isAngle && character === '<')) depth += 1;
    else if (character === ')' || character === '}' || character === ']' || (isAngle && character === '>')) {
      depth -= 1;
      if (depth === 0) return [...args, code.slice(start, index)];
    } else if (character === ',' && depth === 1) {
      args.push(code.slice(start, index));
      start = index + 1;
    }
  }
  return args;
}

function recordedActions(): Set<string> {
  const actions = new Set<string>();
  const writeKinds = new Set<string>();
  for (const file of sourceFiles(serverSrc)) {
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/\baction:\s*([^,}\n]+)/g)) for (const literal of literalsOf(match[1] ?? '')) actions.add(literal);
    // Helpers that take the action as a parameter: `function recordAudit(handle, actor, action: string, …)` or `const audit = (…, action: …) =>`.
    for (const helper of code.matchAll(/(?:function\s+(\w+)\s*|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?)\(([^)]*\baction\s*:[^)]*)\)/g)) {
      const name = helper[1] ?? helper[2] ?? '';
      const position = argumentsAt(`(${helper[3] ?? ''})`, 0, true).findIndex((parameter) => /^\s*action\s*:/.test(parameter));
      for (const call of code.matchAll(new RegExp(`\\b${name}\\(`, 'g'))) {
        const argument = argumentsAt(code, (call.index ?? 0) + name.length)[position] ?? '';
        for (const literal of literalsOf(argument)) actions.add(literal);
      }
    }
    // The outbox records `psa_write.${row.kind}` for each kind: the kinds are the constants the psa-write files define.
    if (/\.psa-writes?\.ts$/.test(file)) for (const literal of literalsOf(code)) writeKinds.add(literal);
  }
  for (const kind of writeKinds) actions.add(`psa_write.${kind}`);
  return actions;
}

describe('actionLabel for what the server records', () => {
  const actions = [...recordedActions()].sort();

  it('finds the server\'s actions (the scan itself works)', () => {
    for (const known of ['auth.totp.disable', 'role.create', 'email_connector.ticket', 'email_connector.verify', 'wizard.finish', 'psa_write.email.ticket.create', 'psa_write.queue.timeEntry', 'psa_write.retry', 'team.member_remove']) {
      expect(actions).toContain(known);
    }
    expect(actions.length).toBeGreaterThan(90);
  });

  // Regression: the e-mail connector's and the outbox's events (email_connector.ticket, psa_write.email.ticket.create,
  // psa_write.retry…) showed their codes, because nothing checked that each recorded action has words.
  it('has words for every action the server records', () => {
    expect(actions.filter((action) => actionLabel(action) === action)).toEqual([]);
  });
});
