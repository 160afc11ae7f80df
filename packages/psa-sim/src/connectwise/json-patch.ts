import { isRecord } from '../http';
import type { TCwValidationError } from './common';

// ConnectWise PATCH bodies are JSON-Patch arrays of {op, path, value} (psa-apis.md §1.5).

export interface TPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

export function parsePatchOperations(body: unknown, resource: string): TPatchOperation[] | { errors: TCwValidationError[] } {
  if (!Array.isArray(body) || body.length === 0) {
    return { errors: [{ code: 'InvalidField', message: 'The request body must be a non-empty JSON-Patch array of {op, path, value}.', resource, field: 'body' }] };
  }
  const operations: TPatchOperation[] = [];
  const errors: TCwValidationError[] = [];
  body.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) {
      errors.push({ code: 'InvalidField', message: `Operation ${index} must be an object.`, resource, field: `[${index}]` });
      return;
    }
    const op = typeof entry.op === 'string' ? entry.op.toLowerCase() : '';
    const path = typeof entry.path === 'string' ? entry.path : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      errors.push({ code: 'InvalidField', message: `Operation ${index}: op must be add, replace or remove.`, resource, field: 'op' });
      return;
    }
    if (path.replace(/^\//, '') === '') {
      errors.push({ code: 'MissingRequiredField', message: `Operation ${index}: path is required.`, resource, field: 'path' });
      return;
    }
    if (op !== 'remove' && !('value' in entry)) {
      errors.push({ code: 'MissingRequiredField', message: `Operation ${index}: value is required for ${op}.`, resource, field: path });
      return;
    }
    operations.push({ op, path, value: entry.value });
  });
  return errors.length > 0 ? { errors } : operations;
}

/** Applies operations to a copy of the record; paths are slash-separated (`status`, `/status`, `status/id`). */
export function applyPatch(record: Record<string, unknown>, operations: TPatchOperation[]): Record<string, unknown> {
  const copy = structuredClone(record);
  for (const operation of operations) {
    const segments = operation.path.replace(/^\//, '').split('/').filter((segment) => segment !== '');
    let target: Record<string, unknown> = copy;
    for (const segment of segments.slice(0, -1)) {
      const key = Object.keys(target).find((candidate) => candidate.toLowerCase() === segment.toLowerCase()) ?? segment;
      const next = target[key];
      if (isRecord(next)) target = next;
      else {
        const created: Record<string, unknown> = {};
        target[key] = created;
        target = created;
      }
    }
    const last = segments[segments.length - 1] ?? '';
    const key = Object.keys(target).find((candidate) => candidate.toLowerCase() === last.toLowerCase()) ?? last;
    if (operation.op === 'remove') target[key] = null;
    else if (segments.length > 1 && last.toLowerCase() === 'id') {
      // `status/id` replaces the whole reference, so a stale name from the old reference cannot win.
      for (const other of Object.keys(target)) delete target[other];
      target[key] = operation.value;
    } else target[key] = operation.value;
  }
  return copy;
}
