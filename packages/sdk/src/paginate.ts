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
