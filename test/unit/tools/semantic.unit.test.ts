import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { HostTextEdit } from '../../../src/core/documents/editorPort';
import { ActionCache } from '../../../src/core/documents/caches';
import { applyEdits } from '../../../src/core/transactions/editorEdits';
import { decodeLines } from '../../../src/tools/references';
import type { ReferencesData } from '../../../src/tools/references';
import type { FixAllData, ListActionsData } from '../../../src/tools/codeActions';
import type { ReviewedMutationData, SemanticMutationData } from '../../../src/tools/shared/semanticStaging';
import { deserializeTransaction, serializeTransaction } from '../../../src/core/transactions/store';
import type { KeptTransaction } from '../../../src/core/transactions/store';
import { FAKE_ROOT, FakeHost, symbolsIn } from '../support/fakeHost';
import type { FakeCodeAction, FakeEdits } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

const UTIL = 'export function formatName(name: string): string {\n  return name.trim();\n}\n';
const GREETER = "import { formatName } from './util';\n\nexport function greet(name: string): string {\n  return 'Hello ' + formatName(name);\n}\n";
const MAIN = "import { greet } from './greeter';\nimport { formatName } from './util';\n\nconsole.log(greet(formatName(' x ')));\n";
const MESSY = 'export function  messy( a:number,b:number ){\nreturn a+b;   \n}\n';

/** Every occurrence of a whole word in a text, as edits replacing it. */
function wordEdits(text: string, word: string, replacement: string): HostTextEdit[] {
  const edits: HostTextEdit[] = [];
  for (const m of text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) edits.push({ start: m.index ?? 0, length: word.length, newText: replacement });
  return edits;
}

const sel = (p: string, selectedText: string, extra: Record<string, unknown> = {}) => ({ selection: { document: { path: p }, selectedText, ...extra } });

describe('tools: semantic mutations (rename-symbol, format-document, code actions)', () => {
  let host: FakeHost;
  let h: Harness;
  let abs: (p: string) => string;

  beforeEach(async () => {
    host = new FakeHost();
    const folder = host.addFolder('app', {
      'tsconfig.json': '{}\n',
      'src/util.ts': UTIL,
      'src/greeter.ts': GREETER,
      'src/main.ts': MAIN,
      'src/messy.ts': MESSY,
    });
    abs = (p) => host.abs(folder, p);
    host.semantics.prepareRename = (_absPath, offset, text) => {
      const word = /^\w+/.exec(text.slice(offset))?.[0];
      if (!word || ['return', 'export', 'function'].includes(word)) return { ok: false, reason: 'You cannot rename this element.' };
      return { ok: true, range: { start: offset, end: offset + word.length }, placeholder: word };
    };
    // Renames the word at the offset in every source file, on the texts the language service sees (the buffers).
    host.semantics.rename = (absPath, offset, newName) => {
      const word = /^\w+/.exec(host.currentText(absPath)?.slice(offset) ?? '')?.[0] ?? '';
      const edits: FakeEdits = {};
      for (const p of ['src/util.ts', 'src/greeter.ts', 'src/main.ts']) {
        const found = wordEdits(host.currentText(abs(p)) ?? '', word, newName);
        if (found.length > 0) edits[abs(p)] = found;
      }
      return edits;
    };
    h = await createHarness({ host });
  });

  const workspace = () => h.registry.all()[0];
  const staged = (p: string) => h.services.transactions.stagedText(workspace(), p);
  /** Stages text edits as edit-text would, one revision: what an earlier call left staged. */
  const stageEdits = (...edits: { path: string; start: number; end: number; newText: string }[]) =>
    h.services.transactions.stage(
      undefined,
      workspace(),
      { tool: 'edit-text', summary: 'edit' },
      edits.map(({ path: p, ...e }) => ({ kind: 'edit' as const, path: p, edits: [e] })),
      { basis: 'staged' },
    );

  describe('rename-symbol', () => {
    it('stages the rename across files with exact staged text; disk is unchanged', async () => {
      const before = host.diskWrites;
      const answer = await h.ok<SemanticMutationData>('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'formatPersonName' });
      const d = answer.data;
      assert.equal(d.transaction.revision, 1);
      assert.equal(d.transaction.revisionCount, 1);
      assert.equal(d.transaction.canCommit, true);
      assert.equal(d.revision.tool, 'rename-symbol');
      assert.equal(d.revision.summary, 'Rename formatName to formatPersonName');
      // Each changed file says its edits beside its line counts; staged says the totals.
      assert.deepEqual(
        d.documents.items.map((x) => [x.path, x.edits]),
        [
          ['src/greeter.ts', 2],
          ['src/main.ts', 2],
          ['src/util.ts', 1],
        ],
      );
      assert.deepEqual([d.documents.hasMore, d.documents.totalCount], [false, 3]);
      assert.deepEqual(d.staged, { edits: 5, fileOperations: 0 });
      assert.equal(staged('src/util.ts'), UTIL.replace('formatName', 'formatPersonName'));
      assert.equal(staged('src/greeter.ts'), GREETER.replaceAll('formatName', 'formatPersonName'));
      assert.equal(staged('src/main.ts'), MAIN.replaceAll('formatName', 'formatPersonName'));
      assert.equal(host.diskWrites, before, 'nothing is written before commit');
      assert.equal(host.diskText(abs('src/util.ts')), UTIL);
      assert.equal(answer.snapshot.transactionRevision, 1);
    });

    it("with includeDiff answers each changed file's changed lines instead of the documents list, as transaction-preview shows them", async () => {
      const answer = await h.ok<ReviewedMutationData>('rename-symbol', {
        symbol: { location: sel('src/util.ts', 'formatName') },
        newName: 'formatPersonName',
        includeDiff: true,
      });
      const d = answer.data;
      assert.equal('documents' in d, false, 'the paths are said once, in diffs');
      // Every change is the rename: each file lists its changed lines, in the staged text.
      assert.deepEqual(d.diffs, {
        items: [
          {
            path: 'src/greeter.ts',
            lines: [
              [1, "import { formatPersonName } from './util';"],
              [4, "  return 'Hello ' + formatPersonName(name);"],
            ],
          },
          {
            path: 'src/main.ts',
            lines: [
              [2, "import { formatPersonName } from './util';"],
              [4, "console.log(greet(formatPersonName(' x ')));"],
            ],
          },
          { path: 'src/util.ts', lines: [[1, 'export function formatPersonName(name: string): string {']] },
        ],
        hasMore: false,
        totalCount: 3,
      });
      assert.deepEqual([d.revision.summary, d.staged.edits, d.notes], ['Rename formatName to formatPersonName', 5, undefined]);
      assert.equal(staged('src/greeter.ts'), GREETER.replaceAll('formatName', 'formatPersonName'));
      const preview = await h.ok<{ diffs: ReviewedMutationData['diffs'] }>('transaction-preview', { includeDiff: true });
      assert.deepEqual(preview.data.diffs, d.diffs, 'the same review transaction-preview gives');
    });

    it("transaction-preview lists a file's changed lines while the transaction holds one rename, word diffs with two; a reload keeps the names", async () => {
      const review = (
        await h.ok<ReviewedMutationData>('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'fmt', includeDiff: true })
      ).data.diffs;
      const preview = async (input: Record<string, unknown> = {}) =>
        (await h.ok<{ diffs: ReviewedMutationData['diffs'] }>('transaction-preview', { includeDiff: true, ...input })).data.diffs;
      assert.deepEqual(await preview(), review, "the rename's own review");
      assert.deepEqual(review.items[2], { path: 'src/util.ts', lines: [[1, 'export function fmt(name: string): string {']] });
      assert.deepEqual(
        (await preview({ format: 'unified', contextLines: 0 })).items.map((i) => [i.path, i.lines, i.diff?.split('\n')[1]]),
        [
          ['src/greeter.ts', undefined, "-import { formatName } from './util';"],
          ['src/main.ts', undefined, "-import { formatName } from './util';"],
          ['src/util.ts', undefined, '-export function formatName(name: string): string {'],
        ],
        'unified asks for diff -u',
      );
      const tx = h.services.transactions.active(workspace().id)!;
      const kept = deserializeTransaction(JSON.parse(JSON.stringify(serializeTransaction(tx, workspace().fsPath))) as KeptTransaction);
      assert.deepEqual(
        kept.revisions.map((r) => r.rename),
        [{ from: 'formatName', to: 'fmt' }],
        'the names are kept across a window reload',
      );

      // A second rename: a file's lines could not say which rename they are, so every file has its word diff.
      await h.ok('rename-symbol', { symbol: { location: sel('src/greeter.ts', 'greet') }, newName: 'welcome' });
      const both = await preview();
      assert.deepEqual(
        both.items.map((i) => [i.path, i.lines, i.diff !== undefined]),
        [
          ['src/greeter.ts', undefined, true],
          ['src/main.ts', undefined, true],
          ['src/util.ts', undefined, true],
        ],
      );
      assert.equal(both.items[2].diff, '@@ -1 +1 @@\nexport function [-formatName-]{+fmt+}(name: string): string {');
      // Undone, the transaction holds one rename again.
      await h.ok('transaction-history', { action: 'undo' });
      assert.deepEqual(await preview(), review);
    });

    it('with includeDiff after other staged edits lists only the files this revision changed, each diffed since the transaction began', async () => {
      const at = MAIN.indexOf("' x '");
      await stageEdits({ path: 'src/main.ts', start: at, end: at + 5, newText: "'y'" }, { path: 'src/messy.ts', start: 0, end: 0, newText: '// messy\n' });
      const d = (
        await h.ok<ReviewedMutationData>('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'fmt', includeDiff: true })
      ).data;
      assert.deepEqual(
        d.diffs.items.map((x) => x.path),
        ['src/greeter.ts', 'src/main.ts', 'src/util.ts'],
        'messy.ts, changed by revision 1 only, is not part of this review',
      );
      // main.ts shows revision 1's edit too, so its word diff (what the commit would write there); the others only the rename.
      assert.deepEqual(
        d.diffs.items.map((x) => (x.lines ? 'lines' : 'diff')),
        ['lines', 'diff', 'lines'],
      );
      assert.equal(
        d.diffs.items[1].diff,
        "@@ -2 +2 @@\nimport { [-formatName-]{+fmt+} } from './util';\n@@ -4 +4 @@\nconsole.log(greet([-formatName-]{+fmt+}('[- x -]{+y+}')));",
      );
      assert.equal(d.transaction.revision, 2);
    });

    it('renames the declaration a symbolId names', async () => {
      host.setSymbols(abs('src/util.ts'), symbolsIn(UTIL, [{ name: 'formatName', kind: 'Function', from: 'export function', to: '\n}' }]));
      const symbolId = `${workspace().documentId('src/util.ts')}#Function:formatName`;
      const answer = await h.ok<SemanticMutationData>('rename-symbol', { symbol: { symbolId }, newName: 'tidyName' });
      assert.equal(answer.data.revision.summary, 'Rename formatName to tidyName');
      assert.equal(staged('src/util.ts'), UTIL.replace('formatName', 'tidyName'));
      assert.equal(staged('src/greeter.ts'), GREETER.replaceAll('formatName', 'tidyName'));
      await h.fail('rename-symbol', { symbol: {}, newName: 'x' }, 'InvalidRequest');
    });

    it('refuses with the provider reason when prepare-rename rejects, without asking for edits', async () => {
      const failure = await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'return') }, newName: 'x' }, 'InvalidRequest');
      assert.match(failure.error.message, /You cannot rename this element\./);
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      assert.equal(host.callCount('renameProvider'), 0, 'no edits asked for after the prepare check refused');
      assert.equal(staged('src/util.ts'), undefined);
    });

    it('refuses a rename to the name the symbol already has, staging nothing', async () => {
      const failure = await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'formatName' }, 'InvalidRequest');
      assert.match(failure.error.message, /already named formatName; nothing was staged/);
      assert.equal(staged('src/util.ts'), undefined);
    });

    it('answers UnsupportedLanguageFeature when no rename provider exists', async () => {
      host.semantics = {};
      const failure = await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'x' }, 'UnsupportedLanguageFeature');
      assert.equal(failure.continuation?.kind, 'ResolveExternally');
    });

    it('refuses renaming to the same name, and a rename provider rejection', async () => {
      await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'formatName' }, 'InvalidRequest');
      host.semantics.rename = () => 'Cannot rename to a reserved word.';
      const failure = await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'class' }, 'InvalidRequest');
      assert.match(failure.error.message, /reserved word/);
    });

    it('refuses edits outside the workspace folder and stages nothing', async () => {
      const outside = path.join(FAKE_ROOT, 'elsewhere', 'lib.d.ts');
      host.writeFile(outside, 'declare function formatName(): void;\n', { notify: false });
      host.semantics.rename = (absPath) => ({ [absPath]: [{ start: 16, length: 10, newText: 'y' }], [outside]: [{ start: 17, length: 10, newText: 'y' }] });
      await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'y' }, 'WorkspacePathNotAllowed');
      assert.equal(staged('src/util.ts'), undefined);
    });

    it('merges with a staged edit it does not overlap', async () => {
      const at = MAIN.indexOf("' x '");
      await stageEdits({ path: 'src/main.ts', start: at, end: at + 5, newText: "'  y  '" });
      const answer = await h.ok<SemanticMutationData>('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'fmt' });
      assert.equal(answer.data.transaction.revision, 2);
      assert.equal(staged('src/main.ts'), MAIN.replaceAll('formatName', 'fmt').replace("' x '", "'  y  '"));
      assert.equal(staged('src/util.ts'), UTIL.replace('formatName', 'fmt'));
    });

    it('answers TransactionConflicted when its edits overlap a staged edit, and stages nothing', async () => {
      const ws = workspace();
      const g = GREETER.indexOf('formatName(name)');
      await stageEdits({ path: 'src/greeter.ts', start: g, end: g + 16, newText: 'formatName(name.trim())' });
      const failure = await h.fail('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'other' }, 'TransactionConflicted');
      assert.match(failure.error.message, /src\/greeter\.ts/);
      assert.ok(failure.continuation, 'the conflict says what to do');
      assert.equal(h.services.transactions.revision(ws.id), 1, 'nothing was staged');
      assert.equal(staged('src/util.ts'), undefined);
      assert.equal(staged('src/greeter.ts'), GREETER.replace('formatName(name)', 'formatName(name.trim())'));
    });
  });

  describe('format-document', () => {
    /** A tiny formatter: collapses runs of spaces, trims line ends, indents bodies by the option. */
    const format = (text: string, options: { tabSize: number; insertSpaces: boolean }): HostTextEdit[] => {
      const indent = options.insertSpaces ? ' '.repeat(options.tabSize) : '\t';
      const formatted = 'export function messy(a: number, b: number) {\n' + indent + 'return a + b;\n}\n';
      return formatted === text ? [] : [{ start: 0, length: text.length, newText: formatted }];
    };

    it('stages the formatter edits with the editor options of the file', async () => {
      host.formattingOptions = { tabSize: 2, insertSpaces: true };
      let seen: unknown;
      host.semantics.format = (_absPath, text, options, range) => {
        seen = { options, range };
        return format(text, options);
      };
      const answer = await h.ok<SemanticMutationData>('format-document', { document: { path: 'src/messy.ts' } });
      assert.deepEqual(seen, { options: { tabSize: 2, insertSpaces: true }, range: undefined });
      assert.equal(staged('src/messy.ts'), 'export function messy(a: number, b: number) {\n  return a + b;\n}\n');
      assert.equal(answer.data.revision.summary, 'Format src/messy.ts');
      assert.deepEqual(
        [answer.data.documents.items.map((x) => [x.path, x.edits]), answer.data.staged],
        [[['src/messy.ts', 1]], { edits: 1, fileOperations: 0 }],
      );
      assert.equal(host.diskText(abs('src/messy.ts')), MESSY);
    });

    it('formats a range, drops edits that change nothing, and refuses when nothing changes', async () => {
      let seenRange: unknown;
      host.semantics.format = (_absPath, text, _options, range) => {
        seenRange = range;
        const line = text.indexOf('return a+b;   ');
        return [
          { start: 0, length: 6, newText: 'export' },
          { start: line + 'return a+b;'.length, length: 3, newText: '' },
        ];
      };
      const start = MESSY.indexOf('return');
      const answer = await h.ok<SemanticMutationData>('format-document', { document: { path: 'src/messy.ts' }, range: { start, length: 14 } });
      assert.deepEqual(seenRange, { start, end: start + 14 });
      assert.deepEqual(
        [answer.data.documents, answer.data.staged],
        [
          { items: [{ path: 'src/messy.ts', changedLines: 1, edits: 1 }], hasMore: false, totalCount: 1 },
          { edits: 1, fileOperations: 0 },
        ],
      );
      assert.equal(answer.data.revision.summary, 'Format src/messy.ts lines 2-2');
      assert.equal(staged('src/messy.ts'), MESSY.replace('return a+b;   ', 'return a+b;'));
      host.semantics.format = () => [{ start: 0, length: 6, newText: 'export' }];
      const failure = await h.fail('format-document', { document: { path: 'src/util.ts' } }, 'InvalidRequest');
      assert.match(failure.error.message, /already formatted/);
    });

    it('answers UnsupportedLanguageFeature without a formatter', async () => {
      await h.fail('format-document', { document: { path: 'src/messy.ts' } }, 'UnsupportedLanguageFeature');
    });
  });

  describe('list-code-actions and stage-code-action', () => {
    const IMPORT_LINE = "import { greet } from './greeter';\n";
    let actions: FakeCodeAction[];
    let asked: unknown[];

    beforeEach(() => {
      asked = [];
      actions = [
        {
          title: "Add import from './greeter'",
          kind: 'quickfix',
          isPreferred: true,
          diagnostics: [{ message: "Cannot find name 'greet'.", severity: 'Error', code: '2304', source: 'ts', range: { start: 0, end: 5 } }],
          edits: { [abs('src/messy.ts')]: [{ start: 0, length: 0, newText: IMPORT_LINE }] },
          command: { command: '_typescript.applyCodeActionCommand', title: '' },
        },
        { title: 'Run the organize command', kind: 'source', isPreferred: false, command: { command: 'editor.action.organize', title: 'Organize' } },
        {
          title: 'Move to a new file',
          kind: 'refactor.move.newFile',
          isPreferred: false,
          edits: { [abs('src/messy.ts')]: [{ start: 0, length: MESSY.length, newText: '' }], [abs('src/moved.ts')]: [{ start: 0, length: 0, newText: MESSY }] },
          fileOperations: [{ kind: 'create', absPath: abs('src/moved.ts'), overwrite: false, ignoreIfExists: false }],
        },
      ];
      host.semantics.codeActions = (absPath, range, kind) => {
        asked.push({ absPath, range, kind });
        return actions.filter((a) => !kind || a.kind === kind || a.kind?.startsWith(`${kind}.`));
      };
    });

    it('lists actions with refs, stageability and files; stages one with its kind in the provenance', async () => {
      const list = await h.ok<ListActionsData>('list-code-actions', { location: sel('src/messy.ts', 'a+b') });
      assert.deepEqual(asked, [{ absPath: abs('src/messy.ts'), range: { start: MESSY.indexOf('a+b'), end: MESSY.indexOf('a+b') + 3 }, kind: undefined }]);
      const items = list.data.actions.items;
      assert.equal(list.data.actions.totalCount, 3);
      assert.deepEqual(
        items.map(({ actionRef, ...rest }) => (assert.match(actionRef, /^ca-[0-9a-f]{12}$/), rest)),
        [
          {
            title: "Add import from './greeter'",
            kind: 'quickfix',
            isPreferred: true,
            stageable: true,
            runsCommand: '_typescript.applyCodeActionCommand',
            diagnostics: [{ message: "Cannot find name 'greet'.", code: '2304', severity: 'Error', line: 1 }],
            files: [{ path: 'src/messy.ts', edits: 1 }],
          },
          {
            title: 'Run the organize command',
            kind: 'source',
            stageable: false,
            reason: 'it only runs the command editor.action.organize, which cannot be staged without running it',
          },
          {
            title: 'Move to a new file',
            kind: 'refactor.move.newFile',
            stageable: true,
            files: [
              { path: 'src/messy.ts', edits: 1 },
              { path: 'src/moved.ts', edits: 1 },
            ],
          },
        ],
      );
      const fix = await h.ok<SemanticMutationData>('stage-code-action', { actionRef: items[0].actionRef });
      assert.equal(fix.data.revision.codeActionKind, 'quickfix');
      assert.equal(fix.data.revision.summary, "Add import from './greeter'");
      assert.equal(fix.data.revision.tool, 'stage-code-action');
      assert.equal(staged('src/messy.ts'), IMPORT_LINE + MESSY);
      // A second action of the same listing rewrites the whole file; the staged import at offset 0 only meets it and stays before it.
      await h.ok('stage-code-action', { actionRef: items[2].actionRef });
      assert.equal(staged('src/messy.ts'), IMPORT_LINE);
      const command = await h.fail('stage-code-action', { actionRef: items[1].actionRef }, 'UnsupportedLanguageFeature');
      assert.equal(command.continuation?.kind, 'ResolveExternally');
      // A used ref is gone.
      const used = await h.fail('stage-code-action', { actionRef: items[0].actionRef }, 'SnapshotMismatch');
      assert.deepEqual(used.continuation, { kind: 'CallTool', tool: 'list-code-actions', instruction: used.continuation?.instruction });
    });

    it('stages an action that creates a file', async () => {
      const list = await h.ok<ListActionsData>('list-code-actions', { location: sel('src/messy.ts', 'messy'), kind: 'refactor.move' });
      assert.equal((asked[0] as { kind: string }).kind, 'refactor.move');
      assert.deepEqual(
        list.data.actions.items.map((i) => i.title),
        ['Move to a new file'],
      );
      const answer = await h.ok<SemanticMutationData>('stage-code-action', { actionRef: list.data.actions.items[0].actionRef });
      assert.equal(staged('src/moved.ts'), MESSY);
      assert.equal(staged('src/messy.ts'), '');
      assert.deepEqual(
        answer.data.documents.items.map((x) => [x.path, x.changeKind, x.edits]),
        [
          ['src/messy.ts', undefined, 1],
          ['src/moved.ts', 'Added', 1],
        ],
      );
      assert.deepEqual(answer.data.staged, { edits: 2, fileOperations: 1 });
      assert.equal(host.diskText(abs('src/moved.ts')), undefined);
    });

    it('treats "create unless it exists" of an existing file as the plain edit it is', async () => {
      actions = [
        {
          title: 'Add a header',
          kind: 'refactor.rewrite',
          isPreferred: false,
          edits: { [abs('src/messy.ts')]: [{ start: 0, length: 0, newText: '// header\n' }] },
          fileOperations: [{ kind: 'create', absPath: abs('src/messy.ts'), overwrite: false, ignoreIfExists: true }],
        },
      ];
      const list = await h.ok<ListActionsData>('list-code-actions', { location: sel('src/messy.ts', 'messy') });
      const answer = await h.ok<SemanticMutationData>('stage-code-action', { actionRef: list.data.actions.items[0].actionRef });
      assert.deepEqual(
        [answer.data.documents.items.map((x) => [x.path, x.changeKind, x.edits]), answer.data.staged],
        [[['src/messy.ts', undefined, 1]], { edits: 1, fileOperations: 0 }],
      );
      assert.equal(staged('src/messy.ts'), `// header\n${MESSY}`);
    });

    it('bounds the list with actionsLimit', async () => {
      const list = await h.ok<ListActionsData>('list-code-actions', { location: sel('src/messy.ts', 'messy'), actionsLimit: 1 });
      assert.equal(list.data.actions.items.length, 1);
      assert.equal(list.data.actions.hasMore, true);
      assert.equal(list.data.actions.totalCount, 3);
    });

    it('refuses a ref whose document changed since the listing, and an unknown ref', async () => {
      const list = await h.ok<ListActionsData>('list-code-actions', { location: sel('src/messy.ts', 'a+b') });
      host.editBuffer(abs('src/messy.ts'), `// typed\n${MESSY}`);
      const failure = await h.fail('stage-code-action', { actionRef: list.data.actions.items[0].actionRef }, 'SnapshotMismatch');
      assert.match(failure.error.message, /src\/messy\.ts changed/);
      assert.equal(failure.continuation?.kind, 'CallTool');
      await h.fail('stage-code-action', { actionRef: 'ca-000000000000' }, 'SnapshotMismatch');
      assert.equal(staged('src/messy.ts'), undefined);
    });
  });

  describe('prepare-fix-all', () => {
    const UNORDERED = "import { b } from './b';\nimport { unused } from './u';\nimport { a } from './a';\n\nexport const x = a + b;\n";
    const ORGANIZED = "import { a } from './a';\nimport { b } from './b';\n\nexport const x = a + b;\n";

    it('previews organize imports as hunks without staging; the ref stages it', async () => {
      host.writeFile(abs('src/imports.ts'), UNORDERED);
      host.semantics.codeActions = (absPath, range, kind) => {
        assert.deepEqual(range, { start: 0, end: UNORDERED.length });
        return kind === 'source.organizeImports'
          ? [
              {
                title: 'Organize Imports',
                kind: 'source.organizeImports',
                isPreferred: false,
                edits: { [absPath]: [{ start: 0, length: UNORDERED.indexOf('\n\n') + 1, newText: "import { a } from './a';\nimport { b } from './b';\n" }] },
              },
            ]
          : [];
      };
      const answer = await h.ok<FixAllData>('prepare-fix-all', { document: { path: 'src/imports.ts' }, kind: 'source.organizeImports' });
      const d = answer.data;
      assert.equal(d.kind, 'source.organizeImports');
      assert.equal(d.action?.title, 'Organize Imports');
      assert.deepEqual(d.documents.items, [
        {
          path: 'src/imports.ts',
          edits: 1,
          addedLines: 1,
          removedLines: 2,
          changedLines: 0,
          hunks: [
            {
              originalStartLine: 1,
              originalLineCount: 5,
              updatedStartLine: 1,
              updatedLineCount: 4,
              lines: [
                "-import { b } from './b';",
                "-import { unused } from './u';",
                " import { a } from './a';",
                "+import { b } from './b';",
                ' ',
                ' export const x = a + b;',
              ],
            },
          ],
        },
      ]);
      assert.equal(staged('src/imports.ts'), undefined, 'a preview stages nothing');
      assert.equal(h.services.transactions.active(workspace().id), undefined);
      const stagedAnswer = await h.ok<SemanticMutationData>('stage-code-action', { actionRef: d.action?.actionRef });
      assert.equal(stagedAnswer.data.revision.codeActionKind, 'source.organizeImports');
      assert.equal(staged('src/imports.ts'), ORGANIZED);
    });

    it('answers action null when there is nothing to fix, and UnsupportedLanguageFeature when no source action of any kind is offered', async () => {
      // The language's service offers source actions (organize imports), none of them a fix-all: nothing to fix.
      const organize = { title: 'Organize Imports', kind: 'source.organizeImports', isPreferred: false, edits: {} };
      host.semantics.codeActions = (_absPath, _range, kind) => (kind === 'source' || kind === 'source.organizeImports' ? [organize] : []);
      const answer = await h.ok<FixAllData>('prepare-fix-all', { document: { path: 'src/util.ts' } });
      assert.deepEqual(answer.data, { kind: 'source.fixAll', action: null, documents: { items: [], hasMore: false, totalCount: 0 }, fileOperations: 0 });
      // No source action at all (pyright offers none): null would read as "nothing to do".
      host.semantics.codeActions = () => [];
      const refused = await h.fail('prepare-fix-all', { document: { path: 'src/util.ts' }, kind: 'source.organizeImports' }, 'UnsupportedLanguageFeature');
      assert.match(refused.error.message, /^No source\.organizeImports code action provider for language "typescript" \(src\/util\.ts\)/);
    });
  });

  describe('the staged view of the navigation tools', () => {
    /** References of formatName the way the language service sees them: in the buffers. */
    const references = () => {
      host.setSymbols(
        abs('src/util.ts'),
        symbolsIn(host.currentText(abs('src/util.ts')) ?? '', [{ name: 'formatName', kind: 'Function', from: 'export function', to: '\n}' }]),
      );
      host.navigation.locations = () =>
        ['src/util.ts', 'src/greeter.ts', 'src/main.ts'].flatMap((p) =>
          wordEdits(host.currentText(abs(p)) ?? '', 'formatName', '').map((e) => ({ absPath: abs(p), range: { start: e.start, end: e.start + e.length } })),
        );
    };

    it('maps references into the staged text; a deleted document and a buffer changed after staging are said, not mapped', async () => {
      references();
      await h.ok('rename-symbol', { symbol: { location: sel('src/util.ts', 'formatName') }, newName: 'formatPersonName' });
      await h.ok('delete-file', { document: { path: 'src/main.ts' } });
      const d = (await h.ok<ReferencesData>('find-references', { symbol: { location: sel('src/util.ts', 'formatPersonName') }, view: 'staged' })).data;
      const greeter = d.documents.items.find((x) => x.path === 'src/greeter.ts');
      const stagedGreeter = staged('src/greeter.ts') ?? '';
      assert.deepEqual(
        decodeLines(greeter ?? { lines: [] }).map((l) => [l.line, l.text, l.import ?? l.at, l.edited]),
        [
          [1, undefined, [9], [9]],
          [4, "return 'Hello ' + formatPersonName(name);", [stagedGreeter.lastIndexOf('formatPersonName')], [stagedGreeter.lastIndexOf('formatPersonName')]],
        ],
      );
      assert.deepEqual(
        decodeLines(greeter ?? { lines: [] }).map((l) => l.len),
        [undefined, undefined],
        'the staged name is as long as the staged declaration',
      );
      const main = d.documents.items.find((x) => x.path === 'src/main.ts');
      assert.equal(main?.staged, 'deleted');
      assert.deepEqual(
        decodeLines(main ?? { lines: [] }).map((l) => l.text ?? (l.import ? 'an import line' : '')),
        ['an import line', "console.log(greet(formatName(' x ')));"],
        'the buffer lines of a deleted document',
      );

      // A person types in greeter.ts after the rename was staged: its offsets no longer map.
      host.editBuffer(abs('src/greeter.ts'), `// typed\n${GREETER}`);
      const after = (await h.ok<ReferencesData>('find-references', { symbol: { location: sel('src/util.ts', 'formatPersonName') }, view: 'staged' })).data;
      assert.equal(after.documents.items.find((x) => x.path === 'src/greeter.ts')?.staged, 'unmapped');
      const conflict = await h.fail(
        'go-to-definition',
        { location: sel('src/greeter.ts', 'formatPersonName', { contextAfter: '(name)' }), view: 'staged' },
        'TransactionConflicted',
      );
      assert.match(conflict.error.message, /changed in the editor after the transaction staged it/);
    });

    it('a document the transaction moves is given at its staged path, and a selector may name that path', async () => {
      references();
      await h.ok('move-file', { document: { path: 'src/greeter.ts' }, newPath: 'src/welcome/greeter.ts' });
      const d = (await h.ok<ReferencesData>('find-references', { symbol: { location: sel('src/util.ts', 'formatName') }, view: 'staged' })).data;
      assert.deepEqual(d.documents.items.map((x) => x.path).sort(), ['src/main.ts', 'src/util.ts', 'src/welcome/greeter.ts'], 'greeter.ts at its staged path');
      assert.ok(d.documents.items.every((x) => x.staged === undefined));
      // A selector naming the staged path: resolved in the staged text, asked of the buffer at the old path.
      let asked = '';
      host.navigation.locations = (_feature, file) => {
        asked = file;
        return [];
      };
      await h.ok('go-to-definition', { location: sel('src/welcome/greeter.ts', 'formatName', { contextAfter: '(name)' }), view: 'staged' });
      assert.equal(asked, abs('src/greeter.ts'));
    });

    it('a document only the transaction has is refused with the reason, and an unstaged document reads as the buffer', async () => {
      references();
      await h.ok('create-file', { path: 'src/fresh.ts', text: 'export const fresh = 1;\n' });
      const refused = await h.fail('go-to-definition', { location: sel('src/fresh.ts', 'fresh'), view: 'staged' }, 'DocumentNotFound');
      assert.match(refused.error.message, /exists only in the staged transaction/);
      const d = (await h.ok<ReferencesData>('find-references', { symbol: { location: sel('src/util.ts', 'formatName') }, view: 'staged' })).data;
      assert.ok(d.documents.items.every((x) => x.staged === undefined && decodeLines(x).every((l) => l.edited === undefined)));
      assert.equal(d.totalReferences, 5);
    });
  });

  describe('ActionCache', () => {
    it('expires refs after the TTL and drops the oldest beyond capacity', () => {
      let now = 0;
      const cache = new ActionCache(() => now, 2, 1000);
      const entry = {
        workspaceId: 'w',
        workspaceEpoch: 1,
        action: { title: 't', isPreferred: false, diagnostics: [] },
        coverage: { languageId: 'typescript', state: 'loaded' as const },
      };
      const a = cache.add(entry);
      const b = cache.add(entry);
      now = 500;
      const c = cache.add(entry);
      assert.equal(cache.get(a), undefined, 'dropped: capacity 2');
      assert.ok(cache.get(b));
      now = 1001;
      assert.equal(cache.get(b), undefined, 'expired');
      assert.ok(cache.get(c));
    });
  });

  it('applyEdits applies sorted, non-overlapping edits', () => {
    assert.equal(
      applyEdits('abcdef', [
        { start: 4, length: 1, newText: 'E' },
        { start: 0, length: 2, newText: 'X' },
      ]),
      'XcdEf',
    );
  });
});
