import { PASSWORD_LENGTH, type SessionInfo } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, useForgetSession } from '../api/session.js';
import { type Column, DataTable } from '../components/DataTable.js';
import { ConfirmDialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { Layout } from '../components/Layout.js';
import { PasswordField } from '../components/PasswordField.js';
import { QueryView } from '../components/States.js';
import { useToast } from '../components/Toasts.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';

const SESSIONS = ['sessions'] as const;

/** A new password after the current one: every other session of the person ends, this one stays. */
function ChangePassword() {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const change = useMutation({
    mutationFn: () => ok(api.session.changePassword({ body: { current_password: current, new_password: next } })),
    onSuccess: async ({ data }) => {
      setCurrent('');
      setNext('');
      setRepeat('');
      toast(t.plural('account.changed', data.sessions_ended));
      await queryClient.invalidateQueries({ queryKey: SESSIONS });
    },
  });
  const mismatch = repeat.length > 0 && repeat !== next;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) change.mutate();
  };
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="change-password">
      <h2 id="change-password">{t('account.password')}</h2>
      <PasswordField
        label={t('account.current')}
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
      />
      <PasswordField
        label={t('account.new')}
        autoComplete="new-password"
        minLength={PASSWORD_LENGTH.min}
        maxLength={PASSWORD_LENGTH.max}
        value={next}
        onChange={setNext}
        aria-describedby="new-password-rule"
      />
      <p id="new-password-rule" className="hint">
        {t('account.rule')}
      </p>
      <PasswordField
        label={t('account.repeat')}
        autoComplete="new-password"
        value={repeat}
        onChange={setRepeat}
        aria-invalid={mismatch}
      />
      {mismatch && (
        <p className="field-error" role="alert">
          {t('account.differ')}
        </p>
      )}
      {change.isError && <ErrorNotice error={change.error} />}
      <button type="submit" className="primary" disabled={change.isPending || mismatch}>
        {change.isPending ? t('account.changing') : t('account.change')}
      </button>
    </form>
  );
}

/** The person's live sessions, each one ended on its own, or all at once (this one included). */
function Sessions() {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const forget = useForgetSession();
  const [confirming, setConfirming] = useState(false);
  const sessions = useQuery({ queryKey: SESSIONS, queryFn: () => ok(api.session.sessions()) });
  const end = useMutation({
    mutationFn: (id: string) => ok(api.session.endSession({ params: { id } })),
    onSuccess: async () => {
      toast(t('account.ended'));
      await queryClient.invalidateQueries({ queryKey: SESSIONS });
    },
  });
  const everywhere = useMutation({
    mutationFn: () => ok(api.session.signOutEverywhere()),
    onSuccess: () => {
      rememberSignedIn(false);
      forget();
      navigate('/sign-in?ended=signed_out_everywhere');
    },
  });
  const columns: Column<z.infer<typeof SessionInfo>>[] = [
    { label: t('account.signedIn'), cell: (s) => formatDateTime(s.created_at, localTimeZone) },
    { label: t('account.lastSeen'), cell: (s) => formatDateTime(s.last_seen_at, localTimeZone) },
    {
      label: t('account.from'),
      cell: (s) => (
        <>
          {s.ip ?? '—'}
          {s.user_agent && <div className="muted ua">{s.user_agent}</div>}
        </>
      ),
    },
    {
      label: t('account.end'),
      labelHidden: true,
      cell: (s) =>
        s.current ? (
          <strong>{t('account.thisOne')}</strong>
        ) : (
          <button type="button" onClick={() => end.mutate(s.id)} disabled={end.isPending}>
            {t('account.end')}
          </button>
        ),
    },
  ];
  return (
    <section className="card" aria-labelledby="sessions">
      <h2 id="sessions">{t('account.sessions')}</h2>
      <QueryView query={sessions} what={t('account.sessions')}>
        {({ data }) => (
          <DataTable caption={t('account.sessionsCaption')} columns={columns} rows={data} rowKey={(s) => s.id} />
        )}
      </QueryView>
      {(end.error ?? everywhere.error) && <ErrorNotice error={end.error ?? everywhere.error} />}
      <div className="actions">
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t('account.everywhere')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('account.everywhereConfirm')}
        confirmLabel={t('account.everywhere')}
        busy={everywhere.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => everywhere.mutate()}
      >
        <p>{t('account.everywhereBody')}</p>
      </ConfirmDialog>
    </section>
  );
}

export function AccountPage() {
  const t = useT();
  return (
    <Layout title={t('account.title')}>
      <ChangePassword />
      <Sessions />
    </Layout>
  );
}
