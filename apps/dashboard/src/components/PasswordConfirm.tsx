import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api } from '../api/client.js';
import { ApiError, ok } from '../api/result.js';
import { SESSION_KEY } from '../api/session.js';
import { useT } from '../i18n/i18n.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { PasswordField } from './PasswordField.js';

/**
 * Revealing or regenerating the key and rotating a secret need the password confirmed in the last 5 minutes.
 * `withRecentSignIn(action)` runs the action; when the server answers 403 `Recent sign-in required` it asks for
 * the password and runs it again. The page never guesses from its own clock (a browser minutes behind the server
 * would never ask). `isAsking(error)` tells the caller not to show that 403 as an error: the dialog answers it.
 */
export function useRecentSignIn() {
  const t = useT();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<(() => Promise<unknown>) | undefined>(undefined);
  const [password, setPassword] = useState('');
  const retried = useRef(false);
  const confirm = useMutation({
    mutationFn: (value: string) => ok(api.session.confirm({ body: { password: value } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      const action = pending;
      setPending(undefined);
      setPassword('');
      retried.current = true;
      await action?.().catch(() => undefined);
    },
  });
  const withRecentSignIn = (action: () => Promise<unknown>) => {
    retried.current = false;
    action().catch((error: unknown) => {
      if (error instanceof ApiError && error.needsRecentSignIn && !retried.current) {
        confirm.reset();
        setPending(() => action);
      }
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(password);
  };
  const dialog = (
    <Dialog open={pending !== undefined} title={t('confirm.title')} onClose={() => setPending(undefined)}>
      <form onSubmit={submit} className="form">
        <p>{t('confirm.body')}</p>
        <PasswordField
          label={t('signIn.password')}
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          data-autofocus
        />
        {confirm.isError && <ErrorNotice error={confirm.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={confirm.isPending}>
            {confirm.isPending ? t('confirm.busy') : t('confirm.submit')}
          </button>
          <button type="button" onClick={() => setPending(undefined)}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
  return {
    withRecentSignIn,
    dialog,
    isAsking: (error: unknown) => error instanceof ApiError && error.needsRecentSignIn,
  };
}
