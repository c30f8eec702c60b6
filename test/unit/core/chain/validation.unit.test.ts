import * as assert from 'node:assert/strict';
import type { AnyToolDefinition } from '../../../../src/core/chain/definition';
import { compileInputValidator, compileSchema } from '../../../../src/core/chain/validation';
import type { InputValidator } from '../../../../src/core/chain/validation';
import { ALL_TOOLS } from '../../../../src/tools';

function toolNamed(name: string): AnyToolDefinition {
  const tool = ALL_TOOLS.find((t) => t.name === name);
  assert.ok(tool, `no tool ${name}`);
  return tool;
}

const span = (document: Record<string, unknown>, range: Record<string, unknown> = { start: 0, length: 1 }) => ({ location: { span: { document, range } } });

describe('validation: real tool input schemas', () => {
  let codeContext: InputValidator;
  let projectDetails: InputValidator;
  let errorDetails: InputValidator;
  let workspaceList: InputValidator;

  before(() => {
    codeContext = compileInputValidator(toolNamed('get-code-context').inputSchema);
    projectDetails = compileInputValidator(toolNamed('get-project-details').inputSchema);
    errorDetails = compileInputValidator(toolNamed('get-error-details').inputSchema);
    workspaceList = compileInputValidator(toolNamed('workspace-list').inputSchema);
  });

  const problems = (validate: InputValidator, input: unknown): string[] => {
    const result = validate(input);
    assert.equal(result.valid, false, `expected ${JSON.stringify(input).slice(0, 200)} to be refused`);
    assert.ok(result.problems.length > 0);
    return result.problems;
  };

  it('accepts well-formed requests', () => {
    assert.deepEqual(codeContext(span({ path: 'src/a.ts' })), { valid: true, problems: [] });
    assert.equal(
      codeContext({ location: { selection: { document: { documentId: 'abcd1234:src/a.ts' }, selectedText: 'x', contextBefore: null } }, contextLines: 3 })
        .valid,
      true,
    );
    assert.equal(workspaceList({}).valid, true);
    assert.equal(workspaceList({ workspacesLimit: null, workspace: null, expectedSnapshot: null }).valid, true);
  });

  it('names fields of the wrong type', () => {
    assert.deepEqual(problems(codeContext, span({ path: 'a.ts' }, { start: '3', length: 1 })), ['location.span.range.start: must be integer']);
    assert.deepEqual(problems(codeContext, { ...span({ path: 'a.ts' }), contextLines: 'ten' }), ['contextLines: must be integer,null']);
    assert.deepEqual(problems(workspaceList, { workspacesLimit: 1.5 }), ['workspacesLimit: must be integer,null']);
    assert.deepEqual(problems(codeContext, { ...span({ path: 'a.ts' }), includeSymbols: 'yes' }), ['includeSymbols: must be boolean']);
  });

  it('names out-of-range numbers', () => {
    assert.deepEqual(problems(codeContext, span({ path: 'a.ts' }, { start: -1, length: 1 })), ['location.span.range.start: must be >= 0']);
    assert.deepEqual(problems(workspaceList, { workspacesLimit: 100000 }), ['workspacesLimit: must be <= 1000']);
  });

  it('names missing required fields, top-level and nested', () => {
    assert.deepEqual(problems(codeContext, {}), ['location: required field is missing']);
    assert.deepEqual(problems(codeContext, span({ path: 'a.ts' }, { start: 0 })), ['location.span.range.length: required field is missing']);
    assert.deepEqual(problems(errorDetails, {}), ['correlationId: required field is missing']);
    assert.deepEqual(problems(projectDetails, { project: {} }), ['project: must NOT have fewer than 1 properties']);
  });

  it('names unknown fields, top-level and nested', () => {
    assert.deepEqual(problems(workspaceList, { limit: 3 }), ["limit: unknown field (not in the tool's input schema)"]);
    assert.deepEqual(problems(codeContext, span({ path: 'a.ts', extra: true })), [
      "location.span.document.extra: unknown field (not in the tool's input schema)",
    ]);
    assert.deepEqual(
      problems(codeContext, span({ path: 'a.ts', project: { name: 'p' } })),
      ["location.span.document.project: unknown field (not in the tool's input schema)"],
      'nested document selectors carry no project',
    );
    assert.deepEqual(problems(workspaceList, { workspace: { alias: 'a', folder: 'x' } }), ["workspace.folder: unknown field (not in the tool's input schema)"]);
    assert.deepEqual(
      problems(workspaceList, {
        expectedSnapshot: {
          workspaceId: '8f14e45f-ceea-467f-a0e6-6c3b6f5e4c1d',
          workspaceEpoch: 1,
          snapshotId: '8f14e45f-ceea-467f-a0e6-6c3b6f5e4c1d',
          transactionRevision: null,
          stale: true,
        },
      }),
      ["expectedSnapshot.stale: unknown field (not in the tool's input schema)"],
    );
  });

  it('refuses strings over maxLength, naming the limit', () => {
    assert.deepEqual(problems(codeContext, span({ path: 'a'.repeat(4097) })), ['location.span.document.path: too long (at most 4096 characters)']);
    const selection = { location: { selection: { document: { path: 'a.ts' }, selectedText: 'x'.repeat(20_001) } } };
    assert.deepEqual(problems(codeContext, selection), ['location.selection.selectedText: too long (at most 20000 characters)']);
    assert.deepEqual(problems(workspaceList, { workspace: { alias: 'a'.repeat(513) } }), ['workspace.alias: too long (at most 512 characters)']);
  });

  it('refuses malformed uuids', () => {
    assert.deepEqual(problems(errorDetails, { correlationId: 'not-a-uuid' }), ['correlationId: must match format "uuid"']);
  });

  // The compact schemas refuse two alternatives (maxProperties 1); none is refused by ToolContext (codeContext.unit.test.ts).
  it('names both alternatives when a location gives span and selection', () => {
    const location = { span: { document: { path: 'a.ts' }, range: { start: 0, length: 0 } }, selection: { document: { path: 'a.ts' }, selectedText: 'x' } };
    assert.deepEqual(problems(codeContext, { location }), ['location: provide exactly one of span or selection']);
  });

  it('refuses unknown fields in a document selector (path/documentId alternatives are checked by ToolContext)', () => {
    const selection = { location: { selection: { document: { project: null }, selectedText: 'x' } } };
    assert.deepEqual(problems(codeContext, selection), ["location.selection.document.project: unknown field (not in the tool's input schema)"]);
  });

  it('reports every offending field at once', () => {
    const result = problems(codeContext, { location: { span: { document: { path: 'a'.repeat(4097) }, range: { start: -1, length: 'x' } } }, bogus: 1 });
    assert.ok(
      result.some((p) => p.startsWith('bogus: unknown field')),
      result.join('\n'),
    );
    assert.ok(
      result.some((p) => p.startsWith('location.span.range.start:')),
      result.join('\n'),
    );
    assert.ok(
      result.some((p) => p.startsWith('location.span.range.length:')),
      result.join('\n'),
    );
    assert.ok(
      result.some((p) => p.startsWith('location.span.document.path:')),
      result.join('\n'),
    );
    assert.equal(new Set(result).size, result.length, 'problems are deduplicated');
  });

  it('refuses non-object inputs', () => {
    assert.deepEqual(problems(workspaceList, null), ['input: must be object']);
    assert.deepEqual(problems(workspaceList, [1]), ['input: must be object']);
  });
});

describe('validation: compileSchema', () => {
  it('validates formats (uuid, date-time)', () => {
    const validate = compileSchema({ type: 'object', properties: { id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' } } });
    assert.equal(validate({ id: '8f14e45f-ceea-467f-a0e6-6c3b6f5e4c1d', at: new Date(0).toISOString() }), true);
    assert.equal(validate({ id: 'nope' }), false);
    assert.equal(validate({ at: 'yesterday' }), false);
  });
});
