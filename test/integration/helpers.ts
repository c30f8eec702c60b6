import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readableHover } from '../../src/core/symbols/signature';
import { registeredToolName } from '../../src/core/chain/definition';
import type { Envelope, SuccessEnvelope } from '../../src/core/chain/envelope';
import { assertValidEnvelope, expectOk as expectOkEnvelope } from '../shared/envelopes';

export { assertValidEnvelope, expectError, expectOk } from '../shared/envelopes';
import { stableUuid } from '../../src/core/documents/snapshots';
import { documentIdOfSymbol, parseSymbolId, readSymbol } from '../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../src/core/symbols/symbols';
import type { AgentWorkbenchApi } from '../../src/extension';
import { readOutline } from '../../src/tools/symbols';
import { readSearch } from '../../src/tools/search';
import type { OutlineData } from '../../src/tools/symbols';
import type { SearchData } from '../../src/tools/search';
import { readCalls } from '../../src/tools/calls';
import { readDerived } from '../../src/tools/hierarchy';
import type { DerivedTypesData } from '../../src/tools/hierarchy';
import type { CallsData } from '../../src/tools/calls';
import { waitForDocumentSymbols } from '../../scripts/in-host/languageService';

export const EXTENSION_ID = 'agent-workbench.agent-workbench';

export async function activateExtension(): Promise<AgentWorkbenchApi> {
  const ext = vscode.extensions.getExtension<AgentWorkbenchApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  return ext.activate();
}

/**
 * Calls a tool the way an agent does: through vscode.lm.invokeTool, and parses the single JSON
 * text part. `tokenization` passes a token budget as a chat model would.
 */
export async function invoke(tool: string, input: unknown, tokenization?: vscode.LanguageModelToolTokenizationOptions): Promise<Envelope> {
  const result = await vscode.lm.invokeTool(registeredToolName(tool), {
    input: input as object,
    toolInvocationToken: undefined,
    tokenizationOptions: tokenization,
  });
  assert.equal(result.content.length, 1, 'a tool result is one text part');
  const part = result.content[0];
  assert.ok(part instanceof vscode.LanguageModelTextPart, 'the part is text');
  const envelope = JSON.parse(part.value) as Envelope;
  assertValidEnvelope(tool, envelope);
  return envelope;
}

export function workspaceRoot(index = 0): string {
  const folder = vscode.workspace.workspaceFolders?.[index];
  assert.ok(folder, `no workspace folder ${index}`);
  return folder.uri.fsPath;
}

/** Waits until the language service answers document symbols for a workspace file. */
export async function waitForSymbols(relativePath: string, timeoutMs = 90_000): Promise<void> {
  await waitForDocumentSymbols(vscode.Uri.file(path.join(workspaceRoot(), relativePath)), timeoutMs);
}

/** A digest of every file under a folder (names and contents), to prove a run changed nothing on disk. */
export function digestTree(root: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (entry.isSymbolicLink()) hash.update(`L ${rel} -> ${fs.readlinkSync(full)}\n`);
      else if (entry.isDirectory()) walk(full);
      else hash.update(`F ${rel}\n`).update(fs.readFileSync(full));
    }
  };
  walk(root);
  return hash.digest('hex');
}

/**
 * Makes sure the workspace holds `escape`, a symbolic link to a folder outside it with a
 * `passwd` file, so tests can check that tools refuse to follow it.
 */
export function ensureEscapeLink(): void {
  const link = path.join(workspaceRoot(), 'escape');
  try {
    fs.lstatSync(link);
    return;
  } catch {
    // not there yet
  }
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-outside-'));
  fs.writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
  fs.symlinkSync(outside, link);
  // The folder outside lives as long as this window: every run made one and left it behind.
  process.once('exit', () => fs.rmSync(outside, { recursive: true, force: true }));
}

/**
 * A listed symbol as an agent reads it: its name, kind and container from the symbolId's last
 * segments (readSymbol), and the offset of its line and column in the document's current text
 * (the open editor buffer, else the file), so answers can be compared with the raw providers'.
 */
export interface ReadSymbol {
  symbolId: string;
  name: string;
  kind: string;
  containerName?: string;
  line: number;
  column: number;
  /** Zero-based UTF-16 offset of the name. */
  offset: number;
}

export function readListed(s: SymbolOutput): ReadSymbol {
  // The compact encoding: symbolId, line and column; name only when escaped; no span, kind or container.
  assert.ok(!('location' in s) && !('kind' in s) && !('containerName' in s), `compact symbol: ${JSON.stringify(s)}`);
  const documentId = s.documentId ?? documentIdOfSymbol(s.symbolId);
  const file = path.join(workspaceRootOf(documentId), documentId.replace(/^[0-9a-f]{8}:/, ''));
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === file);
  const text = open ? open.getText() : fs.readFileSync(file, 'utf8');
  let offset = 0;
  for (let line = 1; line < s.line; line++) offset = text.indexOf('\n', offset) + 1;
  return { symbolId: s.symbolId, ...readSymbol(s), line: s.line, column: s.column, offset: offset + s.column - 1 };
}

function workspaceRootOf(documentId: string): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const short = documentId.slice(0, 8);
  const folder = folders.find((f) => stableUuid(f.uri.toString()).startsWith(short)) ?? folders[0];
  return folder.uri.fsPath;
}

/**
 * An answer with every listed symbol (an object with a symbolId, line and column) checked to be
 * compact and given what an agent reads from it (readListed): name, kind, containerName, and
 * location {line, column, span: {start}} for the tests written against the raw providers.
 */
export function withSymbolsRead<T>(envelope: SuccessEnvelope<T>): SuccessEnvelope<T> {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const x of Object.values(o)) walk(x);
      if (typeof o.symbolId === 'string' && typeof o.line === 'number' && typeof o.column === 'number') {
        const r = readListed(o as unknown as SymbolOutput);
        Object.assign(o, {
          name: r.name,
          kind: r.kind,
          ...(r.containerName !== undefined ? { containerName: r.containerName } : {}),
          location: { line: r.line, column: r.column, span: { start: r.offset } },
        });
      }
    }
  };
  walk(envelope.data);
  return envelope;
}

/** The raw hover provider's texts as get-symbol-info reads them (command links reduced to their text, blank edges trimmed). */
export const rawHoverTexts = (hovers: readonly vscode.Hover[]): string[] =>
  readableHover(hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))));

/** An outline answer with its rows read as symbols (symbolId whole, depth, detail): src/tools/symbols.ts readOutline. */
export function outlineOf(envelope: Envelope): {
  documentId: string;
  symbols: { items: OutlineSymbol[]; hasMore: boolean; totalCount: number };
  localsLeftOut?: number;
} {
  const data = expectOkEnvelope<OutlineData>(envelope).data;
  return { ...data, symbols: { ...data.symbols, items: readOutline(data) } };
}

/** A search-symbols answer with its rows read as symbols (symbolIds whole): src/tools/symbols.ts readSearch. */
export function searchOf(envelope: Envelope): Omit<SearchData, 'symbols'> & { symbols: { items: SymbolOutput[]; hasMore: boolean; totalCount: number } } {
  const data = expectOkEnvelope<SearchData>(envelope).data;
  return { ...data, symbols: { ...data.symbols, items: readSearch(data) } };
}

/** A find-callers or find-callees answer with its call items read back (every symbol an object, symbolIds whole): src/tools/calls.ts readCalls. */
export function callsOf<T>(envelope: Envelope): SuccessEnvelope<T> {
  const e = expectOkEnvelope<CallsData>(envelope);
  return { ...e, data: { ...e.data, calls: readCalls(e.data) } } as unknown as SuccessEnvelope<T>;
}

/** A find-derived-types answer with its rows read back as symbols with their depth: src/tools/hierarchy.ts readDerived. */
export function derivedOf<T>(envelope: Envelope): SuccessEnvelope<T> {
  const e = expectOkEnvelope<DerivedTypesData>(envelope);
  return { ...e, data: { ...e.data, derivedTypes: { ...e.data.derivedTypes, items: readDerived(e.data) } } } as unknown as SuccessEnvelope<T>;
}

export type OutlineSymbol = SymbolOutput & { depth: number; detail?: string };

/** What the default outline of a file lists and leaves out, beside the same outline with includeLocals. */
export interface OutlineLocals {
  kept: (SymbolOutput & { depth: number })[];
  leftOut: string[];
  bytes: number;
}

const BODY_KINDS = ['Function', 'Method', 'Constructor'];
const inBody = (symbolId: string): boolean =>
  (parseSymbolId(symbolId)?.segments.slice(0, -1) ?? []).some((c) => BODY_KINDS.includes(c.kind) || (c.kind === 'Property' && /^\((get|set)\) /.test(c.name)));
const inInitializer = (symbolId: string): boolean => {
  const segments = parseSymbolId(symbolId)?.segments ?? [];
  const last = segments[segments.length - 1];
  return ['Variable', 'Constant', 'Function'].includes(last?.kind ?? '') && segments.slice(0, -1).some((c) => c.kind === 'Variable' || c.kind === 'Constant');
};

/**
 * get-document-outline of a file by default and with includeLocals: the default lists, in the
 * same order, every symbol but those a body declares (by the kinds of their containers in the
 * symbolId), says how many it left out, and lists nothing from inside a body.
 */
export async function outlineLocals(file: string): Promise<OutlineLocals> {
  const ask = async (includeLocals: boolean) => {
    const envelope = await invoke('get-document-outline', { document: { path: file }, symbolsLimit: 1000, includeLocals });
    return { data: outlineOf(envelope), bytes: JSON.stringify(envelope).length };
  };
  const all = (await ask(true)).data;
  const { data: kept, bytes } = await ask(false);
  assert.equal(all.symbols.hasMore || kept.symbols.hasMore, false, `${file}: whole outlines`);
  const keptIds = new Set(kept.symbols.items.map((s) => s.symbolId));
  assert.deepEqual(
    kept.symbols.items.map((s) => s.symbolId),
    all.symbols.items.filter((s) => keptIds.has(s.symbolId)).map((s) => s.symbolId),
    `${file}: the default outline is the full one with symbols left out`,
  );
  const leftOut = all.symbols.items.filter((s) => !keptIds.has(s.symbolId)).map((s) => s.symbolId);
  assert.equal(kept.localsLeftOut ?? 0, leftOut.length, `${file}: localsLeftOut counts what is left out`);
  assert.equal(kept.symbols.totalCount, kept.symbols.items.length);
  assert.deepEqual(
    leftOut.filter((id) => !inBody(id) && !inInitializer(id)),
    [],
    `${file}: only what a body or an initializer declares is left out`,
  );
  assert.deepEqual(
    kept.symbols.items.filter((s) => inBody(s.symbolId)).map((s) => s.symbolId),
    [],
    `${file}: nothing from inside a body is listed`,
  );
  return { kept: kept.symbols.items, leftOut, bytes };
}

/**
 * A call asked again while it answers LanguageServiceStarting (after the seconds its continuation
 * names), or while it answers partial and says to ask again (find-callers' time ran short on a busy
 * machine), until the deadline.
 */
export async function askAsAnAgent(tool: string, input: object, deadline: number, retries: Record<string, number>): Promise<Envelope> {
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
