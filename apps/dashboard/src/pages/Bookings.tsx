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
import { formatDateTime, formatMoney } from '../lib/format.js';
import { pageParam, pickOption } from '../lib/params.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const SORTS = [
  ['upcoming', 'Upcoming first'],
  ['start', 'Start, earliest first'],
  ['-start', 'Start, latest first'],
  ['-created', 'Newest bookings first'],
] as const;

/** The export of what the filters match (every page), as the server writes it: a plain link, the browser saves it. */
function exportHref(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value && name !== 'page') params.set(name, value);
  return `/dashboard/api/exports/bookings${params.size ? `?${params.toString()}` : ''}`;
}

const BOOKING_COLUMNS: Column<z.infer<typeof BookingRow>>[] = [
  { label: 'Number', cell: (booking) => <Link href={`/bookings/${booking.id}`}>#{booking.booking_number}</Link> },
  { label: 'Start', cell: (booking) => formatDateTime(booking.start_at, booking.venue.timezone) },
  {
    label: 'Customer',
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
    label: 'Treatment',
    cell: (booking) => (
      <>
        {booking.treatment.name} · {booking.variant.name}
        {booking.guest_count > 1 && ` · ${booking.guest_count} guests`}
      </>
    ),
  },
  { label: 'Venue', cell: (booking) => booking.venue.name },
  { label: 'Status', cell: (booking) => <Badge value={booking.status} /> },
  { label: 'Price', className: 'num', cell: (booking) => formatMoney(booking.total_price) },
];

export function BookingsPage() {
  const me = useMe();
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
    <Layout title="Bookings">
      <form className="filters" aria-label="Filter bookings" onSubmit={submitSearch}>
        <label>
          Venue
          <select value={query.venue ?? ''} onChange={(event) => set({ venue: event.target.value })}>
            <option value="">Every venue</option>
            {me.venues.map((venue) => (
              <option key={venue.id} value={venue.id}>
                {venue.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={query.status ?? ''} onChange={(event) => set({ status: event.target.value })}>
            <option value="">Any status</option>
            {BookingStatus.options.map((status) => (
              <option key={status} value={status}>
                {status.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={query.from ?? ''} onChange={(event) => set({ from: event.target.value })} />
        </label>
        <label>
          To
          <input type="date" value={query.to ?? ''} onChange={(event) => set({ to: event.target.value })} />
        </label>
        <label>
          Order
          <select value={query.sort ?? 'upcoming'} onChange={(event) => set({ sort: event.target.value })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Search
          <input
            type="search"
            placeholder="Customer name, email or external id"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      <p>
        <a href={exportHref(query)} download>
          Export these bookings as CSV
        </a>
      </p>
      <QueryView query={bookings} what="bookings">
        {({ data, pagination }) =>
          data.length === 0 ? (
            <Empty>No bookings match these filters.</Empty>
          ) : (
            <>
              <DataTable caption="Bookings" columns={BOOKING_COLUMNS} rows={data} rowKey={(booking) => booking.id} />
              <Pager pagination={pagination} onPage={(page) => set({ page: String(page) })} />
            </>
          )
        }
      </QueryView>
    </Layout>
  );
}
