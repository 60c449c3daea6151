/** Previous and next page of a paginated list, with where the reader is. */
export function Pager({
  pagination,
  onPage,
}: {
  pagination: { page: number; total_pages: number; total_items: number };
  onPage: (page: number) => void;
}) {
  if (pagination.total_pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
        Previous
      </button>
      <span>
        Page {pagination.page} of {pagination.total_pages} ({pagination.total_items} in all)
      </span>
      <button
        type="button"
        disabled={pagination.page >= pagination.total_pages}
        onClick={() => onPage(pagination.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
