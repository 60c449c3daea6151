import type { ReactNode } from 'react';

/** The frame of the pages reached without a session: sign-in and accepting an invitation. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="public">
      <div className="card public-card">
        <p className="muted">Partner Booking API · Dashboard</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
