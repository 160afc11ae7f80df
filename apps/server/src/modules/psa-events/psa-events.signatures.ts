import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Autotask escapes & < > ' + ` and non-ASCII characters as \uXXXX in the JSON it signs (psa-apis.md §6.2); a body
 * that reached us re-encoded is checked in that form too.
 */
export function autotaskEscapedJson(payload: unknown): string {
  return JSON.stringify(payload).replace(/[&<>'+`\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** X-Hook-Signature: `sha1=` + base64 HMAC-SHA1 of the raw body with the webhook's secret. */
export function isAutotaskSignatureValid(secretKey: string, rawBody: string, parsed: unknown, header: string | undefined): boolean {
  if (!header) return false;
  const sign = (body: string) => `sha1=${createHmac('sha1', secretKey).update(body, 'utf8').digest('base64')}`;
  if (sameText(sign(rawBody), header)) return true;
  return parsed !== undefined && sameText(sign(autotaskEscapedJson(parsed)), header);
}

/** x-content-signature: base64 HMAC-SHA256 of the raw body keyed by SHA-256 of the signing key ConnectWise publishes. */
export function isConnectWiseSignatureValid(signingKey: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  const key = createHash('sha256').update(signingKey, 'utf8').digest();
  return sameText(createHmac('sha256', key).update(rawBody, 'utf8').digest('base64'), header);
}
