import { hash, verify } from '@node-rs/argon2';
import { newToken } from './tokens.js';

/**
 * argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: OWASP's recommended minimum). The parameters
 * travel in the encoded hash, so raising them later only affects new hashes.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * A hash of nothing anyone knows, made once with the same parameters: a sign-in for an unknown email verifies
 * against it, so it costs the same time as a wrong password for a known one.
 */
let dummy: Promise<string> | undefined;

/**
 * Whether the password matches the stored hash; with no stored hash (unknown email), the same work against the
 * dummy and false.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummy ??= hash(newToken());
  const matches = await verify(storedHash ?? (await dummy), password);
  return storedHash !== undefined && matches;
}
