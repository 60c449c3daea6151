import { useT } from '../i18n/i18n.js';

/** Previous and next page of a paginated list, with where the reader is. */
export function Pager({
  pagination,
  onPage,
}: {
  pagination: { page: number; total_pages: number; total_items: number };
  onPage: (page: number) => void;
}) {
  const t = useT();
  if (pagination.total_pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
        {t('pager.previous')}
      </button>
      <span>
        {t('pager.where', {
          page: pagination.page,
          pages: pagination.total_pages,
          total: pagination.total_items,
        })}
      </span>
      <button
        type="button"
        disabled={pagination.page >= pagination.total_pages}
        onClick={() => onPage(pagination.page + 1)}
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
