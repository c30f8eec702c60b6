#!/usr/bin/env bash
# npm start: a real VS Code in the browser, with Agent Workbench loaded and a sample workspace open.
# The sample is a copy of test/fixtures/sample kept under ~/.cache, so what you try there never
# touches the repository; delete that folder to start again from a fresh copy.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
node esbuild.mjs >/dev/null
SAMPLE="${AGENT_WORKBENCH_SAMPLE:-$HOME/.cache/agent-workbench/sample-workspace/sample}"
if [ ! -d "$SAMPLE" ]; then
  mkdir -p "$(dirname "$SAMPLE")"
  cp -R test/fixtures/sample "$SAMPLE"
fi
exec node scripts/vscode-host.mjs start --extension "$PWD" --workspace "$SAMPLE" ${PORT:+--port "$PORT"}
