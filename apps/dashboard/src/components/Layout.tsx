import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, useForgetSession, useMe } from '../api/session.js';
import type { MessageKey } from '../i18n/en.js';
import { LanguageSwitch, useT } from '../i18n/i18n.js';

type NavItem = { href: string; label: MessageKey; adminOnly?: boolean };

const NAV: NavItem[] = [
  { href: '/', label: 'nav.overview' },
  { href: '/bookings', label: 'nav.bookings' },
  { href: '/desk', label: 'nav.desk' },
  { href: '/key', label: 'nav.key', adminOnly: true },
  { href: '/webhooks', label: 'nav.webhooks', adminOnly: true },
  { href: '/people', label: 'nav.people', adminOnly: true },
  { href: '/audit', label: 'nav.audit', adminOnly: true },
  { href: '/account', label: 'nav.account' },
];

/**
 * The frame of every signed-in page: the organisation, the sections this person may open, the language and
 * sign-out. `headerSlot` is the header's place for page-wide switches (a live/test mode switch fits there).
 */
export function Layout({
  title,
  children,
  headerSlot,
}: {
  title: string;
  children: ReactNode;
  headerSlot?: ReactNode;
}) {
  const me = useMe();
  const t = useT();
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
        {t('layout.skip')}
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="org">{me.organisation.name}</span>
          <span className="muted">{t('app.name')}</span>
        </div>
        <div className="topbar-slot">{headerSlot}</div>
        <div className="who">
          <span>
            {me.email}{' '}
            <span className="muted">({t(me.role === 'admin' ? 'layout.role.admin' : 'layout.role.desk')})</span>
          </span>
          <LanguageSwitch />
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            {t('layout.signOut')}
          </button>
        </div>
      </header>
      <nav className="nav" aria-label={t('nav.sections')}>
        <ul>
          {items.map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                {t(item.label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {signOut.isError && <p role="alert">{t('layout.signOutFailed', { message: signOut.error.message })}</p>}
        {children}
      </main>
    </div>
  );
}

/** What a desk person sees on an admin's page: the server refuses these too. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  const t = useT();
  if (me.role !== 'admin')
    return (
      <div className="notice notice-error" role="alert">
        <p>{t('layout.adminOnly', { org: me.organisation.name })}</p>
      </div>
    );
  return <>{children}</>;
}
