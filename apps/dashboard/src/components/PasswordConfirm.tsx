import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { SESSION_KEY, useMe } from '../api/session.js';
import { Dialog } from './Dialog.js';
import { ErrorNotice } from './ErrorNotice.js';
import { PasswordField } from './PasswordField.js';

/**
 * Revealing or regenerating the key and rotating a secret need the password confirmed in the last 5 minutes.
 * `withRecentSignIn(action)` runs the action at once when it is, and asks for the password first when it is not.
 */
export function useRecentSignIn() {
  const me = useMe();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<(() => void) | undefined>(undefined);
  const [password, setPassword] = useState('');
  const confirm = useMutation({
    mutationFn: (value: string) => ok(api.session.confirm({ body: { password: value } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      const action = pending;
      setPending(undefined);
      setPassword('');
      action?.();
    },
  });
  const confirmedNow = me.confirmed_until !== null && Date.parse(me.confirmed_until) > Date.now() + 5_000;
  const withRecentSignIn = (action: () => void) => {
    if (confirmedNow) action();
    else {
      confirm.reset();
      setPending(() => action);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(password);
  };
  const dialog = (
    <Dialog open={pending !== undefined} title="Confirm your password" onClose={() => setPending(undefined)}>
      <form onSubmit={submit} className="form">
        <p>For your security, enter your password again to continue. It stays confirmed for 5 minutes.</p>
        <PasswordField
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          autoFocus
        />
        {confirm.isError && <ErrorNotice error={confirm.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={confirm.isPending}>
            {confirm.isPending ? 'Checking…' : 'Confirm'}
          </button>
          <button type="button" onClick={() => setPending(undefined)}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
  return { withRecentSignIn, dialog };
}
