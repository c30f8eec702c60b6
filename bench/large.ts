// The part of `npm run bench` that runs inside a real VS Code opened on a generated TypeScript
// workspace (scripts/synthetic-workspace.mjs, 1,000 modules): navigation tools against the raw
// language-service commands they wrap and against VS Code's own agent tools; the cold start of
// find-references; a rename of a class with 5,000 references staged, previewed and committed,
// against the raw rename provider plus applyEdit and save, and beside vscode_renameSymbol; and the
// extension host's memory for 20 staged revisions of such renames. Writes JSON to $AW_BENCH_OUT.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AnyToolDefinition } from '../src/core/chain/definition';
import type { Envelope } from '../src/core/chain/envelope';
import type { AgentWorkbenchApi } from '../src/extension';
import { ALL_TOOLS } from '../src/tools';
import { referencesListed } from '../src/tools/references';
import type { ReferencesData } from '../src/tools/references';
import { waitForDocumentSymbols } from '../scripts/in-host/languageService';
import {
  benchRuntime,
  envelopeProblem,
  gcFunction,
  invokeLm,
  measureGroup,
  memoryAfterGc,
  overheadVariants,
  short,
  failureRecorder,
  renameRows,
} from './inHost';
import type { Memory, Row, Variant } from './inHost';

interface Synthetic {
  files: number;
  entityReferences: number;
  entityPath: string;
  channelPath: string;
  channelReferences: number;
  channelFiles: number;
  hubs: number;
  hubReferences: number;
}

export interface ColdStart {
  /** From the start of the bench (the window just opened) to the first document symbols. */
  typescriptReadyMs: number;
  rawFirst: { atMs: number; count: number };
  rawComplete: { atMs: number; count: number; probes: number } | null;
  toolFirst: { atMs: number; count: number; complete: boolean | null; durationMs: number };
  expected: number;
}

export interface LargeResult {
  synthetic: Synthetic;
  coldStart: ColdStart;
  rows: Row[];
  usages: {
    expected: number;
    ours: { found: number; bytes: number; bytesPerReference: number };
    vscode: { found: number; bytes: number; bytesPerReference: number; sample: string } | null;
    grep: { lines: number; bytes: number; bytesPerLine: number; notReferences: number };
  };
  rename: { references: number; files: number; stagedDocuments: number | null };
  memory: { gcForced: boolean; before: Memory; afterStaging: Memory; afterRollback: Memory; revisions: number; editsPerRevision: number };
}

const tool = (name: string): AnyToolDefinition => {
  const t = ALL_TOOLS.find((d) => d.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};

const parse = (text: string): Envelope => JSON.parse(text) as Envelope;

function dataOf<T>(text: string): T {
  const e = parse(text);
  if (!e.ok) throw new Error(`${e.error.code}: ${e.error.message}`);
  return e.data as T;
}

/** References listed: each is one offset in a line's at, write, decl or import list. */
function referenceCount(data: ReferencesData): number {
  return referencesListed(data);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<void> {
  try {
    await measure();
  } catch (error) {
    // Said here too: the runner only sees the exit code, and the host may be too busy to report the rejection.
    console.error(`[bench:large] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  }
}

async function measure(): Promise<void> {
  const out = process.env.AW_BENCH_OUT;
  const synthetic = JSON.parse(process.env.AW_BENCH_SYNTHETIC ?? 'null') as Synthetic | null;
  if (!out || !synthetic) throw new Error('AW_BENCH_OUT and AW_BENCH_SYNTHETIC are set by bench/run.mjs');
  const iterations = Number(process.env.AW_BENCH_LARGE_ITERATIONS ?? 50);
  const warmup = Number(process.env.AW_BENCH_LARGE_WARMUP ?? 5);
  const renameIterations = Number(process.env.AW_BENCH_RENAME_ITERATIONS ?? 6);
  // Commits (and raw applyEdit + save, 15-20 s each here) are few; staging is cheap enough to sample more.
  const commitIterations = Number(process.env.AW_BENCH_COMMIT_ITERATIONS ?? renameIterations);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench needs the generated folder open');
  const started = performance.now();
  const at = (): number => Math.round(performance.now() - started);
  const uri = (rel: string): vscode.Uri => vscode.Uri.file(path.join(folder.uri.fsPath, rel));
  const channelUri = uri(synthetic.channelPath);
  const channelPos = new vscode.Position(0, 'export class '.length);
  const channelSymbol = {
    location: { span: { document: { path: synthetic.channelPath }, range: { start: 'export class '.length, length: 'Channel'.length } } },
  };
  const referencesInput = { symbol: channelSymbol, referencesLimit: 1000 };

  // ---- 1. cold start: before anything else asks the TypeScript server
  const typescriptReadyMs = await waitForDocumentSymbols(channelUri);
  const rawRefs = async (): Promise<number> =>
    ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', channelUri, channelPos)) ?? []).length;
  const rawFirst = { atMs: at(), count: await rawRefs() };
  const toolStarted = performance.now();
  const firstText = await invokeLm('workbench_find_references', referencesInput);
  const firstData = dataOf<ReferencesData>(firstText);
  const toolFirst = {
    atMs: at(),
    count: referenceCount(firstData),
    complete: firstData.complete ?? null,
    durationMs: Math.round(performance.now() - toolStarted),
  };
  let rawComplete: ColdStart['rawComplete'] = null;
  for (let probes = 1; probes <= 240; probes++) {
    const count = await rawRefs();
    if (count >= synthetic.channelReferences) {
      rawComplete = { atMs: at(), count, probes };
      break;
    }
    await sleep(250);
  }
  const coldStart: ColdStart = { typescriptReadyMs, rawFirst, rawComplete, toolFirst, expected: synthetic.channelReferences };
  console.log(`[bench:large] cold start ${JSON.stringify(coldStart)}`);

  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>('agent-workbench.agent-workbench');
  if (!ext) throw new Error('extension not loaded');
  const api = await ext.activate();
  const { services, runner, dispose } = await benchRuntime(api.version);
  const rows: Row[] = [];

  // ---- 2. navigation tools beside the raw commands
  const sample = 'src/features/f0500.ts';
  const sampleUri = uri(sample);
  const sampleText = (await vscode.workspace.openTextDocument(sampleUri)).getText();
  const entityAt = sampleText.indexOf('item: Entity') + 'item: '.length;
  const entityPos = (await vscode.workspace.openTextDocument(sampleUri)).positionAt(entityAt);
  const raw = (id: string, label: string, call: () => Thenable<unknown>, expect: (r: unknown) => string | undefined): Variant => ({
    id,
    label,
    call,
    verify: expect,
    sample: (r) => short(JSON.stringify(r)),
  });
  const nonEmpty = (r: unknown): string | undefined => (Array.isArray(r) && r.length > 0 ? undefined : 'empty answer');
  const cases: { tool: string; input: object; raw: Variant }[] = [
    {
      tool: 'search-symbols',
      input: { query: 'Feature0500' },
      raw: raw(
        'raw.workspaceSymbols',
        'vscode.executeWorkspaceSymbolProvider "Feature0500" (raw)',
        () => vscode.commands.executeCommand('vscode.executeWorkspaceSymbolProvider', 'Feature0500'),
        nonEmpty,
      ),
    },
    {
      tool: 'get-document-outline',
      input: { document: { path: sample } },
      raw: raw(
        'raw.documentSymbols',
        `vscode.executeDocumentSymbolProvider ${sample} (raw)`,
        () => vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', sampleUri),
        nonEmpty,
      ),
    },
    {
      tool: 'go-to-definition',
      input: { location: { span: { document: { path: sample }, range: { start: entityAt, length: 'Entity'.length } } } },
      raw: raw(
        'raw.definition',
        'vscode.executeDefinitionProvider at Entity (raw)',
        () => vscode.commands.executeCommand('vscode.executeDefinitionProvider', sampleUri, entityPos),
        nonEmpty,
      ),
    },
    {
      tool: 'find-references',
      input: referencesInput,
      raw: raw(
        'raw.references',
        `vscode.executeReferenceProvider on Channel (raw, ${synthetic.channelReferences} references)`,
        () => vscode.commands.executeCommand('vscode.executeReferenceProvider', channelUri, channelPos),
        nonEmpty,
      ),
    },
  ];
  for (const c of cases) {
    console.log(`[bench:large] ${c.tool}: chain, vscode.lm, raw`);
    const variants = [...overheadVariants(tool(c.tool), c.input, services, runner, { cold: c.tool !== 'search-symbols' }), c.raw];
    rows.push(...(await measureGroup(`${c.tool} (1,000-module workspace)`, variants, iterations, warmup)));
  }

  // ---- 3. find-references beside vscode_listCodeUsages and grep: recall and bytes per reference
  const oursText = await invokeLm('workbench_find_references', referencesInput);
  const oursFound = referenceCount(dataOf<ReferencesData>(oursText));
  let vscodeUsages: LargeResult['usages']['vscode'] = null;
  const lmInput = { symbol: 'Channel', filePath: synthetic.channelPath, lineContent: 'export class Channel {' };
  if (vscode.lm.tools.some((t) => t.name === 'vscode_listCodeUsages')) {
    const text = await invokeLm('vscode_listCodeUsages', lmInput);
    // VS Code 1.139 lists each usage as <usage type="definition|reference|implementation" uri="…" line="n"> text </usage>.
    const found = [...text.matchAll(/<usage type="(?:definition|reference)"[^>]*\sline="\d+"/g)].length;
    vscodeUsages = { found, bytes: Buffer.byteLength(text), bytesPerReference: Buffer.byteLength(text) / Math.max(1, found), sample: short(text, 600) };
    rows.push(
      ...(await measureGroup(
        'find-references beside vscode_listCodeUsages (Channel)',
        [
          {
            id: 'ours.lm',
            label: 'find-references via vscode.lm.invokeTool',
            call: () => invokeLm('workbench_find_references', referencesInput),
            verify: envelopeProblem,
            sample: (t) => short(t as string),
          },
          {
            id: 'vscode_listCodeUsages',
            label: 'vscode_listCodeUsages via vscode.lm.invokeTool',
            call: () => invokeLm('vscode_listCodeUsages', lmInput),
            verify: () => undefined,
            sample: (t) => short(t as string),
          },
        ],
        iterations,
        warmup,
      )),
    );
  }
  const grepOut = execFileSync('grep', ['-rnw', 'Channel', '.'], { cwd: folder.uri.fsPath, encoding: 'utf8' });
  const grepLines = grepOut.split('\n').filter(Boolean);
  const usages: LargeResult['usages'] = {
    expected: synthetic.channelReferences,
    ours: { found: oursFound, bytes: Buffer.byteLength(oursText), bytesPerReference: Buffer.byteLength(oursText) / Math.max(1, oursFound) },
    vscode: vscodeUsages,
    grep: {
      lines: grepLines.length,
      bytes: Buffer.byteLength(grepOut),
      bytesPerLine: Buffer.byteLength(grepOut) / Math.max(1, grepLines.length),
      // A line can name Channel several times; grep prints it once.
      notReferences: Math.max(0, grepLines.length - grepLines.filter((l) => /\bChannel\b/.test(l)).length),
    },
  };
  console.log(`[bench:large] usages ${JSON.stringify({ ...usages, vscode: vscodeUsages && { ...vscodeUsages, sample: undefined } })}`);

  // ---- 4. rename Entity (every module, 5,000 references): stage + preview, commit, raw, vscode_renameSymbol
  const entityUri = uri(synthetic.entityPath);
  const entityDeclAt = 'export class '.length;
  const entityDeclPos = new vscode.Position(0, entityDeclAt);
  const renameSymbol = (from: string) => ({
    location: { span: { document: { path: synthetic.entityPath }, range: { start: entityDeclAt, length: from.length } } },
  });
  /** Throws with the whole envelope (code, message, path, continuation) when a call did not succeed, so a failed row says which call and why. */
  const ok = (call: string, text: string): void => {
    if (envelopeProblem(text)) throw new Error(`${call} answered ${short(text, 1500)}`);
  };
  const textOf = (r: { text: string }): string => r.text;
  let stagedEdits: number | null = null; // documents the staged rename touches
  const timed = async (f: () => Promise<unknown> | Thenable<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const samples: Record<string, number[]> = { rawRename: [], rawPrepare: [], stagePreview: [], commit: [], rawApplySave: [], vscodeRename: [] };
  // VS Code 1.139's vscode.executeDocumentRenameProvider throws "Unexpected type" when the document's
  // model is not loaded (it passes the new name on as an array); the model the extension host's
  // openTextDocument keeps alive is let go after 3 minutes, well within a run of these rows.
  const rawRenameEdit = async (to: string): Promise<vscode.WorkspaceEdit> => {
    await vscode.workspace.openTextDocument(entityUri);
    return vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', entityUri, entityDeclPos, to);
  };
  // A row that fails keeps the failing call's envelope or exception and the bench goes on with the other rows.
  const { failures, attempt } = failureRecorder('bench:large rename');
  // The class's name on disk: a failed commit leaves it as it was, so the rows after it rename from here.
  let current = 'Entity';
  const other = (name: string): string => (name === 'Entity' ? 'EntityRenamed' : 'Entity');
  const rollback = async (): Promise<void> => {
    await runner.invoke('transaction-rollback', {});
  };
  console.log('[bench:large] rename Entity: raw provider, stage + preview (rolled back)');
  await attempt('stagePreview', async () => {
    for (let i = 0; i < renameIterations; i++) {
      await vscode.workspace.openTextDocument(entityUri);
      samples.rawRename.push(
        await timed(() =>
          vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', entityUri, entityDeclPos, 'EntityRenamed'),
        ),
      );
      samples.rawPrepare.push(await timed(() => vscode.commands.executeCommand('vscode.prepareRename', entityUri, entityDeclPos)));
      samples.stagePreview.push(
        await timed(async () => {
          ok('rename-symbol', textOf(await runner.invoke('rename-symbol', { symbol: renameSymbol('Entity'), newName: 'EntityRenamed' })));
          ok('transaction-preview', textOf(await runner.invoke('transaction-preview', {})));
        }),
      );
      if (stagedEdits === null) {
        const preview = dataOf<{ documents?: unknown[]; documentCount?: number }>(textOf(await runner.invoke('transaction-preview', {})));
        stagedEdits = preview.documentCount ?? preview.documents?.length ?? null;
      }
      ok('transaction-rollback', textOf(await runner.invoke('transaction-rollback', {})));
    }
  });
  await rollback();
  console.log('[bench:large] rename Entity: commit (through the chain) against raw applyEdit + save, alternating names');
  await attempt('commit', async () => {
    for (let i = 0; i < commitIterations; i++) {
      const to = other(current);
      ok(`rename-symbol ${current} -> ${to}`, textOf(await runner.invoke('rename-symbol', { symbol: renameSymbol(current), newName: to })));
      samples.commit.push(
        await timed(async () =>
          ok(`transaction-commit of ${current} -> ${to} (commit ${i + 1} of ${commitIterations})`, textOf(await runner.invoke('transaction-commit', {}))),
        ),
      );
      current = to;
    }
  });
  await rollback();
  const rawRenameTo = async (to: string): Promise<void> => {
    const edit = await rawRenameEdit(to);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`workspace.applyEdit refused the rename ${current} -> ${to}`);
    current = to;
    if (!(await vscode.workspace.saveAll(false))) throw new Error(`workspace.saveAll answered false after the rename to ${to}`);
  };
  await attempt('rawApplySave', async () => {
    for (let i = 0; i < commitIterations; i++) {
      const to = other(current);
      const edit = await rawRenameEdit(to);
      samples.rawApplySave.push(
        await timed(async () => {
          if (!(await vscode.workspace.applyEdit(edit))) {
            throw new Error(`workspace.applyEdit refused the rename ${current} -> ${to} (call ${i + 1} of ${commitIterations})`);
          }
          current = to;
          if (!(await vscode.workspace.saveAll(false))) {
            throw new Error(`workspace.saveAll answered false after the rename to ${to} (call ${i + 1} of ${commitIterations})`);
          }
        }),
      );
    }
  });
  if (vscode.lm.tools.some((t) => t.name === 'vscode_renameSymbol')) {
    console.log('[bench:large] rename Entity: vscode_renameSymbol (applies edits directly), alternating names');
    await attempt('vscodeRename', async () => {
      for (let i = 0; i < commitIterations; i++) {
        const to = other(current);
        samples.vscodeRename.push(
          await timed(() =>
            invokeLm('vscode_renameSymbol', { symbol: current, filePath: synthetic.entityPath, lineContent: `export class ${current} {`, newName: to }),
          ),
        );
        current = to;
      }
      await vscode.workspace.saveAll(false);
    });
  }
  if (current !== 'Entity') await attempt('restore', () => rawRenameTo('Entity'));
  const renameLabels: Record<string, string> = {
    rawRename: "vscode.executeDocumentRenameProvider (raw: VS Code's rename, the providers' prepare-rename check, then the WorkspaceEdit)",
    rawPrepare: "vscode.prepareRename alone (raw: the check the rename above runs first; TypeScript's runs its whole rename request)",
    stagePreview: 'rename-symbol + transaction-preview through the chain (staged, nothing written)',
    rawApplySave: 'workspace.applyEdit + saveAll of the raw edit',
    commit: 'transaction-commit through the chain (checks; open files by one applyEdit and save, the others written directly; byte-for-byte verification)',
    vscodeRename: 'vscode_renameSymbol via vscode.lm.invokeTool (computes and applies, does not save)',
  };
  const renameGroup = `rename Entity (${synthetic.entityReferences} references in ${synthetic.files + 1} files)`;
  rows.push(...renameRows(renameGroup, samples, failures, renameLabels));
  if (failures.restore !== undefined) {
    rows.push({
      id: 'rename.restore',
      group: renameGroup,
      label: 'putting the name Entity back after the rows above',
      status: 'failed',
      error: failures.restore,
    });
  }

  // ---- 5. memory: 20 staged revisions, each a rename touching 2,000 references
  const gc = gcFunction();
  const before = memoryAfterGc(gc);
  const revisions = Math.min(synthetic.hubs, services.settings().maxRevisions);
  console.log(`[bench:large] memory: staging ${revisions} hub renames`);
  for (let k = 0; k < revisions; k++) {
    const name = `Hub${String(k).padStart(2, '0')}`;
    const hubs = (await vscode.workspace.openTextDocument(uri('src/model/hubs.ts'))).getText();
    const start = hubs.indexOf(`class ${name} `) + 'class '.length;
    ok(
      `rename-symbol ${name}`,
      textOf(
        await runner.invoke('rename-symbol', {
          symbol: { location: { span: { document: { path: 'src/model/hubs.ts' }, range: { start, length: name.length } } } },
          newName: `${name}Renamed`,
        }),
      ),
    );
  }
  ok('transaction-preview', textOf(await runner.invoke('transaction-preview', {})));
  const afterStaging = memoryAfterGc(gc);
  ok('transaction-rollback', textOf(await runner.invoke('transaction-rollback', {})));
  const afterRollback = memoryAfterGc(gc);
  dispose();

  const result: LargeResult = {
    synthetic,
    coldStart,
    rows,
    usages,
    rename: { references: synthetic.entityReferences, files: synthetic.files + 1, stagedDocuments: stagedEdits },
    memory: { gcForced: gc !== undefined, before, afterStaging, afterRollback, revisions, editsPerRevision: synthetic.hubReferences },
  };
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log('[bench:large] results written for the runner');
}
