import type { Failure, Success } from './errors.js';

/** What `paginate` needs from one page: the Result of a paginated list method. */
export type PageResult<T> = Success<T[], number, { pagination: { total_pages: number } }> | Failure;

/**
 * Every item of a paginated list, page after page, until `total_pages`. Throws the `PartnerApiError` of the
 * first page that fails. Pages are offsets: items created or removed during the walk may be seen twice or missed.
 *
 * `for await (const c of paginate((page) => api.listCustomers(venueId, { page, page_size: 100 }))) { … }`
 */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<PageResult<T>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const result = await fetchPage(page);
    if (!result.ok) throw result.error;
    yield* result.data;
    // An empty page also ends the walk, should the list shrink under us.
    if (result.data.length === 0 || page >= result.pagination.total_pages) return;
  }
}

/** What `paginateAfter` needs from one page: the Result of a list read with an `after` cursor. */
export type CursorPageResult<T> = Success<T[], number, { has_more: boolean; next_after: string | null }> | Failure;

/**
 * Every item of a list read with an `after` cursor (the events feed), page after page, from `after` (exclusive)
 * until a page says there is no more. Throws the `PartnerApiError` of the first page that fails. Unlike offset
 * pages, the order never changes under the walk: each item comes once, and items that arrive during the walk come
 * at its end.
 *
 * `for await (const e of paginateAfter((after) => api.listEvents({ after, limit: 100 }), lastSeen)) { … }`
 */
export async function* paginateAfter<T>(
  fetchPage: (after: string | undefined) => Promise<CursorPageResult<T>>,
  after?: string,
): AsyncGenerator<T, void, undefined> {
  let cursor = after;
  for (;;) {
    const result = await fetchPage(cursor);
    if (!result.ok) throw result.error;
    yield* result.data;
    if (!result.has_more || result.data.length === 0) return;
    cursor = result.next_after ?? cursor;
  }
}
