import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, useForgetSession, useMe } from '../api/session.js';

type NavItem = { href: string; label: string; adminOnly?: boolean };

const NAV: NavItem[] = [
  { href: '/', label: 'Overview' },
  { href: '/bookings', label: 'Bookings' },
  { href: '/desk', label: 'Venue desk' },
  { href: '/key', label: 'API key', adminOnly: true },
  { href: '/webhooks', label: 'Webhooks', adminOnly: true },
  { href: '/people', label: 'People', adminOnly: true },
  { href: '/audit', label: 'Audit log', adminOnly: true },
];

/** The frame of every signed-in page: the organisation, the sections this person may open, and sign-out. */
export function Layout({ title, children }: { title: string; children: ReactNode }) {
  const me = useMe();
  const [location, navigate] = useLocation();
  const forget = useForgetSession();
  const signOut = useMutation({
    mutationFn: () => ok(api.session.signOut()),
    onSuccess: () => {
      rememberSignedIn(false);
      forget();
      navigate('/sign-in?signed_out=1');
    },
  });
  const items = NAV.filter((item) => !item.adminOnly || me.role === 'admin');
  const current = (href: string) => (href === '/' ? location === '/' : location.startsWith(href));
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="org">{me.organisation.name}</span>
          <span className="muted">Dashboard</span>
        </div>
        <div className="who">
          <span>
            {me.email} <span className="muted">({me.role})</span>
          </span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="nav" aria-label="Sections">
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {signOut.isError && <p role="alert">Could not sign out: {signOut.error.message}</p>}
        {children}
      </main>
    </div>
  );
}

/** What a desk person sees on an admin's page: the server refuses these too. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.role !== 'admin')
    return (
      <div className="notice notice-error" role="alert">
        <p>This page is for administrators of {me.organisation.name}. Your role is desk.</p>
      </div>
    );
  return <>{children}</>;
}
