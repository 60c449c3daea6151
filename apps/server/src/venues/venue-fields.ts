import { VenueDetail, VenueSummary } from '@spa/contract';
import type { z } from 'zod';

/**
 * The venue fields of the contract's two shapes, in the contract's order: the columns the repository selects
 * and the fields the mapper copies. Written once, in the contract; a field without a column of the same name
 * fails the typecheck of the repository's select, and one whose column type does not fit the mapper's.
 */
export const VENUE_SUMMARY_FIELDS = fieldsOf(VenueSummary);
export const VENUE_DETAIL_FIELDS = fieldsOf(VenueDetail);

function fieldsOf<T extends z.ZodRawShape>(schema: z.ZodObject<T>): readonly Extract<keyof T, string>[] {
  return Object.keys(schema.shape) as Extract<keyof T, string>[];
}

/**
 * The named fields of a row, in the order named, typed by the names given. Four lines, so no dependency (lodash's
 * pick is typed by its names too, but is a package for one function).
 */
export function pick<R, K extends keyof R>(row: R, keys: readonly K[]): Pick<R, K> {
  const picked = {} as Pick<R, K>;
  for (const key of keys) picked[key] = row[key];
  return picked;
}
