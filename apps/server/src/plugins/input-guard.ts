import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '@switchboard/contracts';
import { validation } from '../lib/app-error';

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
 * route, which applies the same rule.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['params', request.params], ['query', request.query], ['body', request.body]] as const) {
      const name = findNul(value, '', 0);
      if (name !== undefined) throw validation(MESSAGES.controlCharacters, [{ name: name === '' ? part : name, reason: MESSAGES.controlCharacters }]);
    }
  });
});
