import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { registeredToolName, TOOL_NAME_PREFIX } from '../../src/core/definition';
import type { JsonSchema } from '../../src/core/schemas';
import { ALL_TOOLS } from '../../src/tools';
import { activateExtension, ensureEscapeLink, digestTree, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

/** Inputs every tool must refuse, with the field its message must name. */
function malformedInputs(tool: (typeof ALL_TOOLS)[number]): { label: string; input: unknown; field: string }[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (tool.inputSchema.required ?? []) as string[];
  const cases: { label: string; input: unknown; field: string }[] = [
    { label: 'an unknown top-level field', input: { bogusField: 1 }, field: 'bogusField' },
    { label: 'a workspace selector of the wrong type', input: { workspace: 42 }, field: 'workspace' },
    { label: 'an unknown field in the workspace selector', input: { workspace: { alias: 'sample', colour: 'red' } }, field: 'workspace.colour' },
    { label: 'a huge string', input: { workspace: { alias: 'x'.repeat(200_000) } }, field: 'workspace.alias' },
    { label: 'a malformed expectedSnapshot', input: { expectedSnapshot: { workspaceId: 'not-a-uuid' } }, field: 'expectedSnapshot' },
  ];
  if (required.length > 0) cases.push({ label: 'missing required fields', input: {}, field: required[0] });
  if (properties.location) {
    cases.push({
      label: 'a location with both span and selection',
      input: { location: { span: { document: { path: 'src/util.ts' }, range: { start: 0, length: 1 } }, selection: { document: { path: 'src/util.ts' }, selectedText: 'x' } } },
      field: 'location',
    });
    cases.push({ label: 'a negative offset', input: { location: { span: { document: { path: 'src/util.ts' }, range: { start: -1, length: 1 } } } }, field: 'location.span.range.start' });
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
  if (properties.project) {
    return ['../outside/package.json', '/etc/package.json'].map((p) => ({ label: `project path ${p}`, input: { project: { path: p } }, field: 'project.path' }));
  }
  return [];
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
    const registered = vscode.lm.tools.filter((t) => t.name.startsWith(TOOL_NAME_PREFIX)).map((t) => t.name).sort();
    assert.deepEqual(registered, ALL_TOOLS.map((t) => registeredToolName(t.name)).sort());
    for (const t of vscode.lm.tools.filter((x) => x.name.startsWith(TOOL_NAME_PREFIX))) {
      assert.match(t.name, /^[\w-]{1,64}$/);
      const definition = ALL_TOOLS.find((d) => registeredToolName(d.name) === t.name);
      assert.equal(t.description, definition?.description, `${t.name} shows the model its definition's description`);
      assert.ok(t.inputSchema, `${t.name} has an input schema`);
    }
  });

  for (const tool of ALL_TOOLS) {
    describe(tool.name, function () {
      for (const example of tool.examples) {
        it(`answers its example "${example.id}" with an envelope that validates against its output schema`, async function () {
          // invoke() validates the envelope against the declared output schema.
          const envelope = await invoke(tool.name, example.request);
          if (tool.name !== 'get-error-details') assert.ok(envelope.ok, JSON.stringify(envelope));
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
