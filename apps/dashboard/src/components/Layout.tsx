import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, useForgetSession, useMe } from '../api/session.js';
import type { MessageKey } from '../i18n/en.js';
import { LanguageSwitch, useT } from '../i18n/i18n.js';
import { type Mode, setMode, useMode } from '../lib/mode.js';
import { SESSION_KEY } from '../api/session.js';

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
 * sign-out; for admins the live/test switch, and on every page in test mode a banner saying so.
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
  const mode = useMode();
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
        <div className="topbar-slot">
          {me.role === 'admin' && <ModeSwitch />}
          {headerSlot}
        </div>
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
        {mode === 'test' && me.role === 'admin' && (
          <p className="mode-banner" role="status">
            {t('mode.banner')}
          </p>
        )}
        <h1>{title}</h1>
        {signOut.isError && <p role="alert">{t('layout.signOutFailed', { message: signOut.error.message })}</p>}
        {children}
      </main>
    </div>
  );
}

/**
 * Live or test data, for the whole tab: switching drops every cached answer of the other mode, so no page shows a
 * mix. Admins only; the desk works on live bookings.
 */
function ModeSwitch() {
  const t = useT();
  const mode = useMode();
  const queryClient = useQueryClient();
  const choose = (next: Mode) => {
    if (next === mode) return;
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
    setMode(next);
  };
  return (
    <fieldset className="mode-switch">
      <legend className="visually-hidden">{t('mode.legend')}</legend>
      {(['live', 'test'] as const).map((option) => (
        <label key={option}>
          <input
            type="radio"
            name="dashboard-mode"
            value={option}
            checked={mode === option}
            onChange={() => choose(option)}
          />{' '}
          {t(option === 'live' ? 'mode.live' : 'mode.test')}
        </label>
      ))}
    </fieldset>
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
