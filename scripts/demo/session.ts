// A short scripted agent session, played inside a real VS Code by `npm run demo` (scripts/demo.sh).
// Each step calls a tool the way an agent does (vscode.lm.invokeTool), prints the call and the
// envelope it got back, and checks that the envelope is the one the script expects: run() rejects,
// so the demo exits non-zero, as soon as one is not. This keeps the demo from rotting silently.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope, FailureEnvelope, SuccessEnvelope } from '../../src/core/chain/envelope';
import { readSymbol } from '../../src/core/symbols/symbols';
import { decodeLines, lineReferences } from '../../src/tools/references';
import { readSearch } from '../../src/tools/search';
import type { SearchData } from '../../src/tools/search';
import { readCalls } from '../../src/tools/calls';
import type { CallsData } from '../../src/tools/calls';
import type { ReferenceDocument } from '../../src/tools/references';
import type { AgentWorkbenchApi } from '../../src/extension';
import { waitForDocumentSymbols } from '../in-host/languageService';

const EXTENSION_ID = 'agent-workbench.agent-workbench';

/** What a step expects back: success, or a failure with this code. */
type Expectation = 'ok' | string;

interface Step {
  /** What the agent is trying to learn, in its own words. */
  intent: string;
  tool: string;
  input: () => Record<string, unknown>;
  expect: Expectation;
  /** Further checks on the envelope; return a problem to fail the demo. */
  check?: (envelope: Envelope) => string | undefined;
  /** Runs after the step passed, to carry something into the following steps. */
  after?: (envelope: Envelope) => void;
}

// --- printing --------------------------------------------------------------------------------

const STRING_MAX = 400;
const TEXT_LINES_MAX = 8;
const ARRAY_MAX = 4;
const INLINE_WIDTH = 110;
const SAME_SNAPSHOT = "(same as the envelope's snapshot)";

/**
 * A copy of an envelope with long strings and arrays shortened, saying how much was left out.
 * Nested snapshots equal to the envelope's own are replaced by a note: they repeat in every location.
 */
export function abbreviate(value: unknown, snapshot?: unknown): unknown {
  const top = snapshot ?? (value && typeof value === 'object' && 'snapshot' in value ? JSON.stringify(value.snapshot) : undefined);
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      const lines = v.split('\n');
      if (lines.length > TEXT_LINES_MAX) return `${lines.slice(0, TEXT_LINES_MAX).join('\n')}\n… (+${lines.length - TEXT_LINES_MAX} more lines)`;
      return v.length > STRING_MAX ? `${v.slice(0, STRING_MAX)}… (+${v.length - STRING_MAX} chars)` : v;
    }
    if (Array.isArray(v)) {
      const shown = v.slice(0, ARRAY_MAX).map((x) => walk(x, depth + 1));
      return v.length > ARRAY_MAX ? [...shown, `… (+${v.length - ARRAY_MAX} more items)`] : shown;
    }
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          depth > 0 && k === 'snapshot' && top !== undefined && JSON.stringify(x) === top ? SAME_SNAPSHOT : walk(x, depth + 1),
        ]),
      );
    }
    return v;
  };
  return walk(value, 0);
}

/** Pretty JSON that keeps small objects and arrays on one line. */
export function prettyJson(value: unknown, indent = ''): string {
  const compact = JSON.stringify(value);
  if (value === null || typeof value !== 'object' || indent.length + compact.length <= INLINE_WIDTH) return compact;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + prettyJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

/** For get-code-context: the code window as numbered lines, easier to read than its JSON string. */
function codeWindow(envelope: Envelope): string {
  const w = envelope.ok ? ((envelope.data as { window?: { startLine: number; text: string } }).window ?? undefined) : undefined;
  if (!w) return '';
  const lines = w.text.split(/\r?\n/);
  const width = String(w.startLine + lines.length - 1).length;
  return `\n  window.text, as lines:\n${lines.map((l, i) => `  ${String(w.startLine + i).padStart(width)} │ ${l}`).join('\n')}`;
}

const rule = (title: string): string => `\n━━ ${title} ${'━'.repeat(Math.max(3, 96 - title.length))}`;

// --- calling ---------------------------------------------------------------------------------

async function call(tool: string, input: unknown): Promise<{ envelope: Envelope; ms: number }> {
  const started = performance.now();
  const result = await vscode.lm.invokeTool(registeredToolName(tool), { input: input as object, toolInvocationToken: undefined });
  const ms = performance.now() - started;
  if (result.content.length !== 1 || !(result.content[0] instanceof vscode.LanguageModelTextPart)) {
    throw new Error(`${tool} did not answer one text part (got ${result.content.length} parts)`);
  }
  return { envelope: JSON.parse(result.content[0].value) as Envelope, ms };
}

function outcome(envelope: Envelope): string {
  return envelope.ok ? 'ok' : envelope.error.code;
}

// --- the session -----------------------------------------------------------------------------

type Data = Record<string, unknown>;
const data = (e: Envelope): Data => (e as SuccessEnvelope<Data>).data;
const items = (collection: unknown): Data[] => (collection as { items?: Data[] } | undefined)?.items ?? [];
/** A find-references document's lines, read back from its rows. */
const linesOf = (d: Data) => decodeLines(d as unknown as ReferenceDocument);

/** Canonical span selectors quoted in a LocationAmbiguous message ("Candidates: line 2 column 3 {"span":…}; …"). */
export function candidateSelectors(message: string): { span: { document: { documentId: string }; range: { start: number; length: number } } }[] {
  const found = [];
  for (const m of message.matchAll(/\{"span":\{"document":\{"documentId":"(?:[^"\\]|\\.)*"\},"range":\{"start":\d+,"length":\d+\}\}\}/g)) {
    found.push(JSON.parse(m[0]) as { span: { document: { documentId: string }; range: { start: number; length: number } } });
  }
  return found;
}

/** Checks fields of the transaction state a transaction tool answers. */
function expectState(e: Envelope, expected: Record<string, unknown>): string | undefined {
  const state = data(e).transaction as Data | undefined;
  const wrong = Object.entries(expected).filter(([k, v]) => state?.[k] !== v);
  return wrong.length === 0 ? undefined : `expected transaction ${JSON.stringify(expected)}, got ${JSON.stringify(state)}`;
}

function sessionSteps(): Step[] {
  let ambiguous: FailureEnvelope | undefined;
  let retryFrom: ReturnType<typeof candidateSelectors>[number] | undefined;
  let greetAll: Data | undefined;
  let caller: Data | undefined;
  const symbolOf = (s: Data | undefined, step: string) => {
    if (!s) throw new Error(`no symbol was carried over from the ${step} step`);
    return { symbolId: s.symbolId };
  };
  return [
    {
      intent: 'Which folders are open, and what do I call them?',
      tool: 'workspace-list',
      input: () => ({}),
      expect: 'ok',
      check: (e) => (items(data(e).workspaces).length === 1 ? undefined : 'expected exactly one workspace folder'),
    },
    {
      intent: 'What is in this folder: projects, languages, unsaved files, mode?',
      tool: 'workspace-status',
      input: () => ({ projectsLimit: 10, languagesLimit: 5 }),
      expect: 'ok',
      check: (e) => (items(data(e).projects).some((p) => p.path === 'tsconfig.json') ? undefined : 'tsconfig.json is not among the projects'),
    },
    {
      intent: 'Which language features answer here, so I know which semantic tools will work?',
      tool: 'get-solution-structure',
      input: () => ({}),
      expect: 'ok',
    },
    {
      intent: 'Read the TypeScript project: its tsconfig and its documents.',
      tool: 'get-project-details',
      input: () => ({ project: { path: 'tsconfig.json' }, documentsLimit: 10 }),
      expect: 'ok',
      check: (e) =>
        items(data(e).documents).some((d) => d.path === 'src/greeter.ts') ? undefined : 'src/greeter.ts is not a document of the tsconfig project',
    },
    {
      intent: 'Read the code around greet() and see what encloses it.',
      tool: 'get-code-context',
      input: () => ({ location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: 'greet(name: string)' } }, contextLines: 3 }),
      expect: 'ok',
      check: (e) => {
        const names = (data(e).enclosingSymbols as Data[]).map((s) => s.name).join(' > ');
        return names === 'Greeter > greet' ? undefined : `expected enclosing symbols Greeter > greet, got "${names}"`;
      },
    },
    {
      intent: 'Look at "return 1;" in repeated.ts (it occurs twice, so the tool should ask which one).',
      tool: 'get-code-context',
      input: () => ({ location: { selection: { document: { path: 'src/repeated.ts' }, selectedText: 'return 1;' } }, contextLines: 1 }),
      expect: 'LocationAmbiguous',
      check: (e) => {
        const found = candidateSelectors((e as FailureEnvelope).error.message);
        return found.length === 2 ? undefined : `expected two candidate selectors in the message, found ${found.length}`;
      },
      after: (e) => {
        ambiguous = e as FailureEnvelope;
        retryFrom = candidateSelectors(ambiguous.error.message)[1];
      },
    },
    {
      intent: 'Retry with the second candidate selector the error listed.',
      tool: 'get-code-context',
      input: () => {
        if (!retryFrom) throw new Error('no candidate selector was carried over from the LocationAmbiguous step');
        return { location: retryFrom, contextLines: 1 };
      },
      expect: 'ok',
      check: (e) => {
        const names = (data(e).enclosingSymbols as Data[]).map((s) => s.name).join(' > ');
        return names === 'second' ? undefined : `expected the candidate to lie in second(), got "${names}"`;
      },
    },
    {
      intent: 'Peek at a file in a sibling folder (outside the workspace: refused).',
      tool: 'get-code-context',
      input: () => ({ location: { selection: { document: { path: '../other-project/src/secrets.ts' }, selectedText: 'token' } } }),
      expect: 'WorkspacePathNotAllowed',
    },
    {
      intent: 'What exactly went wrong with the ambiguous selection? Ask by its correlationId.',
      tool: 'get-error-details',
      input: () => {
        if (!ambiguous) throw new Error('no failure was carried over from the LocationAmbiguous step');
        return { correlationId: ambiguous.error.correlationId };
      },
      expect: 'ok',
      check: (e) => (data(e).code === 'LocationAmbiguous' ? undefined : `expected the stored LocationAmbiguous record, got ${String(data(e).code)}`),
    },
    {
      intent: 'Navigation: where is greetAll declared? Search the workspace symbols by name.',
      tool: 'search-symbols',
      input: () => ({ query: 'greetAll', symbolsLimit: 5 }),
      expect: 'ok',
      check: (e) => {
        // A row [ref, line, column]: the symbolId ("<folderId>:" + ref) says the kind and name ("…#Function:greetAll").
        const first = readSearch(data(e) as unknown as SearchData)[0];
        const read = first ? readSymbol(first) : undefined;
        return read?.name === 'greetAll' && read.kind === 'Function' && first.line === 23
          ? undefined
          : `expected Function greetAll at line 23 first, got ${JSON.stringify(first)}`;
      },
      after: (e) => (greetAll = readSearch(data(e) as unknown as SearchData)[0] as unknown as Data),
    },
    {
      intent: 'Who uses greetAll? Its references, by its symbolId.',
      tool: 'find-references',
      input: () => ({ symbol: symbolOf(greetAll, 'search-symbols') }),
      expect: 'ok',
      check: (e) => {
        const docs = items(data(e).documents).map(
          (d) =>
            `${String(d.path)}:${linesOf(d)
              .flatMap((l) => lineReferences(l).map(() => l.line))
              .join(',')}`,
        );
        const expected = ['src/greeter.ts:23', 'src/services.ts:1,18'];
        return JSON.stringify(docs) === JSON.stringify(expected) && data(e).totalReferences === 3
          ? undefined
          : `expected references ${expected.join(' ')} (3), got ${docs.join(' ')} (${String(data(e).totalReferences)})`;
      },
    },
    {
      intent: 'Which functions call greetAll? (Its callers, not every mention.)',
      tool: 'find-callers',
      input: () => ({ symbol: symbolOf(greetAll, 'search-symbols') }),
      expect: 'ok',
      check: (e) => {
        // Each caller is a row [ref, line, column] under the answer's folderId: readCalls makes its symbol whole.
        const calls = readCalls(data(e) as unknown as CallsData).items.map(
          (c) =>
            `${String(readSymbol(c.symbol as { symbolId: string }).containerName)}.${readSymbol(c.symbol as { symbolId: string }).name}@${c.callSites.map((s) => s[0]).join(',')}`,
        );
        return JSON.stringify(calls) === JSON.stringify(['WelcomeService.welcomeAll@18'])
          ? undefined
          : `expected the caller WelcomeService.welcomeAll (call at line 18), got ${calls.join(' ')}`;
      },
      after: (e) => (caller = readCalls(data(e) as unknown as CallsData).items[0]?.symbol as unknown as Data | undefined),
    },
    {
      intent: "How is the caller's class configured? The decorators on WelcomeService, with their arguments.",
      tool: 'get-symbol-attributes',
      input: () => {
        if (!caller || typeof caller.symbolId !== 'string') throw new Error('no caller was carried over from the find-callers step');
        // The caller's symbolId names its document: "<folderId>:<path>#...".
        const documentId = caller.symbolId.slice(0, caller.symbolId.lastIndexOf('#'));
        return {
          symbol: { location: { selection: { document: { documentId }, selectedText: String(readSymbol(caller as { symbolId: string }).containerName) } } },
        };
      },
      expect: 'ok',
      check: (e) => {
        const [attribute, ...rest] = items(data(e).attributes);
        const brief = attribute && {
          name: attribute.name,
          type: (attribute.type as Data | null)?.kind,
          positional: (attribute.constructorArguments as Data[]).map((a) => a.value),
          named: (attribute.namedArguments as Data[]).map((a) => `${String(a.name)}=${String(a.value)}`),
        };
        const expected = { name: 'service', type: 'Function', positional: ["'welcome'"], named: ['singleton=true'] };
        return rest.length === 0 && JSON.stringify(brief) === JSON.stringify(expected)
          ? undefined
          : `expected @service('welcome', { singleton: true }), got ${JSON.stringify(items(data(e).attributes))}`;
      },
    },
    {
      intent: 'Change code, safely: open a transaction (start, rename, edit, preview, undo, redo, commit).',
      tool: 'transaction-start',
      input: () => ({}),
      expect: 'ok',
      check: (e) => expectState(e, { revision: 0, canCommit: false }),
    },
    {
      intent: 'Rename formatName to formatPersonName everywhere (staged, nothing written yet).',
      tool: 'rename-symbol',
      input: () => ({ symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } } }, newName: 'formatPersonName' }),
      expect: 'ok',
      check: (e) => {
        const paths = items(data(e).documents)
          .map((d) => String(d.path))
          .sort();
        return JSON.stringify(paths) === JSON.stringify(['src/greeter.ts', 'src/util.ts'])
          ? expectState(e, { revision: 1, canCommit: true })
          : `expected the rename to touch src/greeter.ts and src/util.ts, got ${paths.join(', ')}`;
      },
    },
    {
      intent: "Also change the greeting's language tag, by selection, in the staged text.",
      tool: 'edit-text',
      input: () => ({
        edits: [{ location: { selection: { document: { path: 'src/greeter.ts' }, selectedText: "language: 'en'" } }, newText: "language: 'en-GB'" }],
      }),
      expect: 'ok',
      check: (e) => expectState(e, { revision: 2 }),
    },
    {
      intent: 'Review: what would be written to src/greeter.ts?',
      tool: 'transaction-preview',
      input: () => ({ document: { path: 'src/greeter.ts' }, includeDiff: true, contextLines: 1 }),
      expect: 'ok',
      check: (e) => {
        const text = JSON.stringify(data(e));
        return text.includes('+import { formatPersonName }') && text.includes("language: 'en-GB'")
          ? undefined
          : 'expected hunks with the renamed import and the new language tag';
      },
    },
    {
      intent: 'Where is the renamed function used, in the staged text? find-references with view "staged" (the language service still sees formatName).',
      tool: 'find-references',
      input: () => ({ symbol: { location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatPersonName' } } }, view: 'staged' }),
      expect: 'ok',
      check: (e) => {
        // An import line comes without its text.
        const lines = items(data(e).documents).flatMap((d) =>
          linesOf(d).map((l) => ({
            path: String(d.path),
            text: l.text,
            at: lineReferences(l),
            edited: l.edited,
          })),
        );
        const bad = lines.filter((l) => (l.text !== undefined && !l.text.includes('formatPersonName')) || JSON.stringify(l.edited) !== JSON.stringify(l.at));
        return lines.length > 0 && bad.length === 0
          ? undefined
          : `expected every reference on a staged line naming formatPersonName, marked edited; got ${JSON.stringify(lines)}`;
      },
    },
    {
      intent: 'On second thought, take the language change back.',
      tool: 'transaction-history',
      input: () => ({ action: 'undo' }),
      expect: 'ok',
      check: (e) => expectState(e, { revision: 1, canRedo: true }),
    },
    {
      intent: 'No, keep it after all: redo.',
      tool: 'transaction-history',
      input: () => ({ action: 'redo' }),
      expect: 'ok',
      check: (e) => expectState(e, { revision: 2, canRedo: false }),
    },
    {
      intent: 'Commit: the person confirms, then both revisions are written, checked byte for byte.',
      tool: 'transaction-commit',
      input: () => ({}),
      expect: 'ok',
      check: (e) => {
        const written = items(data(e).files)
          .map((f) => String(f.path))
          .sort();
        const onDisk = fs.readFileSync(path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', 'src', 'greeter.ts'), 'utf8');
        if (JSON.stringify(written) !== JSON.stringify(['src/greeter.ts', 'src/util.ts'])) return `expected both files written, got ${written.join(', ')}`;
        return onDisk.includes('formatPersonName(name)') && onDisk.includes("language: 'en-GB'")
          ? undefined
          : 'src/greeter.ts on disk does not hold the staged text';
      },
    },
    {
      intent: 'Finally: mode, trust, version, and how many failures this session recorded.',
      tool: 'server-status',
      input: () => ({}),
      expect: 'ok',
      check: (e) => ((data(e).recordedFailures as number) >= 2 ? undefined : `expected at least 2 recorded failures, got ${String(data(e).recordedFailures)}`),
    },
  ];
}

/** Entry point the extension host loads (extensionTestsPath). Rejects when an envelope is not the expected one. */
export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the demo needs the sample folder open');
  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  const waited = await waitForDocumentSymbols(vscode.Uri.file(path.join(folder.uri.fsPath, 'src', 'greeter.ts')));
  console.log(
    `\nAgent Workbench ${api.version} in VS Code ${vscode.version}: ${api.toolNames.length} tools, workspace ${folder.uri.fsPath}\n` +
      `(TypeScript server answered document symbols after ${waited} ms; every call below goes through vscode.lm.invokeTool)`,
  );

  const steps = sessionSteps();
  const problems: string[] = [];
  for (const [i, step] of steps.entries()) {
    const input = step.input();
    const { envelope, ms } = await call(step.tool, input);
    const got = outcome(envelope);
    const problem = got !== step.expect ? `expected ${step.expect}, got ${got}` : step.check?.(envelope);
    const verdict = problem ? `✗ ${problem}` : `✓ ${step.expect === 'ok' ? 'ok, as expected' : `${got}, as expected`}`;
    console.log(
      `${rule(`${i + 1}/${steps.length} ${step.tool}`)}\n` +
        `# ${step.intent}\n` +
        `→ ${step.tool} ${JSON.stringify(input)}\n` +
        `← ${got} in ${ms.toFixed(1)} ms  ${verdict}\n` +
        prettyJson(abbreviate(envelope)) +
        codeWindow(envelope),
    );
    if (problem) {
      problems.push(`step ${i + 1} (${step.tool}): ${problem}`);
      break; // later steps build on this one
    }
    step.after?.(envelope);
  }

  const summary = problems.length === 0 ? `\nDemo passed: ${steps.length} calls, every envelope as expected.` : `\nDemo FAILED: ${problems.join('; ')}`;
  console.log(summary);
  // Let the last log lines reach the runner before the host is told to exit.
  await new Promise((r) => setTimeout(r, 500));
  if (problems.length > 0) throw new Error(problems.join('; '));
}
