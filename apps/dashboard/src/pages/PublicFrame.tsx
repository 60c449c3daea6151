import type { ReactNode } from 'react';
import { LanguageSwitch, useT } from '../i18n/i18n.js';

/** The frame of the pages reached without a session: sign-in and accepting an invitation. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <main id="main" className="public">
      <div className="card public-card">
        <div className="public-head">
          <p className="muted">
            <span translate="no">Partner Booking API</span> · {t('app.name')}
          </p>
          <LanguageSwitch />
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
