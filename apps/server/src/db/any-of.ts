import { type RawBuilder, sql } from 'kysely';

/**
 * `= any($1::uuid[])`: a list of any length as one parameter. `in ($1, $2, …)` takes a parameter per value, and
 * PostgreSQL's bind message carries at most 65,535 of them, which a large import's id lists pass.
 */
export const anyUuid = (values: readonly string[]): RawBuilder<string> => sql<string>`any(${values}::uuid[])`;

/** `= any($1::text[])`, for text values (slugs, emails, external ids, key ids) of any number. */
export const anyText = (values: readonly string[]): RawBuilder<string> => sql<string>`any(${values}::text[])`;
