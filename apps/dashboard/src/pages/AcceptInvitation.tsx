import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { QueryView } from '../components/States.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';
import { PublicFrame } from './PublicFrame.js';

const MIN_PASSWORD = 12;

export function AcceptInvitationPage() {
  const { token } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => ok(api.invitations.get({ params: { token } })),
  });
  const accept = useMutation({
    mutationFn: () => ok(api.invitations.accept({ params: { token }, body: { password } })),
    onSuccess: (user) => navigate(`/sign-in?welcome=1&email=${encodeURIComponent(user.data.email)}`),
  });
  const mismatch = repeat.length > 0 && repeat !== password;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) accept.mutate();
  };
  return (
    <PublicFrame title="Accept your invitation">
      <QueryView query={invitation} what="the invitation">
        {({ data }) => (
          <>
            <p>
              You are invited to <strong>{data.organisation.name}</strong> as <strong>{data.role}</strong>, with the
              email <strong>{data.email}</strong>. Choose a password to finish. The invitation is valid until{' '}
              {formatDateTime(data.expires_at, localTimeZone)}.
            </p>
            <form className="form" onSubmit={submit}>
              <input type="email" hidden readOnly autoComplete="username" value={data.email} />
              <label>
                New password
                <input
                  type="password"
                  autoComplete="new-password"
                  minLength={MIN_PASSWORD}
                  maxLength={256}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  aria-describedby="password-rule"
                  required
                />
              </label>
              <p id="password-rule" className="hint">
                {MIN_PASSWORD} to 256 characters. A few unrelated words make a strong one.
              </p>
              <label>
                Repeat the password
                <input
                  type="password"
                  autoComplete="new-password"
                  value={repeat}
                  onChange={(event) => setRepeat(event.target.value)}
                  aria-invalid={mismatch}
                  required
                />
              </label>
              {mismatch && (
                <p className="field-error" role="alert">
                  The two passwords differ.
                </p>
              )}
              {accept.isError && <ErrorNotice error={accept.error} />}
              <button type="submit" className="primary" disabled={accept.isPending || mismatch}>
                {accept.isPending ? 'Saving…' : 'Set password'}
              </button>
            </form>
          </>
        )}
      </QueryView>
    </PublicFrame>
  );
}
