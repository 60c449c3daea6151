import { PASSWORD_LENGTH } from '@spa/contract/dashboard';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api } from '../api/client.js';
import { ApiError, ok } from '../api/result.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { PasswordField } from '../components/PasswordField.js';
import { QueryView } from '../components/States.js';
import { rich, useT } from '../i18n/i18n.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';
import { PublicFrame } from './PublicFrame.js';

export function AcceptInvitationPage() {
  const t = useT();
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
    <PublicFrame title={t('invitation.title')}>
      {invitation.error instanceof ApiError && invitation.error.status === 404 ? (
        <>
          <p>{t('invitation.dead')}</p>
          <p>
            {rich(t('invitation.deadSignIn'), {
              signIn: <Link href="/sign-in">{t('invitation.signIn')}</Link>,
            })}
          </p>
        </>
      ) : (
        <QueryView query={invitation} what={t('invitation.what')}>
          {({ data }) => (
            <>
              <p>
                {rich(t('invitation.body', { until: formatDateTime(data.expires_at, localTimeZone) }), {
                  org: <strong>{data.organisation.name}</strong>,
                  role: <strong>{t(`layout.role.${data.role}`)}</strong>,
                  email: <strong>{data.email}</strong>,
                })}
              </p>
              <form className="form" onSubmit={submit}>
                <input type="email" hidden readOnly autoComplete="username" value={data.email} />
                <PasswordField
                  label={t('invitation.new')}
                  autoComplete="new-password"
                  minLength={PASSWORD_LENGTH.min}
                  maxLength={PASSWORD_LENGTH.max}
                  value={password}
                  onChange={setPassword}
                  aria-describedby="password-rule"
                />
                <p id="password-rule" className="hint">
                  {t('invitation.rule', { min: PASSWORD_LENGTH.min, max: PASSWORD_LENGTH.max })}
                </p>
                <PasswordField
                  label={t('invitation.repeat')}
                  autoComplete="new-password"
                  value={repeat}
                  onChange={setRepeat}
                  aria-invalid={mismatch}
                />
                {mismatch && (
                  <p className="field-error" role="alert">
                    {t('invitation.differ')}
                  </p>
                )}
                {accept.isError && <ErrorNotice error={accept.error} />}
                <button type="submit" className="primary" disabled={accept.isPending || mismatch}>
                  {accept.isPending ? t('common.saving') : t('invitation.set')}
                </button>
              </form>
            </>
          )}
        </QueryView>
      )}
    </PublicFrame>
  );
}
