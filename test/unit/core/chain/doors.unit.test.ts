import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallResult } from '../../../../src/core/chain/chain';
import { registeredToolName } from '../../../../src/core/chain/definition';
import { DoorNaming } from '../../../../src/core/chain/doors';
import { failure } from '../../../../src/core/chain/envelope';
import type { JsonSchema } from '../../../../src/core/chain/schemas';
import { mcpToolListing } from '../../../../src/mcp/listing';
import { ALL_TOOLS } from '../../../../src/tools';
import { createHarness, expectError, expectOk } from '../../support/harness';
import { FakeHost } from '../../support/fakeHost';

/** The repository root: this file runs from out/test/unit/core/chain/. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');

const CANONICAL = ALL_TOOLS.map((t) => t.name);
const LM = new DoorNaming('vscode.lm', CANONICAL);
const MCP = new DoorNaming('mcp', CANONICAL);

/** The first words tool names start with (get, find, transaction...): a hyphenated word starting with one looks like a tool's name. */
const TOOL_VERBS = new Set(CANONICAL.map((n) => n.split('-')[0]));
/** Hyphenated words that start like a tool's name and are ordinary words. */
const ORDINARY = new Set(['workspace-relative']);

/** The words of a text that look like tool names: canonical-shaped (lowercase, hyphenated, starting like a tool) and vscode.lm-shaped (workbench_*). */
function toolLikeNames(text: string): { canonical: string[]; registered: string[] } {
  const hyphenated = text.match(/(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])/g) ?? [];
  return {
    canonical: hyphenated.filter((w) => TOOL_VERBS.has(w.split('-')[0]) && !ORDINARY.has(w)),
    registered: text.match(/\bworkbench_\w+/g) ?? [],
  };
}

/** Every description string of a JSON Schema, at any depth. */
function descriptions(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(descriptions);
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([k, v]) => (k === 'description' && typeof v === 'string' ? [v] : descriptions(v)));
}

describe('doors: each door names the tools by its own names', () => {
  it('forDoor rewrites canonical tool names that stand as words, and nothing else', () => {
    const cases: [string, string][] = [
      [
        'One folder: workspace-status; features: get-solution-structure.',
        'One folder: workbench_workspace_status; features: workbench_get_solution_structure.',
      ],
      [
        'Use `find-references` (or edit-text), then transaction-preview’s diff.',
        'Use `workbench_find_references` (or workbench_edit_text), then workbench_transaction_preview’s diff.',
      ],
      ["transaction-preview's diffs", "workbench_transaction_preview's diffs"],
      ['"tool":"get-code-context"', '"tool":"workbench_get_code_context"'],
      // Not names: a longer word, a path, a file name, a dotted name, ordinary hyphenated words.
      ['find-references-x pre-find-references find-referencesX', 'find-references-x pre-find-references find-referencesX'],
      ['docs/reference/tools/find-references.json and find-references/index', 'docs/reference/tools/find-references.json and find-references/index'],
      ['ext.find-references workspace-relative autonomous-trusted get list find', 'ext.find-references workspace-relative autonomous-trusted get list find'],
    ];
    for (const [text, expected] of cases) assert.equal(LM.forDoor(text), expected, text);
    for (const [text] of cases) assert.equal(MCP.forDoor(text), text, 'MCP serves the canonical names');
    // Longest first: a name that extends another is rewritten whole.
    const nested = new DoorNaming('vscode.lm', ['find-all', 'find-all-references']);
    assert.equal(nested.forDoor('find-all-references, then find-all'), 'workbench_find_all_references, then workbench_find_all');
    // A name the door does not list stays as it is.
    assert.equal(new DoorNaming('vscode.lm', ['edit-text']).forDoor('edit-text or find-references'), 'workbench_edit_text or find-references');
  });

  it('rewrites descriptions in a schema, never property names, enums, defaults or examples', () => {
    const schema: JsonSchema = {
      type: 'object',
      description: 'See edit-text.',
      properties: {
        'edit-text': { type: 'string', description: 'From list-code-actions.', enum: ['edit-text'], default: 'edit-text', examples: ['edit-text'] },
        description: { type: 'string', description: 'A field named description, described by find-references.' },
      },
    };
    assert.deepEqual(LM.schema(schema), {
      type: 'object',
      description: 'See workbench_edit_text.',
      properties: {
        'edit-text': { type: 'string', description: 'From workbench_list_code_actions.', enum: ['edit-text'], default: 'edit-text', examples: ['edit-text'] },
        description: { type: 'string', description: 'A field named description, described by workbench_find_references.' },
      },
    });
  });

  it('vscode.lm (package.json, what Copilot reads): every tool a description names is a registered tool; no canonical name leaks', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { languageModelTools: JsonSchema[] } };
    const served = pkg.contributes.languageModelTools;
    const registered = new Set(served.map((t) => t.name as string));
    let naming = 0;
    for (const entry of served) {
      const texts = [entry.modelDescription as string, ...descriptions(entry.inputSchema)];
      for (const text of texts) {
        const names = toolLikeNames(text);
        assert.deepEqual(names.canonical, [], `${String(entry.name)}: canonical names in "${text}"`);
        for (const name of names.registered) assert.ok(registered.has(name), `${String(entry.name)} names ${name}, which is not registered`);
        if (names.registered.length > 0) naming++;
      }
    }
    assert.ok(naming >= 18, `${naming} descriptions name a tool`);
  });

  it('MCP (tools/list, output schemas included): every tool a description names is a listed tool; no vscode.lm name leaks', () => {
    const listed = ALL_TOOLS.map((t) => mcpToolListing(t));
    const names = new Set(listed.map((l) => l.name));
    let naming = 0;
    for (const l of listed) {
      for (const text of [l.description, ...descriptions(l.inputSchema), ...descriptions(l.outputSchema)]) {
        const found = toolLikeNames(text);
        assert.deepEqual(found.registered, [], `${l.name}: vscode.lm names in "${text}"`);
        for (const name of found.canonical) assert.ok(names.has(name), `${l.name} names ${name}, which MCP does not list`);
        if (found.canonical.length > 0) naming++;
      }
    }
    assert.ok(naming >= 18, `${naming} descriptions name a tool`);
  });

  it('over vscode.lm a continuation names the registered tool, and its message and instruction use registered names', async () => {
    const host = new FakeHost();
    host.addFolder('app', { 'README.md': '# app\n', 'src/a.ts': 'export const a = 1;\n' });
    const h = await createHarness({ host });
    const result = await h.call('workspace-status', { workspace: { alias: 'elsewhere' } }, { door: 'vscode.lm' });
    const plain = expectError(result, 'WorkspaceNotFound');
    assert.deepEqual([plain.continuation?.kind, plain.continuation && 'tool' in plain.continuation && plain.continuation.tool], ['CallTool', 'workspace-list']);

    const lm = LM.answer(result);
    const answered = expectError(JSON.parse(lm.text) as CallResult['envelope'], 'WorkspaceNotFound');
    assert.deepEqual(answered, lm.envelope, 'the text is the envelope');
    assert.equal(answered.error.correlationId, plain.error.correlationId);
    assert.ok(answered.continuation?.kind === 'CallTool');
    assert.equal(answered.continuation.tool, registeredToolName('workspace-list'));
    assert.ok(
      ALL_TOOLS.some((t) => registeredToolName(t.name) === (answered.continuation as { tool: string }).tool),
      'a registered tool',
    );
    assert.match(answered.continuation.instruction, /^Call workbench_workspace_list to see the open folders/);
    assert.deepEqual(toolLikeNames(`${answered.error.message} ${answered.continuation.instruction}`).canonical, []);
    // The MCP door's answer is the runner's, untouched.
    assert.equal(MCP.answer(result), result);
  });

  it('over vscode.lm a ChooseTool names registered tools; a success names them in its notes only, its data untouched', async () => {
    const choose: CallResult = (() => {
      const envelope = failure('InvalidRequest', 'Use edit-text.', 'c1', {
        kind: 'ChooseTool',
        tools: ['edit-text', 'rename-symbol'],
        instruction: 'Pick edit-text or rename-symbol.',
      });
      return { envelope, text: JSON.stringify(envelope) };
    })();
    assert.deepEqual(LM.answer(choose).envelope, {
      ok: false,
      error: { code: 'InvalidRequest', message: 'Use workbench_edit_text.', correlationId: 'c1' },
      continuation: {
        kind: 'ChooseTool',
        tools: ['workbench_edit_text', 'workbench_rename_symbol'],
        instruction: 'Pick workbench_edit_text or workbench_rename_symbol.',
      },
    });

    const host = new FakeHost();
    host.addFolder('app', { 'find-references.md': '# notes\n', 'src/a.ts': 'export const a = 1;\n' });
    const h = await createHarness({ host });
    const moved = await h.call('move-file', { document: { path: 'find-references.md' }, newPath: 'docs/find-references.md' });
    const plain = expectOk<{ notes: string[] }>(moved);
    assert.ok(plain.data.notes.some((n) => / find-references .* edit-text\.$/.test(n)));
    const lm = LM.answer(moved);
    const data = expectOk<{ notes: string[] }>(JSON.parse(lm.text) as CallResult['envelope']).data;
    assert.ok(
      data.notes.some((n) => / workbench_find_references .* workbench_edit_text\.$/.test(n)),
      data.notes.join('\n'),
    );
    assert.ok(
      data.notes.some((n) => n.startsWith('Imports of find-references.md ')),
      'a file name is not a tool name',
    );
    const withoutNotes = (d: unknown) => JSON.stringify({ ...(d as object), notes: undefined });
    assert.equal(withoutNotes(data), withoutNotes(plain.data), 'nothing but the notes changes');
  });

  it('the vscode.lm door answers through its naming (host/registration.ts)', () => {
    const source = fs.readFileSync(path.join(ROOT, 'src', 'host', 'registration.ts'), 'utf8');
    assert.match(source, /new DoorNaming\(\s*'vscode\.lm',\s*tools\.map\(\(t\) => t\.name\),?\s*\)/);
    assert.match(source, /new vscode\.LanguageModelTextPart\(naming\.answer\(result\)\.text\)/);
  });
});
