#!/usr/bin/env bash
# npm run demo: plays a short scripted agent session (scripts/demo/session.ts) inside a real,
# headless VS Code, against a fresh temporary copy of test/fixtures/sample, and prints every call
# and the envelope it answered. Exits non-zero if any envelope is not the one the script expects.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
echo "[demo] compiling (tsc) and bundling (esbuild)" >&2
npx tsc -p . --noEmit false --outDir out
node esbuild.mjs >/dev/null
node scripts/demo/run.mjs
