import { createCipheriv, createDecipheriv, hash as oneShotHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id (DESIGN §4). */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: 2 });

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Random URL-safe token (sessions, bootstrap tokens). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Hex SHA-256 (one-shot: it runs on every request that carries a session cookie). */
export const sha256 = (value: string): string => oneShotHash('sha256', value, 'hex');

/** A 6-digit code, uniformly distributed. */
export const sixDigitCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** AES-256-GCM; the output is iv.tag.ciphertext in base64url. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** Below this length the last four characters would give away too much of a secret, so none is shown. */
const SECRET_HINT_MIN_LENGTH = 12;

/**
 * What a screen may show of a saved secret (PSA key, AI model key, mailbox app password): its last four characters,
 * e.g. "••••9xYz", only when it has at least 12; "••••" alone otherwise ("1234" or "none" would be the whole key).
 */
export function secretHintOf(secret: string): string {
  return secret.length >= SECRET_HINT_MIN_LENGTH ? `••••${secret.slice(-4)}` : '••••';
}
