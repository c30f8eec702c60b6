#!/usr/bin/env bash
# The whole test run: lint, type check, generated-file drift, unit tests, then the integration
# suites inside a real VS Code (see scripts/integration.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "setup"; bash scripts/setup.sh
step "lint"; npx eslint
step "type check"; npx tsc --noEmit -p .
step "compile tests"; npx tsc -p . --noEmit false --outDir out
step "generated files match the definitions"; node out/scripts/gen.js --check
step "unit tests"; npx mocha --config .mocharc.json
step "bundle"; node esbuild.mjs
step "integration tests in a real VS Code"; node scripts/integration.mjs "$@"
