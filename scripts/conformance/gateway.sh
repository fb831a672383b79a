#!/usr/bin/env bash
# The official MCP conformance suites through `elicit gateway` (issue 29): the gateway sits between the
# suite and what it tests, and the scores must be those of the direct runs in scripts/conformance.sh
# except for the differences listed below (KNOWN_GATEWAY_FAILURES), each a translation the gateway
# makes or a gap it has.
#
# Servers: `elicit serve conformance --http`, `elicit gateway --http --url <it>` in front of it, and the
#   same four server runs as scripts/conformance.sh (0.1.16 active, 0.2.0-alpha.12 active, 0.2.0-alpha.12
#   --requirements 2026-07-28, the tasks extension scenario by scenario) against the gateway's URL.
# Clients: the client scenarios that are not sign-ins (every version and revision; see
#   scripts/conformance/gateway-clients.ts), each with `elicit gateway --url <scenario server> --ui host`
#   started by scripts/conformance/gateway-client.mjs and the usual `elicit` commands against the gateway.
#
#   bash scripts/conformance/gateway.sh             # both halves, concurrently
#   CONFORMANCE_GATEWAY_PARTS=server bash scripts/conformance/gateway.sh
#
# Needs a built package (npm run build) and the two suite versions scripts/conformance.sh installs (it
# installs them too when missing). Logs in $CONFORMANCE_OUT/gateway (default: a temp dir). Exits non-zero
# when a check fails that KNOWN_GATEWAY_FAILURES does not list, or a listed one passes again.
set -euo pipefail
cd "$(dirname "$0")/../.."

CONF_STABLE=0.1.16
CONF_NEXT=0.2.0-alpha.12
CACHE="${MCP_ELICIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-elicit}"
OUT="${CONFORMANCE_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/mcp-elicit-conformance.XXXXXX")}/gateway"
mkdir -p "$OUT"
export CI="${CI:-true}" NO_COLOR=1 FORCE_COLOR=0 npm_config_yes=true npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
started=$SECONDS
parts="${CONFORMANCE_GATEWAY_PARTS:-server,client}"

if [ ! -f dist/cli/main.js ]; then
  echo "conformance gateway: dist/cli/main.js is missing; run npm run build first" >&2
  exit 2
fi
node22="$(bash scripts/node-major.sh 22)/node"
export PATH="$(dirname "$node22"):$PATH"
suite_cli() { # version -> path of its CLI (installed as scripts/conformance.sh does)
  local dir="$CACHE/conformance-$1" cli
  cli="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  if [ ! -f "$cli" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock --loglevel=error "@modelcontextprotocol/conformance@$1" >&2
  fi
  echo "$cli"
}
stable_cli="$(suite_cli "$CONF_STABLE")"
next_cli="$(suite_cli "$CONF_NEXT")"

# --- what differs through the gateway: "scenario:check-id  reason" (scripts/conformance-verdict.ts). The
# gateway serves each host at the host's revision where the server has it (--protocol auto: a 2025
# host of the active suites over a 2025-11-25 connection, a 2026-07-28 host over a 2026-07-28 one), so
# the active suites pass whole through it, as they do pinned to 2025-11-25. What remains is the gateway's
# own page: it answers what its host did not declare. ---
KNOWN_GATEWAY_FAILURES='
server-stateless:scenario-timeout  test_missing_capability needs sampling, which the host did not declare; the gateway declares it to the server and asks its own page instead of failing -32021, and nobody answers there, so the scenario times out at 30 s
'
KNOWN_GATEWAY_CLIENT_FAILURES='
sep-2322-client-request-state:elicit-*  as without the gateway (scripts/conformance.sh), the MCP SDK 2.4 client (the gateway'"'"'s) rejects the result without resultType; the gateway answers -32603, so elicit call test_mrtr_no_result_type exits 1 (2 without the gateway)
'

# Starts a process in the background with its stderr in LOG and waits for a line matching SED (a sed
# expression printing the port); sets $bg_pid and $bg_port.
bg_start() { # log sed cmd...
  local log=$1 expr=$2
  shift 2
  "$@" 2>"$log" &
  bg_pid=$!
  bg_port=""
  for _ in $(seq 300); do
    bg_port="$(sed -n "$expr" "$log" | head -n1)"
    [ -n "$bg_port" ] && return 0
    kill -0 "$bg_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "conformance gateway: did not start: $*" >&2
  cat "$log" >&2
  return 1
}
stop() { # pid
  kill -0 "$1" 2>/dev/null || return 0
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
}
pids=()
trap 'for p in "${pids[@]}"; do stop "$p"; done' EXIT

server_part() {
  local failed=0 mine=()
  bg_start "$OUT/server.log" 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p' \
    node dist/cli/main.js serve conformance --http 127.0.0.1:0
  pids+=("$bg_pid") mine+=("$bg_pid")
  local server_url="http://localhost:$bg_port/mcp"
  # Two gateways in front of it: as a person starts it (--protocol auto: the gateway speaks each host's
  # revision to this server), and pinned to 2025-11-25, the revision of the active suites.
  # --no-browser: the gateway's page (for what its host cannot answer) only has its address printed.
  local served='s|.*served to hosts at http://127\.0\.0\.1:\([0-9]*\)/mcp.*|\1|p'
  bg_start "$OUT/gateway.log" "$served" node dist/cli/main.js gateway --http 127.0.0.1:0 --no-browser --url "$server_url"
  pids+=("$bg_pid") mine+=("$bg_pid")
  local url="http://localhost:$bg_port/mcp" # localhost: the DNS-rebinding scenario needs a localhost Host header
  bg_start "$OUT/gateway-2025.log" "$served" node dist/cli/main.js gateway --http 127.0.0.1:0 --no-browser --protocol 2025-11-25 --url "$server_url"
  pids+=("$bg_pid") mine+=("$bg_pid")
  local url_2025="http://localhost:$bg_port/mcp"
  echo "conformance gateway: $(grep -o 'elicit gateway: .* served to hosts at [^ ]*' "$OUT/gateway.log") in front of $server_url" >&2

  run_suite() { # label url cli name args...
    local label=$1 at=$2 cli=$3 name=$4
    shift 4
    local log="$OUT/$name.log" results="$OUT/$name" rc=0
    rm -rf "$results"
    timeout 600 "$node22" "$cli" server --url "$at" -o "$results" "$@" >"$log" 2>&1 || rc=$?
    KNOWN_FAILURES="$KNOWN_GATEWAY_FAILURES" "$node22" --import tsx scripts/conformance-verdict.ts server "$label" "$log" "$results" "$rc" || failed=1
  }
  run_suite "gateway: conformance $CONF_STABLE active suite" "$url" "$stable_cli" stable-active
  run_suite "gateway: conformance $CONF_NEXT active suite" "$url" "$next_cli" next-active
  run_suite "gateway: conformance $CONF_NEXT requirements 2026-07-28" "$url" "$next_cli" next-2026-07-28 --requirements 2026-07-28
  KNOWN_GATEWAY_FAILURES="" run_suite "gateway --protocol 2025-11-25: conformance $CONF_STABLE active suite" "$url_2025" "$stable_cli" stable-active-2025
  KNOWN_GATEWAY_FAILURES="" run_suite "gateway --protocol 2025-11-25: conformance $CONF_NEXT active suite" "$url_2025" "$next_cli" next-active-2025
  # The tasks extension: the gateway follows a call that becomes a task itself and does not show the
  # extension to its host, so these scenarios test what the gateway does not offer, and mostly fail
  # (docs/conformance.md has what they do). The requirements run above runs them unscored; this scored
  # pass, some 90 s, only with CONFORMANCE_GATEWAY_TASKS=1.
  if [ "${CONFORMANCE_GATEWAY_TASKS:-0}" = 1 ]; then
    local tasks_log="$OUT/next-tasks.log" tasks_results="$OUT/next-tasks" tasks_rc=0
    rm -rf "$tasks_results" "$tasks_log"
    for scenario in $("$node22" "$next_cli" list 2>/dev/null | sed -n 's/^ *- \(tasks-[a-z0-9-]*\) .*/\1/p'); do
      timeout 300 "$node22" "$next_cli" server --url "$url" --scenario "$scenario" -o "$tasks_results" >>"$tasks_log" 2>&1 || tasks_rc=$?
    done
    KNOWN_FAILURES="" "$node22" --import tsx scripts/conformance-verdict.ts server "gateway: conformance $CONF_NEXT tasks extension" "$tasks_log" "$tasks_results" "$tasks_rc" || true
  fi
  for p in "${mine[@]}"; do stop "$p"; done
  return "$failed"
}

# The client scenarios of the newest suite (every revision); 0.1.16's, mostly the same scenarios again,
# with CONFORMANCE_GATEWAY_CLIENTS=all (they double the step's time on a 2-core machine).
client_part() {
  local versions=("$CONF_NEXT=$next_cli")
  [ "${CONFORMANCE_GATEWAY_CLIENTS:-}" = all ] && versions=("$CONF_STABLE=$stable_cli" "${versions[@]}")
  KNOWN_CLIENT_FAILURES="$KNOWN_GATEWAY_CLIENT_FAILURES" "$node22" --import tsx scripts/conformance/gateway-clients.ts "$OUT" "${versions[@]}"
}

failed=0
server_rc=0 client_rc=0
if [[ ",$parts," == *",client,"* ]]; then
  client_part >"$OUT/client.out" 2>"$OUT/client.err" &
  client_pid=$!
  pids+=("$client_pid")
fi
if [[ ",$parts," == *",server,"* ]]; then
  server_part || server_rc=$?
fi
if [[ ",$parts," == *",client,"* ]]; then
  wait "$client_pid" || client_rc=$?
  cat "$OUT/client.out"
fi
[ "$server_rc" -eq 0 ] && [ "$client_rc" -eq 0 ] || failed=1
echo "conformance gateway: done in $((SECONDS - started)) s; logs in $OUT" >&2
exit "$failed"
