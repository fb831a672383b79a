#!/usr/bin/env bash
# Runs a command as on a machine without Chromium, redis-server and HAProxy, without uninstalling them:
# in a private mount namespace (root, util-linux's unshare), /dev/null is bound over every place the
# finder (src/cli/find-program.ts) would find them, so the command sees them missing and nothing else
# changes. CI is unset, so a test that needs one is skipped with its reason, not failed.
#   bash scripts/without-programs.sh npm test
# PROGRAMS="chromium haproxy" hides only those.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: without-programs.sh COMMAND [ARGS...]" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
if [ "${WITHOUT_PROGRAMS_INSIDE:-}" != 1 ]; then
  command -v unshare >/dev/null || { echo "without-programs: needs unshare (apt-get install util-linux)" >&2; exit 2; }
  exec unshare --mount --propagation private env WITHOUT_PROGRAMS_INSIDE=1 bash "$here/without-programs.sh" "$@"
fi
names="${PROGRAMS:-chromium redis-server haproxy}"
for name in $names; do
  # Every path the finder could return for this program, from its own list and the PATH.
  paths=$(node --import tsx -e '
    const { PROGRAMS } = await import(process.argv[1]);
    const { commands, places } = PROGRAMS[process.argv[2]];
    const dirs = (process.env.PATH ?? "").split(":").filter(Boolean);
    console.log([...places, ...commands.flatMap((c) => dirs.map((d) => `${d}/${c}`))].join("\n"));
  ' "$here/../src/cli/find-program.ts" "$name")
  for path in $paths; do
    if [ -f "$path" ]; then mount --bind /dev/null "$path"; fi
  done
  unset "ELICIT_$(echo "$name" | tr 'a-z-' 'A-Z_')"
done
unset CI
echo "without-programs: hidden $names" >&2
node --import tsx "$here/find-programs.ts" >&2 || true
exec "$@"
