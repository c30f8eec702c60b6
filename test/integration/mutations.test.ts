import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocationOutput } from '../../src/core/documents/context';
import { pathOfSymbol, readSymbol } from '../../src/core/symbols/symbols';
import type { SymbolOutput } from '../../src/core/symbols/symbols';
import type { ReferencesData } from '../../src/tools/references';
import { decodeLines, lineReferences, readLines } from '../../src/tools/references';
import type { FixAllData, ListActionsData } from '../../src/tools/codeActions';
import type { SemanticMutationData } from '../../src/tools/shared/semanticStaging';
import type { MutationData } from '../../src/core/transactions/types';
import { activateExtension, expectError, expectOk, invoke, outlineOf, waitForSymbols, workspaceRoot } from './helpers';

const DIR = 'src/semantic';
const file = (name: string): string => `${DIR}/${name}`;
const onDisk = (name: string): string => fs.readFileSync(path.join(workspaceRoot(), DIR, name), 'utf8');
const selection = (name: string, selectedText: string, extra: Record<string, unknown> = {}) => ({
  selection: { document: { path: file(name) }, selectedText, ...extra },
});

/** The staged text of a document (the buffer when it is not staged), read the way an agent reads it. */
async function stagedText(name: string): Promise<string> {
  const answer = expectOk<{ window: { text: string; startLine: number; endLine: number } }>(
    await invoke('get-code-context', {
      location: { span: { document: { path: file(name) }, range: { start: 0, length: 0 } } },
      contextLines: 500,
      includeSymbols: false,
      view: 'staged',
    }),
  );
  return answer.data.window.text;
}

async function rollback(): Promise<void> {
  await invoke('transaction-rollback', {});
}

/** Waits until the TypeScript server reports a diagnostic in a file (quick fixes need it). */
async function waitForDiagnostic(name: string, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const uri = vscode.Uri.file(path.join(workspaceRoot(), DIR, name));
  // TypeScript reports diagnostics only for files shown in an editor tab.
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  const started = Date.now();
  while (!vscode.languages.getDiagnostics(uri).some((d) => pattern.test(d.message))) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`no diagnostic matching ${pattern} in ${name}: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => d.message))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('semantic mutations in a real VS Code: rename-symbol, format-document, code actions', function () {
  this.timeout(180_000);

  const originals: Record<string, string> = {};

  before(async () => {
    await activateExtension();
    for (const name of ['shapes.ts', 'report.ts', 'main.ts', 'needsImport.ts', 'imports.ts', 'messy.ts']) originals[name] = onDisk(name);
    await waitForSymbols(file('shapes.ts'));
    await waitForSymbols(file('report.ts'));
    await rollback();
  });

  afterEach(rollback);

  it('rename-symbol stages a rename across files with exact edits; disk is unchanged until commit', async () => {
    const answer = expectOk<SemanticMutationData>(
      await invoke('rename-symbol', { symbol: { location: selection('shapes.ts', 'areaOf') }, newName: 'surfaceOf' }),
    );
    const d = answer.data;
    assert.equal(d.revision.tool, 'rename-symbol');
    assert.equal(d.revision.summary, 'Rename areaOf to surfaceOf');
    assert.equal(d.transaction.revision, 1);
    assert.equal(d.transaction.canCommit, true);
    // Each changed file says its edits beside its line counts; staged says the totals.
    assert.deepEqual(
      d.documents.items.map((x) => [x.path, x.changeKind, x.edits]),
      [
        [file('imports.ts'), undefined, 2],
        [file('main.ts'), undefined, 2],
        [file('report.ts'), undefined, 2],
        [file('shapes.ts'), undefined, 1],
      ],
    );
    assert.deepEqual([d.documents.hasMore, d.documents.totalCount], [false, 4]);
    assert.deepEqual(d.staged, { edits: 7, fileOperations: 0 });
    for (const name of ['imports.ts', 'main.ts', 'report.ts', 'shapes.ts']) {
      assert.equal(await stagedText(name), originals[name].replaceAll('areaOf', 'surfaceOf'), `staged ${name}`);
      assert.equal(onDisk(name), originals[name], `${name} on disk is unchanged`);
    }
    assert.equal(await stagedText('needsImport.ts'), originals['needsImport.ts'], 'an unresolved name in another file is not renamed');
  });

  it('a document the editor dropped while a provider ran is opened again and asked again; dropped for good, the rename says to retry, not to change the request', async () => {
    const api = await activateExtension();
    const rename = { symbol: { location: selection('shapes.ts', 'areaOf') }, newName: 'surfaceOf' };
    // As VS Code answers when the extension host lost the document ("Unable to retrieve document from URI"), once.
    api.testHooks.injectDocumentGone('vscode.executeDocumentRenameProvider', 1);
    const staged = expectOk<SemanticMutationData>(await invoke('rename-symbol', rename));
    assert.deepEqual(staged.data.staged, { edits: 7, fileOperations: 0 });
    await rollback();
    const references = { symbol: { location: selection('shapes.ts', 'areaOf') }, referencesLimit: 100 };
    const plain = expectOk<ReferencesData>(await invoke('find-references', references));
    api.testHooks.injectDocumentGone('vscode.executeReferenceProvider', 1);
    const again = expectOk<ReferencesData>(await invoke('find-references', references));
    assert.deepEqual([again.data.totalReferences, again.data.complete], [plain.data.totalReferences, true]);
    assert.ok(plain.data.totalReferences >= 7, JSON.stringify(plain.data));
    // Still gone after it was opened again: nothing staged, and the agent is told to call again.
    api.testHooks.injectDocumentGone('vscode.executeDocumentRenameProvider', 5);
    const gone = expectError(await invoke('rename-symbol', rename), 'Cancelled');
    api.testHooks.injectDocumentGone('vscode.executeDocumentRenameProvider', 0);
    assert.equal(gone.continuation?.kind, 'RetryRequest');
    assert.match(gone.error.message, /the editor dropped a document .*Unable to retrieve document from URI '.*shapes\.ts'.*Nothing was staged/);
    const preview = expectOk<{ transaction: unknown }>(await invoke('transaction-preview', {}));
    assert.equal(preview.data.transaction, null);
  });

  it('rename-symbol refuses what the provider refuses, with its reason', async () => {
    const keyword = expectError(await invoke('rename-symbol', { symbol: { location: selection('shapes.ts', 'return') }, newName: 'x' }), 'InvalidRequest');
    assert.match(keyword.error.message, /You cannot rename this element/);
    const builtin = expectError(
      await invoke('rename-symbol', { symbol: { location: selection('main.ts', 'console') }, newName: 'terminal' }),
      'InvalidRequest',
    );
    assert.match(builtin.error.message, /You cannot rename elements that are defined in the standard TypeScript library/);
    assert.equal(keyword.continuation?.kind, 'ReviseRequest');
    const same = expectError(await invoke('rename-symbol', { symbol: { location: selection('shapes.ts', 'areaOf') }, newName: 'areaOf' }), 'InvalidRequest');
    assert.match(same.error.message, /already named areaOf; nothing was staged/);
    // Plain text has no rename provider: VS Code's rename answers an empty edit, which is said as such, not as "no edits".
    const notes = path.join(workspaceRoot(), DIR, 'notes.txt');
    fs.writeFileSync(notes, 'areaOf is mentioned here\n');
    try {
      const plain = expectError(
        await invoke('rename-symbol', { symbol: { location: selection('notes.txt', 'areaOf') }, newName: 'surfaceOf' }),
        'UnsupportedLanguageFeature',
      );
      assert.match(plain.error.message, /plaintext/);
      assert.equal(plain.continuation?.kind, 'ResolveExternally');
    } finally {
      fs.rmSync(notes);
    }
    assert.deepEqual(await Promise.all(['shapes.ts', 'main.ts'].map(stagedText)), [originals['shapes.ts'], originals['main.ts']], 'nothing staged');
  });

  it('a rename that overlaps a staged text edit answers TransactionConflicted and stages nothing', async () => {
    expectOk(await invoke('edit-text', { edits: [{ location: selection('main.ts', 'areaOf(4, 5)'), newText: 'areaOf(5, 5)' }] }));
    const failure = expectError(
      await invoke('rename-symbol', { symbol: { location: selection('shapes.ts', 'areaOf') }, newName: 'surfaceOf' }),
      'TransactionConflicted',
    );
    assert.ok(failure.continuation);
    assert.equal(await stagedText('shapes.ts'), originals['shapes.ts'], 'nothing of the rename was staged');
    assert.equal(await stagedText('main.ts'), originals['main.ts'].replace('areaOf(4, 5)', 'areaOf(5, 5)'));
  });

  it("symbol edits meeting a staged change at one point are placed beside it: a class's last method body, two insertions after the class, a replaced line", async () => {
    const greeter = 'src/greeter.ts';
    const util = 'src/util.ts';
    await waitForSymbols(greeter);
    await waitForSymbols(util);
    const read = (p: string) => fs.readFileSync(path.join(workspaceRoot(), p), 'utf8');
    const staged = async (p: string) =>
      expectOk<{ window: { text: string } }>(
        await invoke('get-code-context', {
          location: { span: { document: { path: p }, range: { start: 0, length: 0 } } },
          contextLines: 500,
          includeSymbols: false,
          view: 'staged',
        }),
      ).data.window.text;
    const at = (p: string, selectedText: string, extra: Record<string, string> = {}) => ({
      symbol: { location: { selection: { document: { path: p }, selectedText, ...extra } } },
    });
    const before = { greeter: read(greeter), util: read(util) };

    expectOk(await invoke('replace-symbol-body', { ...at(greeter, 'loud'), text: 'return shout(name);' }));
    expectOk(
      await invoke('insert-after-symbol', {
        ...at(greeter, 'Greeter', { contextBefore: 'class ' }),
        text: '\nexport const quiet = (name: string): string => name;',
      }),
    );
    // The same point again: after what is staged there, in staging order.
    const second = expectOk<MutationData>(
      await invoke('insert-after-symbol', {
        ...at(greeter, 'Greeter', { contextBefore: 'class ' }),
        text: 'export const whisper = (name: string): string => quiet(name);',
      }),
    );
    assert.equal(second.data.transaction.revision, 3);
    assert.deepEqual(second.data.documents.items, [{ path: greeter, addedLines: 1 }]);
    assert.equal(
      await staged(greeter),
      before.greeter.replace(
        '    return shout(this.greet(name));\n  }\n}\n',
        '    return shout(name);\n  }\n}\n\nexport const quiet = (name: string): string => name;\nexport const whisper = (name: string): string => quiet(name);\n',
      ),
    );
    // An insertion at the end of a line edit-text replaced goes after the new text.
    expectOk(await invoke('edit-text', { edits: [{ location: { selection: { document: { path: util }, selectedText: "'1.0.0';" } }, newText: "'1.1.0';" }] }));
    expectOk(await invoke('insert-after-symbol', { ...at(util, 'VERSION'), text: "export const MAJOR = VERSION.split('.')[0];" }));
    assert.equal(await staged(util), before.util.replace("'1.0.0';\n", "'1.1.0';\nexport const MAJOR = VERSION.split('.')[0];\n"));

    const preview = expectOk<{ documents: { document: { path: string }; changeKind: string }[] }>(await invoke('transaction-preview', {}));
    assert.deepEqual(
      preview.data.documents.map((d) => [d.document.path, d.changeKind]),
      [
        [greeter, 'Modified'],
        [util, 'Modified'],
      ],
    );
    const check = expectOk<{ state: string; introduced: { totalCount: number } }>(await invoke('transaction-check', {}));
    assert.equal(check.data.state, 'checked', JSON.stringify(check.data));
    assert.equal(check.data.introduced.totalCount, 0, JSON.stringify(check.data));
    assert.deepEqual({ greeter: read(greeter), util: read(util) }, before, 'nothing written');
  });

  it('navigation tools answer in the staged view: selectors resolve in the staged text, locations and line text are given in it', async () => {
    expectOk(await invoke('rename-symbol', { symbol: { location: selection('shapes.ts', 'areaOf') }, newName: 'surfaceOf' }));
    expectOk(
      await invoke('edit-text', {
        edits: [{ location: { span: { document: { path: file('report.ts') }, range: { start: 0, length: 0 } } }, newText: '// staged note\n' }],
      }),
    );
    const staged: Record<string, string> = {};
    for (const name of ['imports.ts', 'main.ts', 'report.ts', 'shapes.ts']) staged[name] = await stagedText(name);

    // The symbol selected by its staged name: the language service is asked about the name it replaced.
    const refs = expectOk<ReferencesData>(
      await invoke('find-references', { symbol: { location: selection('shapes.ts', 'surfaceOf') }, view: 'staged', referencesLimit: 100 }),
    ).data;
    assert.equal(refs.totalReferences, 7);
    assert.deepEqual(
      refs.documents.items.map((d) => d.path),
      ['imports.ts', 'main.ts', 'report.ts', 'shapes.ts'].map(file),
    );
    for (const d of refs.documents.items) {
      const text = staged[path.basename(d.path)];
      const lines = text.split('\n');
      const read = readLines(d);
      for (const [i, l] of decodeLines(d).entries()) {
        if (l.import) assert.match(lines[l.line - 1], /^import\b/, `${d.path} line ${l.line}: an import line, given without its text`);
        else assert.equal(read[i].text, lines[l.line - 1].trim(), `${d.path} line ${l.line} is the staged line`);
        for (const at of lineReferences(l)) assert.equal(text.slice(at, at + 'surfaceOf'.length), 'surfaceOf', `${d.path} offset ${at}`);
        assert.deepEqual(l.edited, lineReferences(l), 'every reference is marked edited: the rename replaced its text');
      }
    }
    const lineNumbers = (data: ReferencesData) => data.documents.items.find((d) => d.path === file('report.ts'))?.lines.map((row) => row[0]);
    assert.deepEqual(lineNumbers(refs), [2, 5], 'report.ts lines follow the staged line inserted above');
    assert.equal(refs.symbol.staged, 'edited');
    // The buffer view still answers about the editor's text.
    const inBuffer = expectOk<ReferencesData>(
      await invoke('find-references', { symbol: { location: selection('shapes.ts', 'areaOf') }, referencesLimit: 100 }),
    ).data;
    assert.deepEqual(lineNumbers(inBuffer), [1, 4]);
    assert.ok(
      inBuffer.documents.items.every((d) => decodeLines(d).every((l) => l.edited === undefined && (l.import !== undefined || /areaOf/.test(l.text ?? '')))),
    );
    expectError(await invoke('find-references', { symbol: { location: selection('shapes.ts', 'areaOf') }, view: 'staged' }), 'LocationNotFound');

    // A usage selected in staged text leads to the staged definition.
    // The target is the staged declaration's name, so it is given as that symbol (its symbolId is the selector), its place in the staged text.
    const def = expectOk<{ targets: { location?: LocationOutput; symbol?: SymbolOutput }[] }>(
      await invoke('go-to-definition', { location: selection('main.ts', 'surfaceOf', { contextAfter: '(4' }), view: 'staged' }),
    ).data;
    assert.equal(def.targets.length, 1);
    const target = def.targets[0];
    assert.equal(target.location, undefined, 'exactly the name of the symbol declared there');
    assert.deepEqual(
      [pathOfSymbol(target.symbol?.symbolId ?? ''), target.symbol?.line, target.symbol?.column, target.symbol?.staged],
      [file('shapes.ts'), 1, 17, 'edited'],
    );

    // The outline of a document with a line staged above its symbols.
    const outline = async (view?: string) =>
      outlineOf(await invoke('get-document-outline', { document: { path: file('report.ts') }, ...(view ? { view } : {}) })).symbols.items.find(
        (s) => readSymbol(s).name === 'report',
      );
    const stagedReport = await outline('staged');
    const reportAt = staged['report.ts'].indexOf('report(');
    assert.deepEqual(
      [stagedReport?.line, stagedReport?.column, stagedReport?.staged],
      [4, reportAt - staged['report.ts'].lastIndexOf('\n', reportAt - 1), undefined],
    );
    assert.equal((await outline())?.line, 3);

    // Text only the transaction has is unknown to the language service: said, not guessed.
    const unknown = expectError(await invoke('go-to-definition', { location: selection('report.ts', 'staged note'), view: 'staged' }), 'LocationNotFound');
    assert.match(unknown.error.message, /in text the transaction staged/);
  });

  it('format-document stages the formatter result with the indentation an editor detects for the file', async () => {
    const answer = expectOk<SemanticMutationData>(await invoke('format-document', { document: { path: file('messy.ts') } }));
    assert.equal(answer.data.revision.summary, `Format ${file('messy.ts')}`);
    // Its one indented line has 8 spaces, so an editor opening it detects 8 (editor.detectIndentation), not the default 4.
    assert.equal(
      await stagedText('messy.ts'),
      'export function messy(a: number, b: number) {\n        if (a > b) { return a - b }\n        return b - a;\n}\n',
    );
    assert.equal(onDisk('messy.ts'), originals['messy.ts']);
  });

  it('format-document on a file already formatted at its own indentation: InvalidRequest saying so, not "no formatter"', async () => {
    // VS Code answers "no edits" and "no formatter" alike; TypeScript's formatter is there.
    const refused = expectError(await invoke('format-document', { document: { path: file('shapes.ts') } }), 'InvalidRequest');
    assert.match(refused.error.message, /is already formatted \(tabSize 2, spaces\)/);
    assert.equal(onDisk('shapes.ts'), originals['shapes.ts']);
  });

  it('format-document formats only a range when asked', async () => {
    const text = originals['messy.ts'];
    const start = text.indexOf('if(a>b)');
    expectOk(await invoke('format-document', { document: { path: file('messy.ts') }, range: { start, length: 'if(a>b){return a-b}'.length } }));
    const staged = await stagedText('messy.ts');
    assert.equal(staged.split('\n')[0], text.split('\n')[0], 'the first line is outside the range and stays as it was');
    assert.match(staged, /if \(a > b\) \{ return a - b \}/);
    assert.ok(staged.includes('        return b-a;'), 'the line after the range stays as it was');
  });

  it('stages a refactoring that creates a file (move to a new file): the file operation and its text', async () => {
    const list = expectOk<ListActionsData>(
      await invoke('list-code-actions', { location: selection('shapes.ts', 'export const UNIT = 1;'), kind: 'refactor.move' }),
    );
    const move = list.data.actions.items.find((a) => /new file/i.test(a.title));
    assert.ok(move, `a move-to-new-file refactoring: ${JSON.stringify(list.data.actions.items)}`);
    assert.equal(move.stageable, true, JSON.stringify(move));
    const staged = expectOk<SemanticMutationData>(await invoke('stage-code-action', { actionRef: move.actionRef }));
    assert.equal(staged.data.staged.fileOperations, 1, 'only the new file is created; "create if missing" of edited files is dropped');
    const added = staged.data.documents.items.filter((d) => d.changeKind === 'Added');
    assert.equal(added.length, 1, JSON.stringify(staged.data.documents));
    const created = added[0].path.slice(DIR.length + 1);
    assert.equal(await stagedText(created), '\nexport const UNIT = 1;\n');
    // How many blank lines TypeScript leaves behind varies between runs; the oracle below checks the exact text.
    assert.match(
      await stagedText('shapes.ts'),
      /^export function areaOf\(width: number, height: number\): number \{\n {2}return width \* height;\n\}\n+$/,
      'the declaration left shapes.ts',
    );
    assert.deepEqual(
      staged.data.documents.items
        .filter((f) => (f.edits ?? 0) > 0 || f.changeKind === 'Added')
        .map((f) => f.path)
        .sort(),
      [file('imports.ts'), file('shapes.ts'), file(created)].sort(),
      'the importer of UNIT is updated too',
    );
    assert.equal(
      await stagedText('imports.ts'),
      originals['imports.ts'].replace("import { UNIT, areaOf } from './shapes';\n", 'import { areaOf } from \'./shapes\';\nimport { UNIT } from "./UNIT";\n'),
    );
    assert.equal(fs.existsSync(path.join(workspaceRoot(), DIR, created)), false, 'nothing is created on disk before commit');
    const stagedTexts = await Promise.all([created, 'shapes.ts', 'imports.ts'].map(stagedText));
    await rollback();

    // The oracle: VS Code applying the same refactoring itself gives the staged texts exactly.
    const uriOf = (name: string): vscode.Uri => vscode.Uri.file(path.join(workspaceRoot(), DIR, name));
    const shapes = await vscode.workspace.openTextDocument(uriOf('shapes.ts'));
    const at = originals['shapes.ts'].indexOf('export const UNIT = 1;');
    const range = new vscode.Range(shapes.positionAt(at), shapes.positionAt(at + 'export const UNIT = 1;'.length));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', shapes.uri, range, 'refactor.move', 10);
    const own = actions.find((a) => /new file/i.test(a.title));
    assert.ok(own?.edit);
    assert.ok(await vscode.workspace.applyEdit(own.edit));
    try {
      const applied = await Promise.all(
        [created, 'shapes.ts', 'imports.ts'].map(async (name) => (await vscode.workspace.openTextDocument(uriOf(name))).getText()),
      );
      assert.deepEqual(stagedTexts, applied);
    } finally {
      for (const name of ['shapes.ts', 'imports.ts', created]) {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uriOf(name)));
        await vscode.commands.executeCommand('workbench.action.files.revert');
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      }
      await vscode.workspace.fs.delete(uriOf(created));
    }
    assert.equal(onDisk('shapes.ts'), originals['shapes.ts']);
  });

  it('lists the TypeScript quick fix that adds a missing import, stages it and commits it', async () => {
    await waitForDiagnostic('needsImport.ts', /Cannot find name 'areaOf'/);
    const list = expectOk<ListActionsData>(await invoke('list-code-actions', { location: selection('needsImport.ts', 'areaOf'), kind: 'quickfix' }));
    const fix = list.data.actions.items.find((a) => /import/i.test(a.title) && /shapes/.test(a.title));
    assert.ok(fix, `an add-import quick fix: ${JSON.stringify(list.data.actions.items.map((a) => a.title))}`);
    assert.equal(fix.kind, 'quickfix');
    assert.equal(fix.stageable, true);
    assert.deepEqual(fix.files, [{ path: file('needsImport.ts'), edits: 1 }]);
    const staged = expectOk<SemanticMutationData>(await invoke('stage-code-action', { actionRef: fix.actionRef }));
    assert.equal(staged.data.revision.codeActionKind, 'quickfix');
    // TypeScript infers the quote style from the file itself; this one has no strings, so double quotes.
    const expected = `import { areaOf } from "./shapes";\n\n${originals['needsImport.ts']}`;
    assert.equal(await stagedText('needsImport.ts'), expected);
    assert.equal(onDisk('needsImport.ts'), originals['needsImport.ts']);
    const config = vscode.workspace.getConfiguration('agentWorkbench');
    await config.update('operationalMode', 'autonomous-trusted', vscode.ConfigurationTarget.Global);
    try {
      expectOk(await invoke('transaction-commit', {}));
    } finally {
      await config.update('operationalMode', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(onDisk('needsImport.ts'), expected, 'the commit wrote the staged text');
  });

  it('prepare-fix-all previews organize imports as exact hunks without staging, and its ref stages it', async () => {
    const answer = expectOk<FixAllData>(
      await invoke('prepare-fix-all', { document: { path: file('imports.ts') }, kind: 'source.organizeImports', contextLines: 1 }),
    );
    const d = answer.data;
    assert.ok(d.action, 'organize imports has something to do');
    assert.equal(d.action.kind, 'source.organizeImports');
    assert.deepEqual(d.documents.items, [
      {
        path: file('imports.ts'),
        edits: 3,
        addedLines: 1,
        removedLines: 2,
        changedLines: 0,
        hunks: [
          {
            originalStartLine: 1,
            originalLineCount: 4,
            updatedStartLine: 1,
            updatedLineCount: 3,
            // The unused import goes; the ordinal order of specifiers (UNIT before areaOf) is kept.
            lines: [
              "-import { UNIT, areaOf } from './shapes';",
              "-import { double } from './needsImport';",
              " import { report } from './report';",
              "+import { UNIT, areaOf } from './shapes';",
              ' ',
            ],
          },
        ],
      },
    ]);
    assert.equal(onDisk('imports.ts'), originals['imports.ts']);
    const staged = expectOk<SemanticMutationData>(await invoke('stage-code-action', { actionRef: d.action.actionRef }));
    assert.equal(staged.data.transaction.revision, 1, 'the preview staged nothing before');
    assert.equal(staged.data.revision.codeActionKind, 'source.organizeImports');
    assert.equal(
      await stagedText('imports.ts'),
      originals['imports.ts'].replace(/^[\s\S]*?\n\n/, "import { report } from './report';\nimport { UNIT, areaOf } from './shapes';\n\n"),
    );
  });

  it('a code action ref goes stale when its document changes', async () => {
    const preview = expectOk<FixAllData>(await invoke('prepare-fix-all', { document: { path: file('imports.ts') }, kind: 'source.organizeImports' }));
    const ref = preview.data.action?.actionRef;
    assert.ok(ref);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), DIR, 'imports.ts')));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// typed by a person\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const failure = expectError(await invoke('stage-code-action', { actionRef: ref }), 'SnapshotMismatch');
      assert.equal(failure.continuation?.kind, 'CallTool');
    } finally {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });
});
