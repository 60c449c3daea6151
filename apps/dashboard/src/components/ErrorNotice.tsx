import { ApiError } from '../api/result.js';
import { useT } from '../i18n/i18n.js';

/** An API error as a person can act on it: the server's own text, each bad field, and the request id to quote. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const t = useT();
  const apiError = error instanceof ApiError ? error : undefined;
  const message = apiError?.message ?? (error instanceof Error ? error.message : t('common.somethingWrong'));
  return (
    <div className="notice notice-error" role="alert">
      {title && <p className="notice-title">{title}</p>}
      {/* The server's sentences are English (a translated one carries a code the page reads instead). */}
      <p lang={apiError && apiError.status !== 0 ? 'en' : undefined}>
        {apiError?.status === 0 ? t('common.unreachable') : message}
      </p>
      {apiError?.hint && <p lang="en">{apiError.hint}</p>}
      {apiError && apiError.details.length > 1 && (
        <ul>
          {apiError.details.map((detail) => (
            <li key={detail.path} lang="en">
              {detail.message}
            </li>
          ))}
        </ul>
      )}
      {apiError?.requestId && (
        <p className="request-id">
          {t('common.requestId')} <code>{apiError.requestId}</code>
        </p>
      )}
    </div>
  );
}
