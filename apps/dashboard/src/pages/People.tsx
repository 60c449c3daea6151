import { type PendingInvitation, Role, type User } from '@spa/contract/dashboard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { OneTimeSecret } from '../components/CopyButton.js';
import { type Column, DataTable } from '../components/DataTable.js';
import { ConfirmDialog, Dialog } from '../components/Dialog.js';
import { useToast } from '../components/Toasts.js';
import { EmailAddress } from '../components/EmailAddress.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { AdminOnly, Layout } from '../components/Layout.js';
import { Pager } from '../components/Pager.js';
import { Empty, QueryView } from '../components/States.js';
import { useT } from '../i18n/i18n.js';
import { formatDateTime, localTimeZone } from '../lib/format.js';

const USERS = ['users'] as const;

function InviteForm() {
  const me = useMe();
  const t = useT();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('desk');
  const [venues, setVenues] = useState<string[]>([]);
  const invite = useMutation({
    mutationFn: () => ok(api.users.invite({ body: { email, role, venues: role === 'desk' ? venues : [] } })),
    onSuccess: async () => {
      setEmail('');
      setVenues([]);
      await queryClient.invalidateQueries({ queryKey: USERS });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  const toggle = (id: string) =>
    setVenues((current) => (current.includes(id) ? current.filter((v) => v !== id) : [...current, id]));
  return (
    <form className="form card" onSubmit={submit} aria-labelledby="invite">
      <h2 id="invite">{t('people.invite')}</h2>
      <label>
        {t('common.email')}
        <input type="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
      </label>
      <label>
        {t('common.role')}
        <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {Role.options.map((option) => (
            <option key={option} value={option}>
              {t(`role.${option}`)}
            </option>
          ))}
        </select>
      </label>
      {role === 'desk' && (
        <fieldset>
          <legend>{t('people.venuesSeen')}</legend>
          <div className="checks">
            {me.venues.map((venue) => (
              <label key={venue.id} className="check">
                <input type="checkbox" checked={venues.includes(venue.id)} onChange={() => toggle(venue.id)} />
                {venue.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {invite.isError && <ErrorNotice error={invite.error} />}
      {invite.data && (
        <OneTimeSecret
          label={t('people.linkLabel')}
          value={invite.data.data.url}
          note={t('people.linkNote', {
            email: invite.data.data.email,
            until: formatDateTime(invite.data.data.expires_at, localTimeZone),
          })}
        />
      )}
      <button type="submit" className="primary" disabled={invite.isPending}>
        {invite.isPending ? t('people.inviting') : t('people.inviteButton')}
      </button>
    </form>
  );
}

function PeoplePanel() {
  const me = useMe();
  const t = useT();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<{ id: string; email: string } | undefined>(undefined);
  const [editing, setEditing] = useState<z.infer<typeof User> | undefined>(undefined);
  const users = useQuery({
    queryKey: [...USERS, page],
    queryFn: () => ok(api.users.list({ query: { page: String(page) } })),
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.users.remove({ params: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USERS }),
    onSettled: () => setRemoving(undefined),
  });
  const columns: Column<z.infer<typeof User>>[] = [
    { label: t('common.email'), cell: (user) => <EmailAddress address={user.email} /> },
    { label: t('common.role'), cell: (user) => t(`layout.role.${user.role}`) },
    {
      label: t('common.venues'),
      cell: (user) => (user.role === 'admin' ? t('common.everyVenue') : user.venues.map((v) => v.name).join(', ')),
    },
    {
      label: t('people.lastSignIn'),
      cell: (user) => (user.last_sign_in_at ? formatDateTime(user.last_sign_in_at, localTimeZone) : t('people.never')),
    },
    {
      label: t('people.actions'),
      labelHidden: true,
      cell: (user) =>
        user.id !== me.id && (
          <div className="actions">
            <button
              type="button"
              onClick={() => setEditing(user)}
              aria-label={t('people.changeAccessOf', { email: user.email })}
            >
              {t('people.changeAccess')}
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => setRemoving({ id: user.id, email: user.email })}
              aria-label={t('people.removeLabel', { email: user.email })}
            >
              {t('common.remove')}
            </button>
          </div>
        ),
    },
  ];
  return (
    <>
      <QueryView query={users} what={t('people.what')}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>{t('people.nobody')}</Empty>
          ) : (
            <>
              <DataTable
                caption={t('people.caption', { org: me.organisation.name })}
                columns={columns}
                rows={data}
                rowKey={(user) => user.id}
              />
              <Pager pagination={pagination} onPage={setPage} />
            </>
          )
        }
      </QueryView>
      {remove.isError && <ErrorNotice error={remove.error} />}
      <PendingInvitations />
      <InviteForm />
      {editing && <EditAccess user={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={removing !== undefined}
        title={t('people.removeTitle', { email: removing?.email ?? '' })}
        confirmLabel={t('people.removeButton')}
        busy={remove.isPending}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => removing && remove.mutate(removing.id)}
      >
        <p>{t('people.removeBody')}</p>
      </ConfirmDialog>
    </>
  );
}

/** A person's role and (desk) venues, changed by an admin; their open sessions follow at their next request. */
function EditAccess({ user, onClose }: { user: z.infer<typeof User>; onClose: () => void }) {
  const me = useMe();
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>(user.role);
  const [venues, setVenues] = useState<string[]>(user.venues.map((v) => v.id));
  const update = useMutation({
    mutationFn: () =>
      ok(api.users.update({ params: { id: user.id }, body: { role, venues: role === 'desk' ? venues : [] } })),
    onSuccess: async ({ data }) => {
      toast(
        data.role === 'admin'
          ? t('people.accessNowAdmin', { email: data.email })
          : t('people.accessNowDesk', { email: data.email, venues: data.venues.map((v) => v.name).join(', ') }),
      );
      onClose();
      await queryClient.invalidateQueries({ queryKey: USERS });
    },
  });
  const toggle = (id: string) =>
    setVenues((current) => (current.includes(id) ? current.filter((v) => v !== id) : [...current, id]));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate();
  };
  return (
    <Dialog open title={t('people.accessOf', { email: user.email })} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label>
          {t('common.role')}
          <select value={role} onChange={(event) => setRole(event.target.value as Role)} data-autofocus>
            {Role.options.map((option) => (
              <option key={option} value={option}>
                {t(`role.${option}`)}
              </option>
            ))}
          </select>
        </label>
        {role === 'desk' && (
          <fieldset>
            <legend>{t('people.venuesSeen')}</legend>
            <div className="checks">
              {me.venues.map((venue) => (
                <label key={venue.id} className="check">
                  <input type="checkbox" checked={venues.includes(venue.id)} onChange={() => toggle(venue.id)} />
                  {venue.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        {update.isError && <ErrorNotice error={update.error} />}
        <div className="actions">
          <button type="submit" className="primary" disabled={update.isPending}>
            {update.isPending ? t('common.saving') : t('people.saveAccess')}
          </button>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Invitations not yet accepted, each revocable: its link stops working at once. */
function PendingInvitations() {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: [...USERS, 'invitations'],
    queryFn: () => ok(api.users.invitations({ query: { page_size: '100' } })),
  });
  const revoke = useMutation({
    mutationFn: (invitation: { id: string; email: string }) =>
      ok(api.users.revokeInvitation({ params: { id: invitation.id } })),
    onSuccess: async (_, invitation) => {
      toast(t('people.revoked', { email: invitation.email }));
      await queryClient.invalidateQueries({ queryKey: USERS });
    },
  });
  const columns: Column<z.infer<typeof PendingInvitation>>[] = [
    { label: t('common.email'), cell: (i) => <EmailAddress address={i.email} /> },
    {
      label: t('common.role'),
      cell: (i) =>
        i.role === 'admin'
          ? t('layout.role.admin')
          : t('people.deskAt', { venues: i.venues.map((v) => v.name).join(', ') }),
    },
    { label: t('people.invitedBy'), cell: (i) => i.invited_by ?? t('common.operator') },
    { label: t('people.validUntil'), cell: (i) => formatDateTime(i.expires_at, localTimeZone) },
    {
      label: t('people.actions'),
      labelHidden: true,
      cell: (i) => (
        <button
          type="button"
          className="danger"
          onClick={() => revoke.mutate({ id: i.id, email: i.email })}
          aria-label={t('people.revokeLabel', { email: i.email })}
        >
          {t('people.revoke')}
        </button>
      ),
    },
  ];
  return (
    <section aria-labelledby="pending-invitations">
      <h2 id="pending-invitations">{t('people.pending')}</h2>
      <QueryView query={invitations} what={t('people.pendingWhat')}>
        {({ data }) =>
          data.length === 0 ? (
            <Empty>{t('people.noPending')}</Empty>
          ) : (
            <DataTable caption={t('people.pending')} columns={columns} rows={data} rowKey={(i) => i.id} />
          )
        }
      </QueryView>
      {revoke.isError && <ErrorNotice error={revoke.error} />}
    </section>
  );
}

export function PeoplePage() {
  const t = useT();
  return (
    <Layout title={t('people.title')}>
      <AdminOnly>
        <PeoplePanel />
      </AdminOnly>
    </Layout>
  );
}
