import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, SESSION_KEY } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { PasswordField } from '../components/PasswordField.js';
import { useT } from '../i18n/i18n.js';
import { PublicFrame } from './PublicFrame.js';

/** Only a path of this app: `next` comes from the URL, so it must not send the person to another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** Why a session ended, as the server told it: each has its own sentence. */
const ENDED = ['removed', 'password_changed', 'signed_out_everywhere'] as const;

export function SignInPage() {
  const t = useT();
  const [params] = useSearchParams();
  const ended = ENDED.find((reason) => reason === params.get('ended'));
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => ok(api.session.signIn({ body: { email, password } })),
    onSuccess: (me) => {
      rememberSignedIn(true);
      queryClient.setQueryData(SESSION_KEY, me);
      navigate(safeNext(params.get('next')), { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <PublicFrame title={t('signIn.title')}>
      {ended && (
        <p className="notice notice-info" role="status">
          {t(`signIn.${ended}`)}
        </p>
      )}
      {!ended && params.get('expired') && (
        <p className="notice notice-info" role="status">
          {t('signIn.expired')}
        </p>
      )}
      {params.get('signed_out') && (
        <p className="notice notice-info" role="status">
          {t('signIn.signedOut')}
        </p>
      )}
      {params.get('welcome') && (
        <p className="notice notice-info" role="status">
          {t('signIn.welcome')}
        </p>
      )}
      <form className="form" onSubmit={submit}>
        <label>
          {t('signIn.email')}
          <input
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
          />
        </label>
        <PasswordField
          label={t('signIn.password')}
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        {signIn.isError && <ErrorNotice error={signIn.error} />}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? t('signIn.busy') : t('signIn.submit')}
        </button>
      </form>
    </PublicFrame>
  );
}
