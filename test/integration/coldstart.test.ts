import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope } from '../../src/core/chain/envelope';
import type { ReferencesData } from '../../src/tools/references';
import { referencesListed } from '../../src/tools/references';
import { activateExtension, invoke, workspaceRoot } from './helpers';

/*
 * Never a partial answer passed off as complete: a generated workspace
 * (scripts/synthetic-workspace.mjs, exact reference counts) opened cold. The first calls
 * happen while the TypeScript extension activates and its server loads the project.
 */

interface Generated {
  files: number;
  uses: number;
  entityReferences: number;
  entityPath: string;
  channelPath: string;
  channelReferences: number;
}

interface Language {
  languageId: string;
  features: Record<string, string> | null;
  retryAfterSeconds?: number;
  languageServices: { extensionId: string; active: boolean }[];
}

const generated = JSON.parse(process.env.AW_GENERATED ?? 'null') as Generated | null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SEMANTIC = ['documentSymbols', 'definition', 'references', 'hover'];

function typescriptOf(envelope: Envelope): Language {
  assert.ok(envelope.ok, JSON.stringify(envelope).slice(0, 1000));
  const data = envelope.data as { workspaces: { items: { languages: Language[] }[] } };
  const ts = data.workspaces.items[0].languages.find((l) => l.languageId === 'typescript');
  assert.ok(ts, 'the generated workspace is TypeScript');
  return ts;
}

const count = (d: ReferencesData) => referencesListed(d);

describe('coldstart: a generated TypeScript workspace, right after the window opens', function () {
  this.timeout(180_000);
  const started = Date.now();
  const at = () => Date.now() - started;
  const entity = () => ({
    symbol: { location: { selection: { document: { path: generated?.entityPath ?? '' }, selectedText: 'Entity', contextBefore: 'export class ' } } },
  });
  const figures: Record<string, unknown> = {};

  before(async function () {
    assert.ok(generated, 'AW_GENERATED describes the generated workspace (scripts/integration.mjs)');
    figures.files = generated.files;
    figures.expectedReferences = generated.entityReferences;
    await activateExtension();
  });

  after(function () {
    console.log(`      [nav3] coldstart figures ${JSON.stringify(figures)}`);
  });

  async function solutionStructure(): Promise<{ ts: Language; starting: string[] }> {
    const ts = typescriptOf(await invoke('get-solution-structure', {}));
    assert.ok(ts.features, 'probed');
    const starting = Object.entries(ts.features)
      .filter(([, s]) => s === 'starting')
      .map(([f]) => f);
    if (starting.length > 0) {
      assert.ok(ts.retryAfterSeconds && ts.retryAfterSeconds > 0, 'says when to ask again');
      for (const f of SEMANTIC) assert.ok(['available', 'starting'].includes(ts.features[f]), `${f} is ${ts.features[f]} while starting`);
    } else {
      for (const f of SEMANTIC) assert.equal(ts.features[f], 'available', `${f} once TypeScript is ready`);
      assert.equal(ts.retryAfterSeconds, undefined);
    }
    return { ts, starting };
  }

  it('get-solution-structure, first thing: TypeScript features are available or "starting" with retryAfterSeconds, never noResult/unavailable', async function () {
    const { ts, starting } = await solutionStructure();
    figures.firstSolutionStructure = { atMs: at(), features: ts.features, services: ts.languageServices, starting };
  });

  it('find-references on Entity right away: complete with exactly the expected count, or complete:false; never a short list claiming completeness', async function () {
    assert.ok(generated);
    const file = vscode.Uri.file(path.join(workspaceRoot(), generated.entityPath));
    const doc = await vscode.workspace.openTextDocument(file);
    const position = doc.positionAt(doc.getText().indexOf('Entity'));
    const rawFirst = ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', file, position)) ?? []).length;
    figures.rawFirst = { atMs: at(), count: rawFirst };
    // Each answer: complete and exact, or complete:false, or LanguageServiceStarting (the provider did not come back in the call's time).
    const ask = async (): Promise<ReferencesData | undefined> => {
      const e = await invoke('find-references', { ...entity(), referencesLimit: 1000 });
      if (e.ok) return e.data as ReferencesData;
      assert.equal(e.error.code, 'LanguageServiceStarting', JSON.stringify(e).slice(0, 1000));
      assert.equal(e.continuation?.kind, 'RetryRequest');
      return undefined;
    };
    const t = Date.now();
    const data = await ask();
    figures.toolFirst = data
      ? { atMs: at(), durationMs: Date.now() - t, complete: data.complete, totalReferences: data.totalReferences, listed: count(data) }
      : { atMs: at(), durationMs: Date.now() - t, refused: 'LanguageServiceStarting' };
    if (data?.complete) {
      assert.equal(data.totalReferences, generated.entityReferences, 'a complete answer has every reference');
    } else if (data) {
      assert.match(data.note ?? '', /Ask again/);
      assert.ok(data.totalReferences <= generated.entityReferences);
    }
    // Then until complete: every answer is either complete and exact, or says it is not complete.
    let answer = data;
    while (!answer?.complete) {
      assert.ok(at() < 150_000, 'find-references became complete');
      answer = await ask();
      if (answer?.complete) assert.equal(answer.totalReferences, generated.entityReferences);
    }
    figures.toolComplete = { atMs: at(), totalReferences: answer.totalReferences };
    // The raw provider: when does it first give every reference?
    for (;;) {
      const n = ((await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', file, position)) ?? []).length;
      if (n >= generated.entityReferences) {
        figures.rawComplete = { atMs: at(), count: n };
        break;
      }
      assert.ok(at() < 150_000, `raw provider stuck at ${n}`);
      await sleep(250);
    }
  });

  it('get-solution-structure keeps saying "starting" (never noResult/unavailable) until TypeScript answers', async function () {
    const states: string[] = [];
    for (;;) {
      const { starting } = await solutionStructure();
      states.push(`${at()} ms: ${starting.length > 0 ? `starting (${starting.join(', ')})` : 'ready'}`);
      if (starting.length === 0) break;
      assert.ok(at() < 150_000, `still starting: ${states.join('; ')}`);
      await sleep(1000);
    }
    figures.solutionStructure = states;
  });

  it('answers up to 1,000 references in under 97 bytes per further reference (warm)', async function () {
    const t = Date.now();
    const result = await vscode.lm.invokeTool(registeredToolName('find-references'), {
      input: { ...entity(), referencesLimit: 1000 },
      toolInvocationToken: undefined,
    });
    const durationMs = Date.now() - t;
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const envelope = JSON.parse(text) as Envelope;
    assert.ok(envelope.ok);
    const data = envelope.data as ReferencesData;
    const refs = count(data);
    // The answer is also cut to the output limit (whole documents dropped from the end, hasMore set).
    assert.ok(refs > 100 && refs <= 1000, `${refs} references listed`);
    assert.equal(data.documents.hasMore, true);
    assert.equal(data.totalReferences, generated?.entityReferences);
    const perRef = Buffer.byteLength(text) / refs;
    // grep -rn has no fixed part: compare the cost of each further reference (the answer minus the referencesLimit 0 answer).
    const empty = await vscode.lm.invokeTool(registeredToolName('find-references'), {
      input: { ...entity(), referencesLimit: 0 },
      toolInvocationToken: undefined,
    });
    const emptyBytes = Buffer.byteLength(empty.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''));
    const marginal = (Buffer.byteLength(text) - emptyBytes) / refs;
    const t50 = Date.now();
    const small = await invoke('find-references', entity());
    assert.ok(small.ok);
    figures.warm = {
      referencesLimit1000: {
        durationMs,
        bytes: Buffer.byteLength(text),
        references: refs,
        bytesPerReference: Number(perRef.toFixed(1)),
        marginalBytesPerReference: Number(marginal.toFixed(1)),
      },
      defaultLimitDurationMs: Date.now() - t50,
      sampleDocument: data.documents.items[1],
    };
    assert.ok(marginal < 97, `${marginal.toFixed(1)} bytes per further reference`);
    assert.ok(perRef < 100, `${perRef.toFixed(1)} bytes per reference, envelope included`);
  });

  it('answers Channel in fewer bytes per reference than grep -rnw prints per matching line (warm)', async function () {
    assert.ok(generated);
    // Channel: three references per file, two on one line, all listed. Entity (four per file on three lines, answer cut to the
    // output limit) is measured for the figures only: there the answer costs about as much per reference as grep per line.
    const symbols = [
      { name: 'Channel', path: generated.channelPath, total: generated.channelReferences, below: true },
      { name: 'Entity', path: generated.entityPath, total: generated.entityReferences, below: false },
    ];
    const rows: Record<string, unknown> = {};
    for (const s of symbols) {
      const input = {
        symbol: { location: { selection: { document: { path: s.path }, selectedText: s.name, contextBefore: 'export class ' } } },
        referencesLimit: 1000,
      };
      const result = await vscode.lm.invokeTool(registeredToolName('find-references'), { input, toolInvocationToken: undefined });
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      const envelope = JSON.parse(text) as Envelope;
      assert.ok(envelope.ok, text.slice(0, 500));
      const data = envelope.data as ReferencesData;
      assert.equal(data.totalReferences, s.total);
      const listed = count(data);
      const grep = execFileSync('grep', ['-rnw', s.name, '.'], { cwd: workspaceRoot(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const grepLines = grep.split('\n').filter((l) => l.length > 0).length;
      const ours = Buffer.byteLength(text) / listed;
      const theirs = Buffer.byteLength(grep) / grepLines;
      rows[s.name] = {
        bytes: Buffer.byteLength(text),
        listed,
        hasMore: data.documents.hasMore,
        bytesPerReference: Number(ours.toFixed(1)),
        grepBytes: Buffer.byteLength(grep),
        grepLines,
        grepBytesPerLine: Number(theirs.toFixed(1)),
      };
      if (s.below) {
        assert.ok(
          ours < theirs,
          `${s.name}: ${ours.toFixed(1)} bytes per reference (whole answer, ${listed} listed), grep -rnw ${theirs.toFixed(1)} per matching line`,
        );
      }
    }
    figures.versusGrep = rows;
    assert.equal((rows.Channel as { hasMore: boolean }).hasMore, false, 'every Channel reference listed');
  });
});
