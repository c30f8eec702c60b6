import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/chain/envelope';
import type { MutationData } from '../../src/core/transactions/types';
import { activateExtension, invoke, workspaceRoot } from './helpers';

/*
 * rxjs 7's sources opened cold, the agent's first calls made at once: every answer equals the
 * answer once the project has loaded, or says it is partial (complete: false), or refuses with
 * LanguageServiceStarting. A rename never stages fewer files than the loaded rename.
 * scripts/integration.mjs runs this suite in several fresh windows (each one cold).
 */

const DECLARATION = 'src/internal/util/isFunction.ts';
const sel = (p: string, selectedText: string, contextBefore?: string) => ({
  location: { selection: { document: { path: p }, selectedText, ...(contextBefore ? { contextBefore } : {}) } },
});

/** The cross-file questions of an ordinary task, as an agent asks them when the window opens. */
const QUESTIONS: { tool: string; input: object }[] = [
  { tool: 'search-symbols', input: { query: 'Subscriber' } },
  { tool: 'find-implementations', input: { symbol: sel('src/internal/types.ts', 'SchedulerLike', 'export interface ') } },
  { tool: 'find-derived-types', input: { symbol: sel('src/internal/Subscription.ts', 'Subscription', 'export class ') } },
  { tool: 'find-references', input: { symbol: sel('src/internal/Subscriber.ts', 'Subscriber', 'export class '), referencesLimit: 500 } },
  { tool: 'find-callers', input: { symbol: sel(DECLARATION, 'isFunction', 'function '), depth: 2 } },
  { tool: 'get-type-hierarchy', input: { symbol: sel('src/internal/Subscription.ts', 'Subscription', 'export class ') } },
  { tool: 'go-to-definition', input: sel('src/internal/Subscriber.ts', 'isFunction', 'if (') },
  // TypeScript's hover says "(loading...)" before the project has loaded; the tool asks again or says it is partial.
  { tool: 'get-symbol-info', input: { symbol: sel('src/internal/Subscriber.ts', 'Subscriber', 'export class ') } },
];

type Verdict = 'equal' | 'partial' | 'refused';

/** The answer without what differs between two calls (the snapshot). */
const dataOf = (e: Envelope): string => JSON.stringify((e as { data: unknown }).data);

function verdict(tool: string, cold: Envelope, loaded: Envelope): Verdict {
  assert.ok(loaded.ok, `${tool} once loaded: ${JSON.stringify(loaded).slice(0, 500)}`);
  if (!cold.ok) {
    assert.equal(cold.error.code, 'LanguageServiceStarting', `${tool} cold: ${cold.error.message}`);
    assert.equal(cold.continuation?.kind, 'RetryRequest');
    return 'refused';
  }
  const data = cold.data as { complete?: boolean; note?: string };
  if (data.complete === false) {
    assert.match(data.note ?? '', /Ask again/, `${tool}: a partial answer says so`);
    return 'partial';
  }
  assert.equal(dataOf(cold), dataOf(loaded), `${tool}: a cold answer that does not say it is partial equals the loaded answer`);
  return 'equal';
}

describe('realcode-cold: rxjs sources, the first calls in a freshly opened window', function () {
  this.timeout(420_000);
  const started = Date.now();
  const figures: Record<string, unknown> = { run: process.env.AW_RUN ?? '1' };

  after(() => console.log(`      [realcode-cold] ${JSON.stringify(figures)}`));

  it('a rename, then eight questions at once: each cold answer equals the loaded one, or says it is partial, or refuses', async function () {
    await activateExtension();
    // The agent's first actions: open the file, then the rename and the questions at once.
    const uri = vscode.Uri.file(path.join(workspaceRoot(), DECLARATION));
    const doc = await vscode.workspace.openTextDocument(uri);
    const position = doc.positionAt(doc.getText().indexOf('isFunction'));
    const rename = { symbol: sel(DECLARATION, 'isFunction', 'function '), newName: 'isCallable' };
    // What the raw provider says at that moment shows the window is cold (fewer than the 29 files).
    const rawFirst = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, position)) ?? [];
    figures.rawFirstFiles = new Set(rawFirst.map((r) => r.uri.fsPath)).size;
    const [coldRename, ...cold] = await Promise.all([invoke('rename-symbol', rename), ...QUESTIONS.map((q) => invoke(q.tool, q.input))]);
    figures.coldRename = {
      ok: coldRename.ok,
      ...(coldRename.ok ? { documents: (coldRename.data as MutationData).documents.totalCount } : { code: coldRename.error.code }),
    };
    if (coldRename.ok) expectRollback(await invoke('transaction-rollback', {}));
    figures.coldAtMs = Date.now() - started;

    // Loaded: the raw reference provider gives the 29 documents that use isFunction.
    for (;;) {
      const refs = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', uri, position)) ?? [];
      if (new Set(refs.map((r) => r.uri.fsPath)).size >= 29) break;
      assert.ok(Date.now() - started < 200_000, 'the project loaded');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    figures.loadedAtMs = Date.now() - started;

    // Loaded, on a machine this busy an answer may still miss its timeout while the service builds the
    // program it just loaded: it says LanguageServiceStarting, or partial, and asks to be asked again; the agent does.
    const retries: Record<string, number> = {};
    const loaded = await Promise.all(QUESTIONS.map((q) => askAsAnAgent(q.tool, q.input, started + 330_000, retries)));
    figures.loadedRetries = retries;
    const verdicts: Record<string, Verdict> = {};
    QUESTIONS.forEach((q, i) => (verdicts[q.tool] = verdict(q.tool, cold[i], loaded[i])));
    figures.verdicts = verdicts;
    for (const [i, q] of QUESTIONS.entries()) {
      const data = loaded[i].ok ? (loaded[i].data as { complete?: boolean }) : undefined;
      assert.notEqual(data?.complete, false, `${q.tool} is complete once loaded`);
    }

    const loadedRename = await askAsAnAgent('rename-symbol', rename, started + 390_000, retries);
    assert.ok(loadedRename.ok, JSON.stringify(loadedRename).slice(0, 500));
    const files = (loadedRename.data as MutationData).documents.totalCount;
    assert.equal(files, 29, 'the loaded rename stages the 29 files that use isFunction');
    if (coldRename.ok) assert.equal((coldRename.data as MutationData).documents.totalCount, files, 'a cold rename that was staged covers every file');
    else assert.equal(coldRename.error.code, 'LanguageServiceStarting');
    expectRollback(await invoke('transaction-rollback', {}));
  });
});

/**
 * A call asked again while it answers LanguageServiceStarting (after the seconds its continuation
 * names), or while it answers partial and says to ask again (find-callers' time ran short on a busy
 * machine), until the deadline.
 */
async function askAsAnAgent(tool: string, input: object, deadline: number, retries: Record<string, number>): Promise<Envelope> {
  for (;;) {
    const e = await invoke(tool, input);
    if (Date.now() > deadline) return e;
    let seconds: number;
    if (e.ok) {
      const data = e.data as { complete?: boolean; note?: string };
      if (data.complete !== false || !/Ask again/.test(data.note ?? '')) return e;
      seconds = Number(/Ask again in (\d+) seconds/.exec(data.note ?? '')?.[1] ?? 1);
    } else {
      if (e.error.code !== 'LanguageServiceStarting' || e.continuation?.kind !== 'RetryRequest') return e;
      seconds = Number(/Ask again in (\d+) seconds/.exec(e.continuation.instruction ?? '')?.[1] ?? 5);
    }
    retries[tool] = (retries[tool] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

function expectRollback(e: Envelope): void {
  assert.ok(e.ok, `rollback: ${JSON.stringify(e).slice(0, 300)}`);
}
