#!/usr/bin/env bash
# Runs a command while busy loops hold every core, the way a loaded machine would, to prove it does not depend on
# timing: `bash scripts/busy-loops.sh [--loops N] [--times T] -- pnpm test` starts N loops (default: one per core),
# runs the command T times in a row (default 1), stopping at the first failure, and ends the loops however it ends.
# Prints each run's exit code and wall time; exits with the first failing run's code, else 0.
set -euo pipefail

loops="$(nproc)"
times=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --loops) loops="$2"; shift 2 ;;
    --times) times="$2"; shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if [[ $# -eq 0 ]]; then
  echo "usage: $0 [--loops N] [--times T] -- command [args...]" >&2
  exit 2
fi

pids=()
stop_loops() { [[ ${#pids[@]} -gt 0 ]] && kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null || true; }
trap stop_loops EXIT
for _ in $(seq 1 "$loops"); do
  # Plain CPU work at normal priority: the command competes for every core as it would with other tenants.
  bash -c 'while :; do :; done' &
  pids+=($!)
done
echo "busy-loops: $loops busy loops running ($(nproc) cores); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

for run in $(seq 1 "$times"); do
  started=$SECONDS
  status=0
  "$@" || status=$?
  echo "busy-loops: run $run of $times: exit $status in $((SECONDS - started)) s (load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  [[ $status -eq 0 ]] || exit "$status"
done
