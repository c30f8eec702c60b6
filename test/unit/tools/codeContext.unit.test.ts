import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { utf8Bytes } from '../../../src/core/chain/bounding';
import { selectorOf } from '../../../src/core/documents/context';
import type { CodeContextData as CodeContext } from '../../../src/tools/codeContext';
import { FAKE_ROOT, FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const GREETER_LINES = [
  '// 😀 greeting module',
  'export class Greeter {',
  '\tprivate readonly prefix = "hi";',
  '',
  '\tgreet(name: string): string {',
  '\t\tconst message = "😀" + name;',
  '\t\treturn message;',
  '\t}',
  '}',
  '',
];
const GREETER = GREETER_LINES.join('\r\n');
const UTIL = 'export function twice(x: number): number {\n  return x * 2;\n}\n';

/** One-based line and UTF-16 column of an offset, computed independently of LineIndex. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split(/\r\n|\r|\n/).length;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line, column: offset - lineStart + 1 };
}

const selection = (pathOrId: { path: string } | { documentId: string }, selectedText: string, extra: Record<string, unknown> = {}) => ({
  location: { selection: { document: pathOrId, selectedText, ...extra } },
});
const span = (document: { path: string } | { documentId: string }, start: number, length: number) => ({
  location: { span: { document, range: { start, length } } },
});

describe('tools: get-code-context', () => {
  let h: Harness;
  let greeterPath: string;
  let utilPath: string;
  let shortId: string;

  beforeEach(async () => {
    const host = new FakeHost();
    const folder = host.addFolder('app', { 'tsconfig.json': '{}\n', 'src/greeter.ts': GREETER, 'src/util.ts': UTIL, 'src/dup.ts': 'a\n' });
    host.writeFile(path.join(FAKE_ROOT, 'secrets', 'key.pem'), 'secret', { notify: false });
    host.symlink(host.abs(folder, 'src/key.ts'), path.join(FAKE_ROOT, 'secrets', 'key.pem'));
    greeterPath = host.abs(folder, 'src/greeter.ts');
    utilPath = host.abs(folder, 'src/util.ts');
    host.setSymbols(
      greeterPath,
      symbolsIn(GREETER, [
        {
          name: 'Greeter',
          kind: 'Class',
          from: 'export class Greeter',
          to: '\r\n}',
          children: [
            { name: 'prefix', kind: 'Property', from: 'private readonly prefix', to: ';' },
            { name: 'greet', kind: 'Method', detail: '(name: string) => string', from: 'greet(', to: '\t}' },
          ],
        },
      ]),
    );
    h = await createHarness({ host });
    shortId = h.registry.all()[0].shortId;
  });

  it('resolves a selection in a CRLF file after an emoji and tabs: span, line/column, window, symbols', async () => {
    const envelope = await h.ok<CodeContext>('get-code-context', { ...selection({ path: 'src/greeter.ts' }, '+ name'), contextLines: 1 });
    const d = envelope.data;
    const start = GREETER.indexOf('+ name');
    assert.deepEqual(d.location.span, { start, length: 6 });
    assert.equal(d.location.line, 6);
    assert.equal(d.location.column, 24, 'two tabs, 17 characters, a surrogate pair and 2 more: column 24 in UTF-16 units');
    assert.deepEqual({ line: d.location.line, column: d.location.column }, lineColumn(GREETER, start));
    assert.equal(d.location.documentId, `${shortId}:src/greeter.ts`);
    assert.deepEqual(selectorOf(d.location), { span: { document: { documentId: `${shortId}:src/greeter.ts` }, range: { start, length: 6 } } });
    assert.equal(d.location.snapshot, undefined, "the answer's own snapshot is said once, in the envelope");
    assert.equal(d.eol, 'CRLF');
    assert.equal(d.languageId, 'typescript');
    assert.equal(d.source, 'disk');
    assert.equal(d.isDirty, false);
    assert.deepEqual(d.window, { startLine: 5, endLine: 7, text: GREETER_LINES.slice(4, 7).join('\r\n'), contextLines: 1, truncated: false });
    assert.equal(d.symbolProvider, 'available');
    assert.deepEqual(
      d.enclosingSymbols.map((s) => [s.name, s.kind, s.detail, s.signature]),
      [
        ['Greeter', 'Class', '', 'export class Greeter'],
        ['greet', 'Method', '(name: string) => string', 'greet(name: string): string'],
      ],
    );
    const [cls, method] = d.enclosingSymbols.map((s) => s.location);
    assert.deepEqual([cls.line, cls.column, cls.span.start, cls.span.length], [2, 14, GREETER.indexOf('Greeter {'), 7]);
    assert.deepEqual([method.line, method.column, method.span.start, method.span.length], [5, 2, GREETER.indexOf('greet('), 5]);
  });

  it('uses ten context lines by default and clips the window to the document', async () => {
    const d = (await h.ok<CodeContext>('get-code-context', selection({ path: 'src/greeter.ts' }, 'greeting'))).data;
    assert.equal(d.window.startLine, 1);
    assert.equal(d.window.endLine, GREETER_LINES.length);
    assert.equal(d.window.text, GREETER);
    assert.equal(d.window.contextLines, 10);
    assert.deepEqual(d.enclosingSymbols, []);
  });

  it('narrows with contextBefore/contextAfter', async () => {
    const d = (await h.ok<CodeContext>('get-code-context', selection({ path: 'src/greeter.ts' }, 'message', { contextBefore: 'return ' }))).data;
    assert.equal(d.location.span.start, GREETER.indexOf('return message') + 'return '.length);
    assert.equal(d.location.line, 7);
  });

  it('reads the dirty buffer, not the disk', async () => {
    const edited = `// unsaved line\n${UTIL.replace('x * 2', 'x + x')}`;
    h.host.openDocument(utilPath, edited);
    const d = (await h.ok<CodeContext>('get-code-context', { ...selection({ path: 'src/util.ts' }, 'x + x'), contextLines: 0 })).data;
    assert.equal(d.source, 'buffer');
    assert.equal(d.isDirty, true);
    assert.equal(d.eol, 'LF');
    assert.equal(d.location.span.start, edited.indexOf('x + x'));
    assert.equal(d.location.line, 3);
    assert.equal(d.window.text, '  return x + x;');
    const failure = await h.fail('get-code-context', selection({ path: 'src/util.ts' }, 'x * 2'), 'LocationNotFound');
    assert.match(failure.error.message, /unsaved changes included/);
  });

  it('answers LocationAmbiguous listing every candidate as a selector that resolves again', async () => {
    const failure = await h.fail('get-code-context', selection({ path: 'src/greeter.ts' }, 'message'), 'LocationAmbiguous');
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    assert.match(failure.error.message, /occurs 2 times/);
    const expected = [GREETER.indexOf('message'), GREETER.lastIndexOf('message')];
    const listed = [...failure.error.message.matchAll(/\{"span":\{"document":\{"documentId":"[^"]+"\},"range":\{"start":\d+,"length":\d+\}\}\}/g)].map(
      (m) => JSON.parse(m[0]) as ReturnType<typeof selectorOf>,
    );
    assert.deepEqual(
      listed.map((s) => s.span.range.start),
      expected,
    );
    for (const selector of listed) {
      assert.equal(selector.span.document.documentId, `${shortId}:src/greeter.ts`);
      const again = await h.ok<CodeContext>('get-code-context', { location: selector, contextLines: 0 });
      assert.deepEqual(again.data.location.span, selector.span.range);
    }
    for (const offset of expected) {
      const { line, column } = lineColumn(GREETER, offset);
      assert.match(failure.error.message, new RegExp(`line ${line} column ${column} `));
    }
  });

  it('answers LocationNotFound with a whitespace near miss that can be used as is', async () => {
    const failure = await h.fail('get-code-context', selection({ path: 'src/greeter.ts' }, 'return  message;'), 'LocationNotFound');
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    assert.match(failure.error.message, /different whitespace/);
    const start = GREETER.indexOf('return message;');
    const selectorText = JSON.stringify({
      span: { document: { documentId: `${shortId}:src/greeter.ts` }, range: { start, length: 'return message;'.length } },
    });
    assert.ok(failure.error.message.includes(selectorText), failure.error.message);
    assert.ok(failure.error.message.includes(`${selectorText}: same text with different whitespace or line endings: "return message;"`), failure.error.message);
    const again = await h.ok<CodeContext>('get-code-context', { location: JSON.parse(selectorText) as unknown, contextLines: 0 });
    assert.equal(again.data.window.text, '\t\treturn message;');
  });

  it('answers LocationNotFound pointing to get-code-context when nothing is similar', async () => {
    const failure = await h.fail('get-code-context', selection({ path: 'src/greeter.ts' }, 'zzz-qqq'), 'LocationNotFound');
    assert.equal(failure.continuation?.kind, 'CallTool');
    assert.match(failure.error.message, /Nothing similar/);
  });

  it('accepts spans up to the end of the document and refuses spans outside it', async () => {
    const end = GREETER.length;
    const atEnd = await h.ok<CodeContext>('get-code-context', { ...span({ path: 'src/greeter.ts' }, end, 0), contextLines: 0 });
    assert.deepEqual(atEnd.data.location.span, { start: end, length: 0 });
    assert.equal(atEnd.data.location.line, GREETER_LINES.length);
    for (const [start, length] of [
      [end, 1],
      [end + 1, 0],
      [10, end],
    ]) {
      const failure = await h.fail('get-code-context', span({ path: 'src/greeter.ts' }, start, length), 'LocationNotFound');
      assert.match(failure.error.message, new RegExp(`${end} UTF-16 code units`));
    }
  });

  it('refuses a span that splits a surrogate pair', async () => {
    const emoji = GREETER.indexOf('😀');
    const starts = await h.fail('get-code-context', span({ path: 'src/greeter.ts' }, emoji + 1, 3), 'InvalidRequest');
    assert.match(starts.error.message, /surrogate pair/);
    const ends = await h.fail('get-code-context', span({ path: 'src/greeter.ts' }, emoji - 3, 4), 'InvalidRequest');
    assert.match(ends.error.message, /surrogate pair/);
    await h.ok('get-code-context', span({ path: 'src/greeter.ts' }, emoji, 2));
  });

  it('round-trips a documentId and the returned selector', async () => {
    const first = (await h.ok<CodeContext>('get-code-context', selection({ path: 'src/greeter.ts' }, 'prefix = '))).data;
    const byId = (
      await h.ok<CodeContext>('get-code-context', span({ documentId: first.location.documentId }, first.location.span.start, first.location.span.length))
    ).data;
    assert.deepEqual(byId.location, first.location);
    const bySelector = (await h.ok<CodeContext>('get-code-context', { location: selectorOf(first.location) })).data;
    assert.deepEqual(bySelector.location, first.location);
    assert.deepEqual(
      bySelector.enclosingSymbols.map((s) => s.name),
      ['Greeter', 'prefix'],
    );
  });

  it('refuses a location or document selector that names neither alternative, saying which to give', async () => {
    const none = await h.fail('get-code-context', { location: {} }, 'InvalidRequest');
    assert.match(none.error.message, /^location: provide exactly one of span or selection/);
    const noDocument = await h.fail('get-code-context', { location: { selection: { document: {}, selectedText: 'greet' } } }, 'InvalidRequest');
    assert.match(noDocument.error.message, /^location\.selection\.document: provide exactly one of path or documentId/);
    assert.equal(noDocument.continuation?.kind, 'ReviseRequest');
    const both = await h.fail('get-code-context', span({ path: 'src/greeter.ts', documentId: `${shortId}:src/greeter.ts` }, 0, 1), 'InvalidRequest');
    assert.match(both.error.message, /^location\.span\.document: provide exactly one of path or documentId/);
  });

  it('refuses a documentId of no open folder', async () => {
    const failure = await h.fail('get-code-context', span({ documentId: 'deadbeef:src/greeter.ts' }, 0, 1), 'DocumentNotFound');
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    await h.fail('get-code-context', span({ documentId: 'src/greeter.ts' }, 0, 1), 'DocumentNotFound');
  });

  it('answers DocumentNotFound naming files with the same name', async () => {
    const failure = await h.fail('get-code-context', span({ path: 'lib/util.ts' }, 0, 1), 'DocumentNotFound');
    assert.match(failure.error.message, /src\/util\.ts/);
  });

  describe('expectedSnapshot', () => {
    it('is not stale when only another document changed, and stale when the touched one changed', async () => {
      const first = await h.ok<CodeContext>('get-code-context', selection({ path: 'src/greeter.ts' }, 'greet('));
      const expectedSnapshot = first.snapshot;
      h.host.writeFile(utilPath, `${UTIL}// saved elsewhere\n`);
      h.host.editBuffer(h.host.abs(h.host.folders()[0], 'src/dup.ts'), 'typing...');
      const stillFine = await h.ok<CodeContext>('get-code-context', { ...selection({ path: 'src/greeter.ts' }, 'greet('), expectedSnapshot });
      assert.notEqual(stillFine.snapshot.snapshotId, expectedSnapshot.snapshotId, 'the folder snapshot moved on');
      assert.deepEqual(stillFine.data.location.span, first.data.location.span);

      h.host.editBuffer(greeterPath, GREETER.replace('greet(', 'greetAll('));
      const failure = await h.fail(
        'get-code-context',
        { ...span({ path: 'src/greeter.ts' }, first.data.location.span.start, 5), expectedSnapshot },
        'SnapshotMismatch',
      );
      assert.match(failure.error.message, /src\/greeter\.ts changed/);
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      const details = await h.ok<{ details: { changedPaths: string[] } }>('get-error-details', { correlationId: failure.error.correlationId });
      assert.deepEqual(details.data.details.changedPaths, ['src/greeter.ts']);

      const current = (await h.ok('workspace-list', {})).snapshot;
      const fresh = await h.ok<CodeContext>('get-code-context', { ...selection({ path: 'src/greeter.ts' }, 'greetAll('), expectedSnapshot: current });
      assert.equal(fresh.data.location.span.length, 'greetAll('.length);
    });

    it('is stale after the folder is reloaded (another epoch)', async () => {
      const first = await h.ok<CodeContext>('get-code-context', selection({ path: 'src/greeter.ts' }, 'greet('));
      const failure = await h.fail(
        'get-code-context',
        { ...selection({ path: 'src/greeter.ts' }, 'greet('), expectedSnapshot: { ...first.snapshot, workspaceEpoch: first.snapshot.workspaceEpoch + 1 } },
        'SnapshotMismatch',
      );
      assert.match(failure.error.message, /reloaded/);
    });
  });

  describe('paths outside the workspace', () => {
    const outside = path.join(FAKE_ROOT, 'secrets', 'key.pem');
    for (const [label, documentPath] of [
      ['a .. path', '../secrets/key.pem'],
      ['a .. path in the middle', 'src/../../secrets/key.pem'],
      ['an absolute path elsewhere', outside],
      ['a file URI elsewhere', pathToFileURL(outside).toString()],
      ['a symlink out', 'src/key.ts'],
    ] as const) {
      it(`refuses ${label} with WorkspacePathNotAllowed`, async () => {
        const failure = await h.fail('get-code-context', selection({ path: documentPath }, 'secret'), 'WorkspacePathNotAllowed');
        assert.equal(failure.continuation?.kind, 'ReviseRequest');
        assert.equal(h.host.callCount('readDocument', outside), 0, 'the outside file was never read');
      });
    }

    it('accepts an absolute path inside the folder', async () => {
      const d = (await h.ok<CodeContext>('get-code-context', selection({ path: greeterPath }, 'greet('))).data;
      assert.equal(d.location.documentId.replace(/^[0-9a-f]{8}:/, ''), 'src/greeter.ts');
    });
  });

  it('reports the symbol provider state: skipped, unavailable, noResult', async () => {
    const skipped = (await h.ok<CodeContext>('get-code-context', { ...selection({ path: 'src/greeter.ts' }, 'greet('), includeSymbols: false })).data;
    assert.equal(skipped.symbolProvider, 'skipped');
    assert.deepEqual(skipped.enclosingSymbols, []);
    const unavailable = (await h.ok<CodeContext>('get-code-context', selection({ path: 'src/util.ts' }, 'twice'))).data;
    assert.equal(unavailable.symbolProvider, 'unavailable');
    h.host.setSymbols(utilPath, []);
    const none = (await h.ok<CodeContext>('get-code-context', selection({ path: 'src/util.ts' }, 'twice'))).data;
    assert.equal(none.symbolProvider, 'noResult');
  });

  it('shrinks the window to fit the output limit and says so', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `const line${i} = "${'x'.repeat(60)}";`);
    h.host.writeFile(h.host.abs(h.host.folders()[0], 'src/big.ts'), lines.join('\n'));
    h.setSettings({ defaultMaxOutputBytes: 8192 });
    const result = await h.call('get-code-context', { ...selection({ path: 'src/big.ts' }, 'line200 '), contextLines: 100 });
    assert.ok(utf8Bytes(result.text) <= 8192);
    assert.ok(result.envelope.ok);
    const d = result.envelope.data as CodeContext;
    assert.ok(d.window.contextLines < 100 && d.window.contextLines > 0, `contextLines ${d.window.contextLines}`);
    assert.equal(d.window.truncated, true);
    assert.equal(d.window.startLine, 201 - d.window.contextLines);
    assert.equal(d.window.endLine, 201 + d.window.contextLines);
  });

  describe('multi-root', () => {
    let multi: Harness;
    let multiHost: FakeHost;
    beforeEach(async () => {
      const host = new FakeHost();
      multiHost = host;
      host.addFolder('app', { 'src/only-app.ts': 'const a = 1;\n', 'shared.ts': 'export const app = 1;\n' });
      host.addFolder('lib', { 'src/only-lib.ts': 'const b = 2;\n', 'shared.ts': 'export const lib = 2;\n' });
      multi = await createHarness({ host });
    });

    it("gives a location's snapshot only when it is another folder's than the answer's", async () => {
      const [app, lib] = multi.registry.all();
      const target = multiHost.abs(multiHost.folders()[1], 'src/only-lib.ts');
      multiHost.navigation.locations = () => [{ absPath: target, range: { start: 6, end: 7 } }];
      multiHost.setSymbols(target, []);
      const envelope = await multi.ok<{ targets: { location: { snapshot?: { workspaceId: string } } }[] }>(
        'go-to-definition',
        selection({ path: 'src/only-app.ts' }, 'a'),
      );
      assert.equal(envelope.snapshot.workspaceId, app.id);
      assert.equal(envelope.data.targets[0].location.snapshot?.workspaceId, lib.id, 'the target lies in the other folder');
    });

    it('finds a path that exists in exactly one folder without a workspace selector', async () => {
      const d = (await multi.ok<CodeContext>('get-code-context', selection({ path: 'src/only-lib.ts' }, 'b = 2'))).data;
      assert.equal(d.location.documentId, `${multi.registry.all()[1].shortId}:src/only-lib.ts`);
      const envelope = await multi.ok<CodeContext>('get-code-context', selection({ path: 'src/only-lib.ts' }, 'b = 2'));
      assert.equal(envelope.snapshot.workspaceId, multi.registry.all()[1].id, 'the answer is the folder of the document');
      assert.equal(d.location.snapshot, undefined);
    });

    it('answers DocumentAmbiguous for a path in both folders, listing both documentIds', async () => {
      const failure = await multi.fail('get-code-context', selection({ path: 'shared.ts' }, 'export'), 'DocumentAmbiguous');
      for (const w of multi.registry.all()) assert.ok(failure.error.message.includes(`${w.shortId}:shared.ts`), failure.error.message);
      const d = (await multi.ok<CodeContext>('get-code-context', selection({ documentId: `${multi.registry.all()[1].shortId}:shared.ts` }, 'export'))).data;
      assert.equal(d.window.text, 'export const lib = 2;\n', 'the window ends with the empty last line');
    });

    it('answers DocumentNotFound for a path in neither folder', async () => {
      const failure = await multi.fail('get-code-context', selection({ path: 'nowhere.ts' }, 'x'), 'DocumentNotFound');
      assert.match(failure.error.message, /app, lib/);
    });

    it('takes no workspace selector: a documentId names its folder', async () => {
      const appId = `${multi.registry.all()[0].shortId}:shared.ts`;
      const failure = await multi.fail('get-code-context', { ...span({ documentId: appId }, 0, 6), workspace: { alias: 'lib' } }, 'InvalidRequest');
      assert.match(failure.error.message, /workspace: unknown field/);
      const d = (await multi.ok<CodeContext>('get-code-context', span({ documentId: appId }, 0, 6))).data;
      assert.equal(d.location.documentId.replace(/^[0-9a-f]{8}:/, ''), 'shared.ts');
    });
  });
});
