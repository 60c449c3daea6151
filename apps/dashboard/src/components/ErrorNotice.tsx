import { ApiError } from '../api/result.js';
import { useT } from '../i18n/i18n.js';

/** An API error as a person can act on it: the server's own text, each bad field, and the request id to quote. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const t = useT();
  const apiError = error instanceof ApiError ? error : undefined;
  const message = apiError?.message ?? (error instanceof Error ? error.message : 'Something went wrong.');
  return (
    <div className="notice notice-error" role="alert">
      {title && <p className="notice-title">{title}</p>}
      <p>{apiError?.status === 0 ? t('common.unreachable') : message}</p>
      {apiError?.hint && <p>{apiError.hint}</p>}
      {apiError && apiError.details.length > 1 && (
        <ul>
          {apiError.details.map((detail) => (
            <li key={detail.path}>{detail.message}</li>
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
