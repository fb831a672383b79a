#!/usr/bin/env bash
# Runs a command while a CPU burner keeps every core busy, as a busy CI machine would; the burners
# start before the command and end with it, however it ends. Exits with the command's status.
#   bash scripts/under-load.sh bash .ci/run
#   bash scripts/under-load.sh node scripts/repeat.mjs 20 test/client/url-flow.test.ts
# BURNERS=<n> sets how many (default: one a core).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: under-load.sh COMMAND [ARGS...]" >&2; exit 2; }
burners="${BURNERS:-$(nproc)}"
pids=()
stop() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$burners"); do
  yes >/dev/null &
  pids+=($!)
done
echo "under-load: $burners burner(s) running (pids ${pids[*]}); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
status=0
"$@" || status=$?
echo "under-load: done with exit $status; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit "$status"
