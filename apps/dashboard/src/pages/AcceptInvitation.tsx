import { PASSWORD_LENGTH } from '@spa/contract/dashboard';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api } from '../api/client.js';
import { ApiError, ok } from '../api/result.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { PasswordField } from '../components/PasswordField.js';
import { QueryView } from '../components/States.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';
import { PublicFrame } from './PublicFrame.js';

export function AcceptInvitationPage() {
  const { token } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const invitation = useQuery({
    retry: false,
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
      {invitation.error instanceof ApiError && invitation.error.status === 404 ? (
        <>
          <p>This invitation link no longer works: it was used already, revoked, or is more than 72 hours old.</p>
          <p>
            If you have set your password with it, <Link href="/sign-in">sign in</Link>. Otherwise ask the person who
            invited you for a new invitation.
          </p>
        </>
      ) : (
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
                <PasswordField
                  label="New password"
                  autoComplete="new-password"
                  minLength={PASSWORD_LENGTH.min}
                  maxLength={PASSWORD_LENGTH.max}
                  value={password}
                  onChange={setPassword}
                  aria-describedby="password-rule"
                />
                <p id="password-rule" className="hint">
                  {PASSWORD_LENGTH.min} to {PASSWORD_LENGTH.max} characters. A few unrelated words make a strong one.
                </p>
                <PasswordField
                  label="Repeat the password"
                  autoComplete="new-password"
                  value={repeat}
                  onChange={setRepeat}
                  aria-invalid={mismatch}
                />
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
      )}
    </PublicFrame>
  );
}
