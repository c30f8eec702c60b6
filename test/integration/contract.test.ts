import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { registeredToolName, TOOL_NAME_PREFIX } from '../../src/core/chain/definition';
import { DoorNaming } from '../../src/core/chain/doors';
import type { JsonSchema } from '../../src/core/chain/schemas';
import { ALL_TOOLS } from '../../src/tools';
import { activateExtension, ensureEscapeLink, digestTree, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/** A tool's first example request without its symbol. */
function symbolFree(tool: (typeof ALL_TOOLS)[number]): Record<string, unknown> {
  const rest = { ...((tool.examples[0]?.request ?? {}) as Record<string, unknown>) };
  delete rest.symbol;
  return rest;
}

/** Inputs every tool must refuse, with the field its message must name. */
function malformedInputs(tool: (typeof ALL_TOOLS)[number]): { label: string; input: unknown; field: string }[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (tool.inputSchema.required ?? []) as string[];
  const cases: { label: string; input: unknown; field: string }[] = [
    { label: 'an unknown top-level field', input: { bogusField: 1 }, field: 'bogusField' },
    { label: 'a malformed expectedSnapshot', input: { expectedSnapshot: { workspaceId: 'not-a-uuid' } }, field: 'expectedSnapshot' },
  ];
  if (properties.workspace) {
    cases.push(
      { label: 'a workspace selector of the wrong type', input: { workspace: 42 }, field: 'workspace' },
      { label: 'an unknown field in the workspace selector', input: { workspace: { alias: 'sample', colour: 'red' } }, field: 'workspace.colour' },
      { label: 'a huge string', input: { workspace: { alias: 'x'.repeat(200_000) } }, field: 'workspace.alias' },
    );
  } else {
    cases.push({ label: 'a workspace selector it does not take', input: { workspace: { alias: 'sample' } }, field: 'workspace' });
  }
  const firstString = Object.entries(properties).find(([, p]) => p.type === 'string' && typeof p.maxLength === 'number');
  // One character over its own bound (the symbol edits' text allows 200,000).
  if (firstString) {
    cases.push({
      label: `a huge string in ${firstString[0]}`,
      input: { [firstString[0]]: 'x'.repeat(Math.max(200_000, (firstString[1].maxLength as number) + 1)) },
      field: firstString[0],
    });
  }
  if (required.length > 0) cases.push({ label: 'missing required fields', input: {}, field: required[0] });
  if (properties.location) {
    cases.push({
      label: 'a location with both span and selection',
      input: {
        location: {
          span: { document: { path: 'src/util.ts' }, range: { start: 0, length: 1 } },
          selection: { document: { path: 'src/util.ts' }, selectedText: 'x' },
        },
      },
      field: 'location',
    });
    cases.push({
      label: 'a negative offset',
      input: { location: { span: { document: { path: 'src/util.ts' }, range: { start: -1, length: 1 } } } },
      field: 'location.span.range.start',
    });
  }
  if (properties.symbol) {
    // The tool's other fields (rename-symbol's newName...) from its first example, so only the symbol is wrong.
    const base = symbolFree(tool);
    const location = { selection: { document: { path: 'src/util.ts' }, selectedText: 'formatName' } };
    cases.push({ label: 'a symbol with both location and symbolId', input: { ...base, symbol: { location, symbolId: 'x' } }, field: 'symbol' });
    cases.push({ label: 'a symbol with neither location nor symbolId', input: { ...base, symbol: {} }, field: 'symbol' });
    cases.push({ label: 'a symbolId that is not one', input: { ...base, symbol: { symbolId: 'no-hash-here' } }, field: 'symbol.symbolId' });
    cases.push({
      label: 'a symbol location with a negative offset',
      input: { ...base, symbol: { location: { span: { document: { path: 'src/util.ts' }, range: { start: -1, length: 1 } } } } },
      field: 'symbol.location.span.range.start',
    });
  }
  return cases;
}

/** Inputs that reach outside the workspace through a document path. */
function outsidePaths(tool: (typeof ALL_TOOLS)[number]): { label: string; input: unknown; field: string }[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  if (properties.location) {
    return [
      ...['../../../../etc/passwd', '/etc/passwd', 'src/../../outside.ts', 'escape/passwd', 'file:///etc/passwd'].map((p) => ({
        label: `selection document path ${p}`,
        input: { location: { selection: { document: { path: p }, selectedText: 'root' } } },
        field: 'location.selection.document.path',
      })),
      {
        label: 'span document path ../outside.ts',
        input: { location: { span: { document: { path: '../outside.ts' }, range: { start: 0, length: 1 } } } },
        field: 'location.span.document.path',
      },
      {
        label: 'a documentId whose path climbs out',
        input: { location: { span: { document: { documentId: `${'0'.repeat(8)}:../outside.ts` }, range: { start: 0, length: 1 } } } },
        field: 'location.span.document',
      },
    ];
  }
  if (properties.symbol) {
    return [
      ...['../../../../etc/passwd', '/etc/passwd', 'escape/passwd'].map((p) => ({
        label: `symbol selection document path ${p}`,
        input: { ...symbolFree(tool), symbol: { location: { selection: { document: { path: p }, selectedText: 'root' } } } },
        field: 'symbol.location.selection.document.path',
      })),
      {
        label: 'a symbolId whose documentId climbs out',
        input: { ...symbolFree(tool), symbol: { symbolId: `${'0'.repeat(8)}:../outside.ts#Class:Outside` } },
        field: 'symbol.symbolId',
      },
    ];
  }
  if (properties.project) {
    return ['../outside/package.json', '/etc/package.json'].map((p) => ({
      label: `project path ${p}`,
      input: { project: { path: p } },
      field: 'project.path',
    }));
  }
  return [];
}

/** The folder id the tools' examples use; the test puts the sample's own in its place. */
const EXAMPLE_SHORT_ID = '1a2b3c4d';

/** Examples that may answer these codes, as their expectedOutcome says: they quote a value only an earlier answer can give (a correlationId, an actionRef), or format a file that is already formatted. */
const EXAMPLES_THAT_MAY_REFUSE: Record<string, string[]> = {
  'get-error-details': ['ErrorDetailsNotFound'],
  'stage-code-action': ['SnapshotMismatch', 'InvalidRequest'],
  'format-document': ['InvalidRequest'],
};

/** The edit the transaction tools' examples work on: edit-text's own example on src/greeter.ts. */
const STAGED_EDIT = ALL_TOOLS.find((t) => t.name === 'edit-text')?.examples[0].request;

/** Each mutation example starts from nothing staged; a transaction tool's example from one staged edit. */
async function startFromStagedEdit(tool: string): Promise<void> {
  await invoke('transaction-rollback', {});
  const category = ALL_TOOLS.find((t) => t.name === tool)?.category;
  // transaction-revert stages the last commit's inverse on its own: it starts from nothing staged.
  if (category === 'Transactions' && tool !== 'transaction-start' && tool !== 'transaction-revert') expectOk(await invoke('edit-text', STAGED_EDIT ?? {}));
}

/** Rolls back what an example staged; after a commit, puts the committed files back as they were, by reverting it. */
async function restoreAfter(tool: string): Promise<void> {
  await invoke('transaction-rollback', {});
  if (tool !== 'transaction-commit') return;
  expectOk(await invoke('transaction-revert', {}));
  expectOk(await invoke('transaction-commit', {}));
}

describe('contract: every registered tool', function () {
  let initialDigest: string;
  let workspaceId: string;

  before(async function () {
    await activateExtension();
    ensureEscapeLink();
    await waitForSymbols('src/greeter.ts');
    initialDigest = digestTree(workspaceRoot());
    workspaceId = expectOk(await invoke('workspace-list', {})).snapshot.workspaceId;
  });

  it('registers exactly the listed tools with vscode.lm, under their mechanical names', function () {
    const registered = vscode.lm.tools
      .filter((t) => t.name.startsWith(TOOL_NAME_PREFIX))
      .map((t) => t.name)
      .sort();
    assert.deepEqual(registered, ALL_TOOLS.map((t) => registeredToolName(t.name)).sort());
    const naming = new DoorNaming(
      'vscode.lm',
      ALL_TOOLS.map((d) => d.name),
    );
    const CANONICAL_NAME = new RegExp(`(?<![\\w./-])(${ALL_TOOLS.map((d) => d.name).join('|')})(?![\\w/-])`);
    for (const t of vscode.lm.tools.filter((x) => x.name.startsWith(TOOL_NAME_PREFIX))) {
      assert.match(t.name, /^[\w-]{1,64}$/);
      const definition = ALL_TOOLS.find((d) => registeredToolName(d.name) === t.name);
      assert.ok(definition);
      assert.equal(
        t.description,
        naming.forDoor(definition.description),
        `${t.name} shows the model its definition's description, naming tools as this door does`,
      );
      assert.doesNotMatch(t.description, CANONICAL_NAME, `${t.name}'s description names no tool by a name this door does not serve`);
      assert.ok(t.inputSchema, `${t.name} has an input schema`);
    }
  });

  for (const tool of ALL_TOOLS) {
    describe(tool.name, function () {
      for (const example of tool.examples) {
        it(`answers its example "${example.id}" with an envelope that validates against its output schema`, async function () {
          // Examples name the sample's documents with a placeholder folder id.
          const request = JSON.parse(JSON.stringify(example.request).replaceAll(`${EXAMPLE_SHORT_ID}:`, `${workspaceId.slice(0, 8)}:`)) as unknown;
          const changes = tool.category === 'Mutations' || tool.category === 'Transactions';
          if (changes) await startFromStagedEdit(tool.name);
          try {
            // invoke() validates the envelope against the declared output schema.
            const envelope = await invoke(tool.name, request);
            const expected = EXAMPLES_THAT_MAY_REFUSE[tool.name];
            if (expected) assert.ok(envelope.ok || expected.includes(envelope.error.code), JSON.stringify(envelope));
            else assert.ok(envelope.ok, JSON.stringify(envelope));
          } finally {
            if (changes) await restoreAfter(tool.name);
          }
        });
      }

      for (const bad of malformedInputs(tool)) {
        it(`refuses ${bad.label} with InvalidRequest naming ${bad.field}`, async function () {
          const failure = expectError(await invoke(tool.name, bad.input), 'InvalidRequest');
          assert.ok(failure.error.message.includes(bad.field), `message names ${bad.field}: ${failure.error.message}`);
          assert.equal(failure.continuation?.kind, 'ReviseRequest');
        });
      }

      for (const outside of outsidePaths(tool)) {
        it(`refuses ${outside.label} with WorkspacePathNotAllowed naming ${outside.field}`, async function () {
          const input = JSON.parse(JSON.stringify(outside.input).replace('00000000:', `${workspaceId.slice(0, 8)}:`)) as unknown;
          const failure = expectError(await invoke(tool.name, input), 'WorkspacePathNotAllowed');
          assert.match(failure.error.message, /not allowed/);
          assert.ok(failure.error.message.startsWith(outside.field), `message names ${outside.field}: ${failure.error.message}`);
        });
      }
    });
  }

  describe('after every call above', function () {
    it('changed nothing on disk', function () {
      assert.equal(digestTree(workspaceRoot()), initialDigest);
    });
  });
});
