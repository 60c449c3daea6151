import { toError } from './errors.js';

interface PageResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Async iteration over every item of a paginated list, page after page, until total_pages. */
export async function* paginate<T = unknown>(fetchPage: (page: number) => Promise<PageResponse>): AsyncGenerator<T> {
  for (let page = 1; ; page++) {
    const response = await fetchPage(page);
    if (response.status !== 200) throw toError(response.status, response.body, response.headers);
    const body = response.body as { data: T[]; pagination: { total_pages: number } };
    yield* body.data;
    if (page >= body.pagination.total_pages) return;
  }
}
