import { PsaError } from './errors';

/** A record id goes into a URL path, so anything but a positive safe integer is refused before a request is made. */
export function checkId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw new PsaError('validation', 'Not a valid record id.', { fieldMessages: [{ field: 'id', message: 'Must be a positive integer.' }] });
  return id;
}
