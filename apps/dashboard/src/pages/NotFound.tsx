import { Link } from 'wouter';
import { useT } from '../i18n/i18n.js';
import { PublicFrame } from './PublicFrame.js';

export function NotFoundPage() {
  const t = useT();
  return (
    <PublicFrame title={t('notFound.title')}>
      <p>{t('notFound.body')}</p>
      <p>
        <Link href="/">{t('notFound.overview')}</Link>
      </p>
    </PublicFrame>
  );
}
