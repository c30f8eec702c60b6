#!/usr/bin/env bash
# Installs what the project needs, idempotently: npm packages (when missing or out of date)
# and the real VS Code host (Debian chromium, Node 24, code-server; cached under ~/.cache).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] installing npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
bash scripts/ensure-host.sh >/dev/null
