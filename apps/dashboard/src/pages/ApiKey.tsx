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
import { rich, useT } from '../i18n/i18n.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';

const KEY = ['key'] as const;

function KeyPanel() {
  const me = useMe();
  const t = useT();
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
        {rich(t('key.intro', { org: me.organisation.name }), {
          api: <span translate="no">Partner Booking API</span>,
          header: <code>Authorization: Bearer …</code>,
        })}
      </p>
      <QueryView query={key} what={t('key.what')}>
        {({ data }) =>
          data === null ? (
            <Empty>{t('key.none')}</Empty>
          ) : (
            <dl className="facts">
              <dt>{t('key.id')}</dt>
              <dd>
                <code>{data.id}</code>
              </dd>
              <dt>{t('key.scopes')}</dt>
              <dd translate="no">{data.scopes.join(', ')}</dd>
              <dt>{t('common.venues')}</dt>
              <dd>{t('key.venues')}</dd>
              <dt>{t('key.rateLimit')}</dt>
              <dd>
                {data.rate_limit_per_min === null
                  ? t('key.defaultRate')
                  : t('key.perMinute', { count: data.rate_limit_per_min })}
              </dd>
              <dt>{t('common.created')}</dt>
              <dd>{formatDateTime(data.created_at, localTimeZone)}</dd>
            </dl>
          )
        }
      </QueryView>
      {shown && (
        <OneTimeSecret
          label={shown.fresh ? t('key.newKey') : t('key.key')}
          value={shown.value}
          note={shown.fresh ? t('key.freshNote') : t('key.keepSecret')}
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
            {t('key.reveal')}
          </button>
        )}
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          {t('key.regenerate')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('key.regenerateTitle')}
        confirmLabel={t('key.regenerateNow')}
        busy={regenerate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          withRecentSignIn(() => regenerate.mutateAsync());
        }}
      >
        <p>
          <strong>{t('key.regenerateStops')}</strong>
          {t('key.regenerateBody')}
        </p>
      </ConfirmDialog>
      {dialog}
    </>
  );
}

export function ApiKeyPage() {
  const t = useT();
  return (
    <Layout title={t('key.title')}>
      <AdminOnly>
        <KeyPanel />
      </AdminOnly>
    </Layout>
  );
}
