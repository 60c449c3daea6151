import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n.js';
import { ErrorNotice } from './ErrorNotice.js';

export function Loading({ what }: { what: string }) {
  const t = useT();
  return (
    <p className="loading" role="status" aria-live="polite">
      {t('common.loading', { what })}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The loading and error states of one query; `children` renders its data. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  const t = useT();
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorNotice error={query.error} title={t('common.couldNotLoad', { what })} />;
  return <>{children(query.data)}</>;
}
