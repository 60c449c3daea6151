import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { rememberSignedIn, SESSION_KEY } from '../api/session.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { PasswordField } from '../components/PasswordField.js';
import { PublicFrame } from './PublicFrame.js';

/** Only a path of this app: `next` comes from the URL, so it must not send the person to another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function SignInPage() {
  const [params] = useSearchParams();
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
    <PublicFrame title="Sign in">
      {params.get('expired') && (
        <p className="notice notice-info" role="status">
          Your session has expired. Sign in again to go back to where you were.
        </p>
      )}
      {params.get('signed_out') && (
        <p className="notice notice-info" role="status">
          You have signed out.
        </p>
      )}
      {params.get('welcome') && (
        <p className="notice notice-info" role="status">
          Your password is set. Sign in to open the dashboard.
        </p>
      )}
      <form className="form" onSubmit={submit}>
        <label>
          Email
          <input
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
          />
        </label>
        <PasswordField label="Password" autoComplete="current-password" value={password} onChange={setPassword} />
        {signIn.isError && <ErrorNotice error={signIn.error} />}
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </PublicFrame>
  );
}
