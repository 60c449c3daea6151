import { type RawBuilder, sql } from 'kysely';

/**
 * The one formula for an advisory lock key: the first 64 bits of the md5 of a text, as PostgreSQL's bigint.
 * Texts name what is locked (`room:<id>:<hour>`, `booking-external-id:<venue>:<id>`), so keys of different
 * kinds never meet.
 */
export function advisoryLockKey(text: string | RawBuilder<string>): RawBuilder<string> {
  return sql<string>`('x' || substr(md5(${text}), 1, 16))::bit(64)::bigint`;
}
