import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '@switchboard/contracts';
import { validation } from '../lib/app-error';
import { hasLoneSurrogate, wellFormedDeep } from '../lib/text';

const NUL = '\u0000';
const MAX_DEPTH = 20;

/** The dotted name of the first key or string value holding a NUL byte, or undefined. */
function findNul(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    if (key.includes(NUL)) return childPath;
    const found = findNul(child, childPath, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold a NUL byte, and no field of this API means one: a NUL anywhere in
 * the path, query or JSON body is refused with a 400 before validation and before any query
 * (issue #6 §2: it used to reach the database and answer 500). Multipart fields are read by their
 * route, which applies the same rule. A lone surrogate is repaired (see below).
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['query', request.query], ['body', request.body]] as const) {
      const name = findNul(value, '', 0);
      if (name !== undefined) throw validation(MESSAGES.controlCharacters, [{ name: name === '' ? part : name, reason: MESSAGES.controlCharacters }]);
    }
    // Half of an emoji ("\ud83d" in JSON, or a cut made by the client) is repaired to U+FFFD rather than refused: the
    // rest of the text is the person's, and PostgreSQL's jsonb refuses a lone surrogate (22P02, a 500 before).
    if (hasLoneSurrogate(request.body, 0)) request.body = wellFormedDeep(request.body);
    if (hasLoneSurrogate(request.query, 0)) request.query = wellFormedDeep(request.query);
    if (hasLoneSurrogate(request.params, 0)) request.params = wellFormedDeep(request.params);
  });
});
