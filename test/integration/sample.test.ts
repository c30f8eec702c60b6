import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { selectorOf } from '../../src/core/documents/context';
import type { CodeContextData as CodeContext } from '../../src/tools/codeContext';
import { activateExtension, ensureEscapeLink, expectError, expectOk, invoke, waitForSymbols, workspaceRoot } from './helpers';

const selection = (file: string, selectedText: string, extra: Record<string, unknown> = {}) => ({
  location: { selection: { document: { path: file }, selectedText, ...extra } },
});

describe('tools on the sample workspace', function () {
  before(async function () {
    await activateExtension();
    ensureEscapeLink();
    await waitForSymbols('src/greeter.ts');
    await waitForSymbols('src/windows.ts');
  });

  afterEach(async function () {
    // Undo what the test typed, without saving: the fixture on disk stays as it was.
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  describe('workspace-list and workspace-status', function () {
    it('lists the one open folder with a stable uuid and its snapshot', async function () {
      const first = expectOk<{ workspaces: { items: { workspaceId: string; alias: string; path: string }[]; hasMore: boolean } }>(
        await invoke('workspace-list', {}),
      );
      assert.equal(first.data.workspaces.items.length, 1);
      assert.equal(first.data.workspaces.items[0].alias, 'sample');
      assert.equal(first.data.workspaces.items[0].path, workspaceRoot());
      assert.equal(first.snapshot.workspaceId, first.data.workspaces.items[0].workspaceId);
      const again = expectOk(await invoke('workspace-list', {}));
      assert.equal(again.snapshot.workspaceId, first.snapshot.workspaceId, 'workspaceId is stable');
      assert.ok(first.snapshot.workspaceEpoch >= 1);
    });

    it('reports projects, languages with their services, and unsaved documents', async function () {
      type Open = { openDocuments: { items: { path: string; languageId: string; isDirty: boolean }[] } };
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'src/util.ts')));
      const editor = await vscode.window.showTextDocument(doc);
      // The host keeps its list of open documents until one opens or closes: a later edit still shows, and so does a document opened again.
      const clean = expectOk<Open>(await invoke('workspace-status', {})).data.openDocuments.items;
      assert.equal(clean.find((d) => d.path === 'src/util.ts')?.isDirty, false, JSON.stringify(clean));
      await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// typed by a person\n'));
      // A language change closes the document and opens it again.
      const readme = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'README.md')));
      assert.equal(clean.find((d) => d.path === 'README.md')?.languageId, 'markdown', JSON.stringify(clean));
      await vscode.languages.setTextDocumentLanguage(readme, 'plaintext');
      const status = expectOk<{
        projects: { items: { path: string; kind: string }[] };
        languages: { items: { languageId: string; fileCount: number; languageServices: { extensionId: string }[] }[] };
        openDocuments: { items: { path: string; languageId: string; isDirty: boolean }[] };
        effectiveMode: string;
        transaction: null;
      }>(await invoke('workspace-status', {}));
      const projects = status.data.projects.items.map((p) => `${p.kind}:${p.path}`);
      assert.deepEqual(projects, ['node:package.json', 'node:packages/lib/package.json', 'typescript:tsconfig.json']);
      const ts = status.data.languages.items.find((l) => l.languageId === 'typescript');
      assert.ok(ts && ts.fileCount === 5, `typescript files counted: ${JSON.stringify(status.data.languages.items)}`);
      assert.ok(ts.languageServices.some((s) => s.extensionId === 'vscode.typescript-language-features'));
      const util = status.data.openDocuments.items.find((d) => d.path === 'src/util.ts');
      assert.equal(util?.isDirty, true);
      const relabelled = status.data.openDocuments.items.find((d) => d.path === 'README.md');
      await vscode.languages.setTextDocumentLanguage(readme, 'markdown');
      assert.equal(relabelled?.languageId, 'plaintext', 'a document opened again since the last answer is listed as it is now');
      assert.equal(status.data.effectiveMode, 'transactional');
      assert.equal(status.data.transaction, null);
    });
  });

  describe('get-solution-structure and get-project-details', function () {
    it('says which TypeScript features answer right now', async function () {
      const structure = expectOk<{ workspaces: { items: { languages: { languageId: string; features: Record<string, string> | null }[] }[] } }>(
        await invoke('get-solution-structure', {}),
      );
      const ts = structure.data.workspaces.items[0].languages.find((l) => l.languageId === 'typescript');
      assert.ok(ts?.features, 'typescript was probed');
      for (const feature of ['documentSymbols', 'hover', 'definition', 'references', 'rename', 'foldingRanges']) {
        assert.equal(ts.features[feature], 'available', `${feature} is available for TypeScript: ${JSON.stringify(ts.features)}`);
      }
    });

    it('details a project: its manifest (tsconfig comments allowed) and its own documents only', async function () {
      const details = expectOk<{
        manifest: { format: string; content: { include: string[] } };
        documents: { items: { path: string; languageId: string | null }[] };
        nestedProjects: { path: string }[];
      }>(await invoke('get-project-details', { project: { path: 'tsconfig.json' } }));
      assert.equal(details.data.manifest.format, 'json');
      assert.deepEqual(details.data.manifest.content.include, ['src']);
      const docs = details.data.documents.items.map((d) => d.path);
      assert.ok(docs.includes('src/greeter.ts'));
      assert.ok(!docs.includes('packages/lib/index.js'), 'files of the nested project are not listed');
      assert.deepEqual(
        details.data.nestedProjects.map((p) => p.path),
        ['packages/lib/package.json'],
      );
      assert.ok(!docs.some((d) => d.startsWith('escape/')), `files behind a symbolic link out of the workspace are not listed: ${docs.join(', ')}`);
      expectError(await invoke('get-project-details', { project: { path: 'nope.json' } }), 'ProjectNotFound');
    });
  });

  describe('get-code-context', function () {
    it('resolves a selection after an emoji on a CRLF line with tabs, with UTF-16 columns and enclosing symbols', async function () {
      const answer = expectOk<CodeContext>(await invoke('get-code-context', { ...selection('src/windows.ts', 'guest}'), contextLines: 1 }));
      const text = fs.readFileSync(path.join(workspaceRoot(), 'src/windows.ts'), 'utf8');
      const expectedStart = text.indexOf('guest}');
      assert.equal(answer.data.location.span.start, expectedStart);
      assert.equal(answer.data.location.line, 5);
      // Three tabs, "return `", the waving hand (two UTF-16 units), a space and "${" fill columns 1-16.
      assert.equal(answer.data.location.column, 17);
      assert.equal(answer.data.eol, 'CRLF');
      assert.equal(answer.data.window.startLine, 4);
      assert.equal(answer.data.window.endLine, 6);
      assert.equal(answer.data.window.text, text.split('\r\n').slice(3, 6).join('\r\n'));
      assert.deepEqual(
        answer.data.enclosingSymbols.map((s) => s.name),
        ['Party', 'Host', 'welcome'],
      );
      assert.equal(answer.data.enclosingSymbols[2].signature, 'welcome(guest: string): string');
      assert.equal(answer.data.enclosingSymbols[2].location.line, 4);
      assert.equal(answer.data.symbolProvider, 'available');

      // The canonical selector resolves to the same place again.
      const again = expectOk<CodeContext>(await invoke('get-code-context', { location: selectorOf(answer.data.location), contextLines: 0 }));
      assert.deepEqual(again.data.location.span, answer.data.location.span);
      assert.equal(again.data.window.text, text.split('\r\n')[4]);
    });

    it('reads the unsaved buffer, not the disk', async function () {
      const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/util.ts'));
      const onDisk = fs.readFileSync(uri.fsPath, 'utf8');
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'export const unsavedMarker = 1;\n'));
      const answer = expectOk<CodeContext>(await invoke('get-code-context', selection('src/util.ts', 'unsavedMarker')));
      assert.equal(answer.data.source, 'buffer');
      assert.equal(answer.data.isDirty, true);
      assert.equal(answer.data.location.line, 1);
      assert.equal(fs.readFileSync(uri.fsPath, 'utf8'), onDisk, 'nothing was written');
      expectError(await invoke('get-code-context', selection('src/util.ts', 'const DEFAULT_NAME', { contextAfter: ' = "world"' })), 'LocationNotFound');
    });

    it('lists every candidate of an ambiguous selection, each as a selector that resolves', async function () {
      const failure = expectError(await invoke('get-code-context', selection('src/repeated.ts', 'return 1;')), 'LocationAmbiguous');
      const spans = [...failure.error.message.matchAll(/\{"span":.*?\}\}\}/g)].map((m) => JSON.parse(m[0]) as { span: { range: { start: number } } });
      assert.equal(spans.length, 2, failure.error.message);
      assert.match(failure.error.message, /line 2 column 3/);
      assert.match(failure.error.message, /line 6 column 3/);
      for (const selector of spans) expectOk(await invoke('get-code-context', { location: selector, contextLines: 0 }));
      expectOk(await invoke('get-code-context', selection('src/repeated.ts', 'return 1;', { contextBefore: 'second(): number {\n  ' })));
    });

    it('names the near miss when the selection differs only in whitespace', async function () {
      const failure = expectError(await invoke('get-code-context', selection('src/util.ts', 'const   trimmed =  name.trim();')), 'LocationNotFound');
      assert.match(failure.error.message, /line 2 column 3/);
      assert.match(failure.error.message, /different whitespace or line endings: "const trimmed = name\.trim\(\);"/);
    });

    it('refuses spans outside the document and spans that split an emoji', async function () {
      expectError(
        await invoke('get-code-context', { location: { span: { document: { path: 'src/util.ts' }, range: { start: 100000, length: 1 } } } }),
        'LocationNotFound',
      );
      const text = fs.readFileSync(path.join(workspaceRoot(), 'src/windows.ts'), 'utf8');
      const emoji = text.indexOf('\u{1F389}');
      expectError(
        await invoke('get-code-context', { location: { span: { document: { path: 'src/windows.ts' }, range: { start: emoji + 1, length: 1 } } } }),
        'InvalidRequest',
      );
      expectError(await invoke('get-code-context', selection('src/missing.ts', 'x')), 'DocumentNotFound');
    });

    it('treats expectedSnapshot as stale only when a document the request reads has changed', async function () {
      const first = expectOk<CodeContext>(await invoke('get-code-context', selection('src/greeter.ts', 'greetAll')));
      const snapshot = first.snapshot;
      // A person types in another file: the agent's chain on greeter.ts is not broken.
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'src/util.ts'))));
      await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// elsewhere\n'));
      const afterOther = expectOk(await invoke('get-code-context', { location: selectorOf(first.data.location), expectedSnapshot: snapshot }));
      assert.notEqual(afterOther.snapshot.snapshotId, snapshot.snapshotId, 'the snapshot moved on');
      // Now greeter.ts itself changes: the old span must not be reinterpreted.
      const greeter = await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), 'src/greeter.ts'))),
      );
      await greeter.edit((b) => b.insert(new vscode.Position(0, 0), '// shifted\n'));
      const stale = expectError(
        await invoke('get-code-context', { location: selectorOf(first.data.location), expectedSnapshot: snapshot }),
        'SnapshotMismatch',
      );
      assert.match(stale.error.message, /src\/greeter\.ts/);
      assert.equal(stale.continuation?.kind, 'ReviseRequest');
    });

    it('moves the snapshot on when a file changes on disk', async function () {
      const before = expectOk(await invoke('workspace-list', {})).snapshot;
      fs.writeFileSync(path.join(workspaceRoot(), 'src', 'added-on-disk.ts'), 'export const fromDisk = true;\n');
      const deadline = Date.now() + 20_000;
      let after = before;
      while (after.snapshotId === before.snapshotId && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        after = expectOk(await invoke('workspace-list', {})).snapshot;
      }
      assert.notEqual(after.snapshotId, before.snapshotId, 'a disk change produced a new snapshotId');
      assert.equal(after.workspaceId, before.workspaceId);
      assert.equal(after.workspaceEpoch, before.workspaceEpoch);
      const created = expectOk<CodeContext>(await invoke('get-code-context', selection('src/added-on-disk.ts', 'fromDisk')));
      assert.equal(created.data.source, 'disk');
    });

    it('refuses a path that leaves the workspace through a symbolic link', async function () {
      assert.ok(fs.lstatSync(path.join(workspaceRoot(), 'escape')).isSymbolicLink(), 'the escape link exists');
      const failure = expectError(await invoke('get-code-context', selection('escape/passwd', 'root')), 'WorkspacePathNotAllowed');
      assert.match(failure.error.message, /symbolic link/);
    });
  });

  describe('other languages, through their own language services', function () {
    it('reads CSS with its rule and media symbols', async function () {
      await waitForSymbols('styles/site.css');
      const css = expectOk<CodeContext>(await invoke('get-code-context', { ...selection('styles/site.css', 'font-size: 0.9rem'), contextLines: 1 }));
      assert.equal(css.data.languageId, 'css');
      assert.equal(css.data.location.line, 13);
      assert.deepEqual(
        css.data.enclosingSymbols.map((s) => s.name),
        ['@media (max-width: 600px)', '.greeting'],
      );
    });

    it('reads JSON with its property path', async function () {
      await waitForSymbols('config/greetings.json');
      const json = expectOk<CodeContext>(await invoke('get-code-context', selection('config/greetings.json', '"Bonjour"')));
      assert.equal(json.data.languageId, 'json');
      assert.deepEqual(
        json.data.enclosingSymbols.map((s) => s.name),
        ['languages', 'fr', 'prefix'],
      );
    });

    it('reports their features as available in get-solution-structure', async function () {
      await waitForSymbols('styles/site.css');
      await waitForSymbols('config/greetings.json');
      const structure = expectOk<{ workspaces: { items: { languages: { languageId: string; features: Record<string, string> | null }[] }[] } }>(
        await invoke('get-solution-structure', {}),
      );
      const languages = structure.data.workspaces.items[0].languages;
      for (const id of ['css', 'json']) {
        const language = languages.find((l) => l.languageId === id);
        assert.equal(language?.features?.documentSymbols, 'available', `${id}: ${JSON.stringify(language)}`);
      }
      // CSS has a rename provider, JSON none (VS Code's prepareRename would answer the word at the position for both).
      assert.deepEqual(
        ['css', 'json'].map((id) => languages.find((l) => l.languageId === id)?.features?.rename),
        ['available', 'unavailable'],
      );
    });
  });

  describe('bounded answers', function () {
    interface ProjectDocuments {
      documents: { items: { path: string }[]; hasMore: boolean; totalCount: number };
    }

    it('keeps within the output limit set in the settings, dropping documents from the end', async function () {
      const full = expectOk<ProjectDocuments>(await invoke('get-project-details', { project: { path: 'tsconfig.json' } }));
      assert.equal(full.data.documents.hasMore, false);
      const limit = Math.floor(Buffer.byteLength(JSON.stringify(full)) * 0.75);
      const configuration = vscode.workspace.getConfiguration('agentWorkbench');
      try {
        await configuration.update('defaultMaxOutputBytes', limit, vscode.ConfigurationTarget.Global);
        const result = await vscode.lm.invokeTool('workbench_get_project_details', {
          input: { project: { path: 'tsconfig.json' } },
          toolInvocationToken: undefined,
        });
        const text = (result.content[0] as vscode.LanguageModelTextPart).value;
        assert.ok(Buffer.byteLength(text) <= limit, `${Buffer.byteLength(text)} bytes over ${limit}`);
        const bounded = expectOk<ProjectDocuments>(JSON.parse(text));
        assert.equal(bounded.data.documents.hasMore, true);
        assert.ok(bounded.data.documents.items.length < full.data.documents.items.length);
        assert.deepEqual(
          bounded.data.documents.items,
          full.data.documents.items.slice(0, bounded.data.documents.items.length),
          'items are dropped from the end',
        );
      } finally {
        await configuration.update('defaultMaxOutputBytes', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('honours the token budget VS Code passes', async function () {
      const countTokens = async (text: string): Promise<number> => Math.ceil(text.length / 4);
      const full = expectOk<ProjectDocuments>(await invoke('get-project-details', { project: { path: 'tsconfig.json' } }));
      const fullTokens = await countTokens(JSON.stringify(full));
      const budget = Math.floor(fullTokens * 0.6);
      const bounded = expectOk<ProjectDocuments>(
        await invoke('get-project-details', { project: { path: 'tsconfig.json' } }, { tokenBudget: budget, countTokens }),
      );
      assert.ok((await countTokens(JSON.stringify(bounded))) <= budget);
      assert.equal(bounded.data.documents.hasMore, true);
      assert.ok(bounded.data.documents.items.length > 0 && bounded.data.documents.items.length < full.data.documents.items.length);
    });
  });

  describe('server-status and get-error-details', function () {
    it('reports mode, trust and defaults', async function () {
      const status = expectOk<{
        effectiveMode: string;
        trusted: boolean;
        tools: { total: number; refusedInMode: string[] };
        defaults: { maxRevisions: number };
      }>(await invoke('server-status', {}));
      assert.equal(status.data.trusted, true);
      assert.equal(status.data.effectiveMode, 'transactional');
      assert.deepEqual(status.data.tools.refusedInMode, []);
      assert.equal(status.data.defaults.maxRevisions, 20);
    });

    it('follows the operational mode chosen from the command palette at the next call', async function () {
      try {
        assert.equal(await vscode.commands.executeCommand('agentWorkbench.chooseOperationalMode', 'inspection-only'), 'inspection-only');
        const status = expectOk<{ operationalMode: string; effectiveMode: string }>(await invoke('server-status', {}));
        assert.equal(status.data.operationalMode, 'inspection-only');
        assert.equal(status.data.effectiveMode, 'inspection-only');
        expectOk(await invoke('get-code-context', selection('src/util.ts', 'formatName')));
      } finally {
        await vscode.commands.executeCommand('agentWorkbench.chooseOperationalMode', 'transactional');
      }
      const restored = expectOk<{ effectiveMode: string }>(await invoke('server-status', {}));
      assert.equal(restored.data.effectiveMode, 'transactional');
    });

    it('returns the stored details of a failure by its correlation id', async function () {
      const failure = expectError(await invoke('get-code-context', selection('src/repeated.ts', 'return 1;')), 'LocationAmbiguous');
      const details = expectOk<{ tool: string; code: string; input: string; details: { candidates: unknown[] } }>(
        await invoke('get-error-details', { correlationId: failure.error.correlationId }),
      );
      assert.equal(details.data.tool, 'get-code-context');
      assert.equal(details.data.code, 'LocationAmbiguous');
      assert.equal(details.data.details.candidates.length, 2);
      assert.match(details.data.input, /repeated\.ts/);
      expectError(await invoke('get-error-details', { correlationId: '00000000-0000-4000-8000-000000000000' }), 'ErrorDetailsNotFound');
    });
  });
});
