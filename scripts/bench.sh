#!/usr/bin/env bash
# npm run bench: bundle size, activation time, per-call overhead of the tool framework, the
# language-service call and VS Code's own agent tools side by side, and extension host memory,
# measured in a real headless VS Code (bench/run.mjs + bench/inHost.ts). Prints a Markdown table
# and writes bench/results/latest.json. Not a test: npm test never runs it.
# Options are passed on: npm run bench -- --iterations 300 --warmup 30
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
echo "[bench] compiling (tsc)" >&2
npx tsc -p . --noEmit false --outDir out
exec node bench/run.mjs "$@"
