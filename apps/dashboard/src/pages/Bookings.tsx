import { BookingStatus } from '@spa/contract';
import { BookingSort, type BookingRow } from '@spa/contract/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import type { z } from 'zod';
import { api } from '../api/client.js';
import { ok } from '../api/result.js';
import { useMe } from '../api/session.js';
import { Badge } from '../components/Badge.js';
import { type Column, DataTable } from '../components/DataTable.js';
import { EmailAddress } from '../components/EmailAddress.js';
import { Layout } from '../components/Layout.js';
import { Pager } from '../components/Pager.js';
import { Empty, QueryView } from '../components/States.js';
import type { MessageKey } from '../i18n/en.js';
import { type Translate, useT } from '../i18n/i18n.js';
import { formatDateTime, formatMoney } from '../lib/format.js';
import { pageParam, pickOption } from '../lib/params.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The export of what the filters match (every page), as the server writes it: a plain link, the browser saves it. */
function exportHref(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value && name !== 'page') params.set(name, value);
  return `/dashboard/api/exports/bookings${params.size ? `?${params.toString()}` : ''}`;
}

const bookingColumns = (t: Translate): Column<z.infer<typeof BookingRow>>[] => [
  {
    label: t('bookings.number'),
    cell: (booking) => <Link href={`/bookings/${booking.id}`}>#{booking.booking_number}</Link>,
  },
  { label: t('bookings.start'), cell: (booking) => formatDateTime(booking.start_at, booking.venue.timezone) },
  {
    label: t('bookings.customer'),
    cell: (booking) => (
      <>
        {booking.customer.first_name} {booking.customer.last_name}
        <br />
        <span className="muted">
          <EmailAddress address={booking.customer.email} />
        </span>
      </>
    ),
  },
  {
    label: t('bookings.treatment'),
    cell: (booking) => (
      <>
        {booking.treatment.name} · {booking.variant.name}
        {booking.guest_count > 1 && ` · ${t.plural('bookings.guests', booking.guest_count)}`}
      </>
    ),
  },
  { label: t('common.venue'), cell: (booking) => booking.venue.name },
  { label: t('common.status'), cell: (booking) => <Badge value={booking.status} /> },
  { label: t('bookings.price'), className: 'num', cell: (booking) => formatMoney(booking.total_price) },
];

export function BookingsPage() {
  const me = useMe();
  const t = useT();
  const [params, setParams] = useSearchParams();
  const query = {
    venue: params.get('venue') || undefined,
    status: pickOption(BookingStatus.options, params.get('status')),
    from: DATE.test(params.get('from') ?? '') ? params.get('from')! : undefined,
    to: DATE.test(params.get('to') ?? '') ? params.get('to')! : undefined,
    q: params.get('q')?.trim() || undefined,
    sort: pickOption(BookingSort.options, params.get('sort')),
    page: pageParam(params.get('page')),
  };
  const [search, setSearch] = useState(query.q ?? '');
  const bookings = useQuery({
    queryKey: ['bookings', query],
    queryFn: () => ok(api.bookings.list({ query })),
    placeholderData: keepPreviousData,
  });
  const set = (changes: Record<string, string | undefined>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      if (!('page' in changes)) next.delete('page');
      return next;
    });
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    set({ q: search.trim() || undefined });
  };
  return (
    <Layout title={t('bookings.title')}>
      <form className="filters" aria-label={t('bookings.filters')} onSubmit={submitSearch}>
        <label>
          {t('common.venue')}
          <select value={query.venue ?? ''} onChange={(event) => set({ venue: event.target.value })}>
            <option value="">{t('common.everyVenue')}</option>
            {me.venues.map((venue) => (
              <option key={venue.id} value={venue.id}>
                {venue.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('common.status')}
          <select value={query.status ?? ''} onChange={(event) => set({ status: event.target.value })}>
            <option value="">{t('common.anyStatus')}</option>
            {BookingStatus.options.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('bookings.from')}
          <input type="date" value={query.from ?? ''} onChange={(event) => set({ from: event.target.value })} />
        </label>
        <label>
          {t('bookings.to')}
          <input type="date" value={query.to ?? ''} onChange={(event) => set({ to: event.target.value })} />
        </label>
        <label>
          {t('bookings.order')}
          <select value={query.sort ?? 'upcoming'} onChange={(event) => set({ sort: event.target.value })}>
            {BookingSort.options.map((value) => (
              <option key={value} value={value}>
                {t(`bookings.sort.${value}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          {t('common.search')}
          <input
            type="search"
            placeholder={t('bookings.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      <p>
        <a href={exportHref(query)} download>
          {t('bookings.export')}
        </a>
      </p>
      <QueryView query={bookings} what={t('bookings.what')}>
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>{t('bookings.noMatch')}</Empty>
          ) : (
            <>
              <DataTable
                caption={t('bookings.title')}
                columns={bookingColumns(t)}
                rows={data}
                rowKey={(booking) => booking.id}
              />
              <Pager pagination={pagination} onPage={(page) => set({ page: String(page) })} />
            </>
          )
        }
      </QueryView>
    </Layout>
  );
}
