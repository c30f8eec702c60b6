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

node --input-type=module -e '
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.cwd();
const { runExtensionTests } = await import(pathToFileURL(path.join(root, "scripts", "vscode-host.mjs")).href);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "aw-demo-"));
const workspace = path.join(scratch, "sample");
fs.cpSync(path.join(root, "test", "fixtures", "sample"), workspace, { recursive: true });
console.log(`[demo] VS Code with Agent Workbench on a fresh copy of test/fixtures/sample: ${workspace}`);
let code = 1;
try {
  code = await runExtensionTests({
    extensionPath: root,
    testsPath: path.join(root, "out", "scripts", "demo", "session.js"),
    workspace,
    trusted: true,
    // The session reads buffers; nothing may be saved behind its back.
    userSettings: { "files.autoSave": "off" },
  });
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
console.log(code === 0 ? "[demo] passed" : `[demo] FAILED (exit ${code})`);
process.exit(code === 0 ? 0 : 1);
'
