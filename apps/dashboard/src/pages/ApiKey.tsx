import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { OneTimeSecret } from '../components/CopyButton.js';
import { ConfirmDialog } from '../components/Dialog.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { useRecentSignIn } from '../components/PasswordConfirm.js';
import { Empty, QueryView } from '../components/States.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';

const KEY = ['key'] as const;

function KeyPanel() {
  const me = useMe();
  const queryClient = useQueryClient();
  const key = useQuery({ queryKey: KEY, queryFn: () => ok(api.key.get()) });
  const { withRecentSignIn, dialog, isAsking } = useRecentSignIn();
  const [shown, setShown] = useState<{ value: string; fresh: boolean } | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const reveal = useMutation({
    mutationFn: () => ok(api.key.reveal()),
    onSuccess: ({ data }) => setShown({ value: data.key, fresh: false }),
  });
  const regenerate = useMutation({
    // The key shown is the one replaced: if another admin replaced it a moment before, the server says so (409).
    mutationFn: () => ok(api.key.regenerate({ body: { key_id: key.data?.data?.id } })),
    onSuccess: async ({ data }) => {
      setConfirming(false);
      setShown({ value: data.key, fresh: true });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: () => setConfirming(false),
  });
  return (
    <>
      <p>
        Your systems call the Partner Booking API with this key (<code>Authorization: Bearer …</code>). It covers every
        venue of {me.organisation.name}.
      </p>
      <QueryView query={key} what="the API key">
        {({ data }) =>
          data === null ? (
            <Empty>There is no active key. Regenerate to make one.</Empty>
          ) : (
            <dl className="facts">
              <dt>Key id</dt>
              <dd>
                <code>{data.id}</code>
              </dd>
              <dt>Scopes</dt>
              <dd>{data.scopes.join(', ')}</dd>
              <dt>Venues</dt>
              <dd>Every venue of the organisation</dd>
              <dt>Rate limit</dt>
              <dd>{data.rate_limit_per_min === null ? 'Server default' : `${data.rate_limit_per_min} per minute`}</dd>
              <dt>Created</dt>
              <dd>{formatDateTime(data.created_at, localTimeZone)}</dd>
            </dl>
          )
        }
      </QueryView>
      {shown && (
        <OneTimeSecret
          label={shown.fresh ? 'New API key' : 'API key'}
          value={shown.value}
          note={
            shown.fresh
              ? 'This is the only time the new key is shown here without confirming your password again. The old key no longer works.'
              : 'Keep it secret: anyone with it can book for your organisation.'
          }
        />
      )}
      {[reveal.error, regenerate.error]
        .filter((error) => error && !isAsking(error))
        .map((error, i) => (
          <ErrorNotice key={i} error={error} />
        ))}
      <div className="actions">
        {key.data?.data && !shown && (
          <button type="button" className="primary" onClick={() => withRecentSignIn(() => reveal.mutateAsync())}>
            Reveal key
          </button>
        )}
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Regenerate key
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Regenerate the API key?"
        confirmLabel="Regenerate now"
        busy={regenerate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          withRecentSignIn(() => regenerate.mutateAsync());
        }}
      >
        <p>
          The current key <strong>stops working at once</strong>: every request made with it is refused with 401 from
          this moment. Update your systems with the new key right after.
        </p>
      </ConfirmDialog>
      {dialog}
    </>
  );
}

export function ApiKeyPage() {
  return (
    <Layout title="API key">
      <AdminOnly>
        <KeyPanel />
      </AdminOnly>
    </Layout>
  );
}
