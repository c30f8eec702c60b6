#!/usr/bin/env bash
# The whole test run: lint, type check, generated-file drift, unit tests, the integration suites
# inside a real VS Code (scripts/integration.mjs), then the README's other commands as a person
# runs them: npm start, npm run demo and npm run package.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=()
last_step=""
last_start=$SECONDS
step() {
  [ -n "$last_step" ] && timings+=("$(printf '%5d s  %s' $((SECONDS - last_start)) "$last_step")")
  last_step="$*"; last_start=$SECONDS
  printf '\n=== %s\n' "$*"
}

step "setup"; bash scripts/setup.sh
step "lint"; npx eslint
step "format (prettier --check)"; npm run --silent format:check
step "type check"; npx tsc --noEmit -p .
step "compile tests"; npx tsc -p . --noEmit false --outDir out
step "generated files match the definitions"; node out/scripts/gen.js --check
# Bundled before the unit tests: one of them runs the checker's worker as bundled (dist/check-worker.js).
step "bundle"; node esbuild.mjs
step "unit tests"; npx mocha --config .mocharc.json
step "integration tests in a real VS Code"; node scripts/integration.mjs "$@"
step "review panel in the browser (clicks, keyboard, forged messages, screenshots)"; node scripts/panel-test.mjs
step "the MCP door in real windows in the browser (the commit modal, two windows and the stdio bridge, cancel, trust)"; node scripts/mcp-browser-test.mjs
step "Copilot's agent mode runs the tools in the real chat view (scripted model, confirmations clicked)"; node scripts/copilot-test.mjs
step "the packaged .vsix installed as a person installs it: the Extensions view, its icon and changelog, the walkthrough"; node scripts/first-use-test.mjs
step "npm start serves the workbench with the extension active"; node scripts/smoke-start.mjs
step "npm run demo plays its session with every envelope as expected"; node scripts/demo/run.mjs
step "npm run package builds a clean .vsix"; node scripts/check-package.mjs
node esbuild.mjs >/dev/null
step "done"
printf '\n=== time per step\n'; printf '%s\n' "${timings[@]}"
