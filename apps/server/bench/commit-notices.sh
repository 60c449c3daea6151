#!/usr/bin/env bash
# How cache invalidation costs writers on PostgreSQL: the same tiny write transaction at 50 clients under pgbench,
# alone, with a pg_notify inside it, with a change-table row inside it (read four times a second by a listener, as
# the servers read it), and with a pg_notify sent after its commit. Usage: bash bench/commit-notices.sh [seconds]
# (DATABASE_URL: the server; a database of its own is made and dropped).
set -euo pipefail
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
seconds="${1:-10}"
db="spa_notices_$$"
work="$(mktemp -d)"
trap 'psql "$url" -qXc "drop database if exists $db with (force)" >/dev/null; rm -rf "$work"' EXIT
psql "$url" -qXc "create database $db" >/dev/null
target="${url%/*}/$db"
psql "$target" -qX <<'SQL'
create table writes (id bigint generated always as identity primary key, venue_id uuid not null, at timestamptz not null default now());
-- As migration 0016 makes it.
create table changes (xid xid8 not null default pg_current_xact_id(), venue_id uuid not null, primary key (xid, venue_id));
SQL

cat >"$work/alone.sql" <<'SQL'
\set v random(1, 1000)
begin;
insert into writes (venue_id) values (md5(:v::text)::uuid);
commit;
SQL
cat >"$work/notify-inside.sql" <<'SQL'
\set v random(1, 1000)
begin;
insert into writes (venue_id) values (md5(:v::text)::uuid);
select pg_notify('availability_changes', md5(:v::text)::uuid::text);
commit;
SQL
cat >"$work/change-row.sql" <<'SQL'
\set v random(1, 1000)
begin;
insert into writes (venue_id) values (md5(:v::text)::uuid);
insert into changes (venue_id) values (md5(:v::text)::uuid) on conflict do nothing;
commit;
SQL
cat >"$work/notify-after.sql" <<'SQL'
\set v random(1, 1000)
begin;
insert into writes (venue_id) values (md5(:v::text)::uuid);
insert into changes (venue_id) values (md5(:v::text)::uuid) on conflict do nothing;
commit;
select pg_notify('availability_changes', '');
SQL
# The listener's read: what committed since its last snapshot (here: the last 2,000 transactions' rows).
cat >"$work/poll.sql" <<'SQL'
select pg_current_snapshot(), array_agg(distinct venue_id) from changes
  where xid >= ((pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 2000)::text)::xid8;
SQL

run() {
  local name="$1" script="$2" poll="${3:-}"
  local pid=""
  if [[ -n "$poll" ]]; then
    pgbench -n -c 1 -R 4 -T "$seconds" -f "$work/poll.sql" "$target" >/dev/null 2>&1 &
    pid=$!
  fi
  local tps lat
  out="$(pgbench -n -c 50 -j 2 -T "$seconds" -f "$work/$script" "$target" 2>&1)"
  tps="$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")"
  lat="$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")"
  if [[ -n "$pid" ]]; then wait "$pid" || echo "the listener's reads failed" >&2; fi
  printf '%-52s %9.0f tps   %7.2f ms mean\n' "$name" "$tps" "$lat"
}

echo "PostgreSQL $(psql "$target" -tAXc 'show server_version'), $(nproc) cores, 50 clients, ${seconds} s each"
run "write alone" alone.sql
run "write + pg_notify inside the transaction" notify-inside.sql
run "write + change row (listener polling 4/s)" change-row.sql poll
run "write + change row, pg_notify after the commit" notify-after.sql poll
