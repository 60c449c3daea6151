/** The pagination block of docs/api.md, "Conventions". */
export function pageWindow(query: { page: number; page_size: number }) {
  return { offset: (query.page - 1) * query.page_size, limit: query.page_size };
}

export function paginated<T>(data: T[], query: { page: number; page_size: number }, totalItems: number) {
  return {
    data,
    pagination: {
      page: query.page,
      page_size: query.page_size,
      total_items: totalItems,
      total_pages: Math.ceil(totalItems / query.page_size),
    },
  };
}
