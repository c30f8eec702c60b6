import * as assert from 'node:assert/strict';
import { applyEdits } from '../../../../src/core/transactions/editorEdits';
import { findResidue, languageFamily, residueKinds, residueOf, scanAhead, wholeWords, wholeWordsAfterEdits } from '../../../../src/core/symbols/residue';
import type { EditorPort } from '../../../../src/core/documents/editorPort';
import type { Workspace } from '../../../../src/core/documents/workspaces';
import type { HostTextEdit } from '../../../../src/core/documents/editorPort';
import type { ResidueFile } from '../../../../src/core/symbols/residue';

/** The kind of each whole-word occurrence of name in a text, in order. */
const kindsOf = (text: string, name: string, languageId = 'typescript') => {
  const kindAt = residueKinds(text, languageId);
  return wholeWords(text, name, languageId).map((o) => kindAt(o));
};

describe('core/symbols/residue: the name left where a language service did not look', () => {
  it('finds whole words only: identifier characters and $ bound a word, and #add is another name', () => {
    const text = 'add(1); adder(2); readd(3); $add; add$; this.#add; a_add; x.add; (add)';
    assert.deepEqual(wholeWords(text, 'add', 'typescript'), [0, text.indexOf('x.add') + 2, text.indexOf('(add)') + 1]);
    assert.deepEqual(wholeWords('#add', 'add', 'python'), [1], 'in Python # starts a comment, not a name');
    assert.deepEqual(wholeWords('names: add, add2, $', 'add', 'python'), [7]);
  });

  it("a rename's staged text: the starts moved across its edits are the whole words of the edited text, at every edge of an edit", () => {
    // Pieces that make and break words at an edit's edges: the name, its halves, identifier
    // characters, $ and #, a joiner, a surrogate pair, and separators.
    const pieces = ['add', 'ad', 'd', 'a', 'x', '$', '#', '\u200d', '😀', ' ', '.', '(', '\n', 'add2'];
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const textOf = (n: number) => Array.from({ length: n }, () => pieces[random(pieces.length)]).join('');
    for (let round = 0; round < 2000; round++) {
      const text = textOf(4 + random(30));
      const edits: HostTextEdit[] = [];
      for (let at = random(4); at < text.length; at += 1 + random(8)) {
        const length = Math.min(random(4), text.length - at);
        edits.push({ start: at, length, newText: textOf(random(3)) });
        at += length;
      }
      const applied = applyEdits(text, edits);
      for (const languageId of ['typescript', 'python']) {
        assert.deepEqual(
          wholeWordsAfterEdits(text, wholeWords(text, 'add', languageId), edits, 'add', languageId),
          wholeWords(applied, 'add', languageId),
          `${languageId}: ${JSON.stringify(text)} edited by ${JSON.stringify(edits)}`,
        );
      }
    }
    const renamed = 'add(x); y.add; // add';
    const edit = [{ start: 0, length: 3, newText: 'addTeardown' }];
    assert.deepEqual(wholeWordsAfterEdits(renamed, wholeWords(renamed, 'add', 'typescript'), edit, 'add', 'typescript'), [18, 26]);
  });

  it('tells word boundaries by Unicode identifier characters, a character outside the BMP and a joiner included', () => {
    const text = 'éadd addé 𝑥add add𝑥 add\u200c add\u200dx ·add add· add';
    assert.deepEqual(wholeWords(text, 'add', 'typescript'), [text.lastIndexOf('add')], 'each other add touches a letter, a joiner or a combining mark');
    assert.deepEqual(wholeWords('😀add add😀', 'add', 'typescript'), [2, 6], 'an emoji (a surrogate pair) is no identifier character');
    assert.deepEqual(wholeWords('add', 'add', 'typescript'), [0]);
    assert.deepEqual(wholeWords('', 'add', 'typescript'), []);
    assert.deepEqual(wholeWords('addadd add', 'add', 'typescript'), [7]);
  });

  it('classifies TypeScript and JavaScript by syntax: comment, doc comment, string, template text, regular expression, property access, other', () => {
    const text = [
      '/** Calls add on the subscription. */',
      'export function isSubscription(value: any): value is Subscription {',
      '  // add is checked through any',
      '  return isFunction(value.add) && value?.add.length > 0;',
      '}',
      "const msg = 'add a teardown';",
      'const t = `${value.add} then add`;',
      'const re = /add/;',
      '/* add */ const n = total / add / 2;',
      'const spread = { ...add };',
      'export { add };',
    ].join('\n');
    assert.deepEqual(kindsOf(text, 'add'), [
      'doc',
      'comment',
      'access',
      'access',
      'string',
      'access',
      'string',
      'string',
      'comment',
      'other',
      'other',
      'other',
    ]);
  });

  it('template text is text but its ${} holds code, nested braces included; an unterminated comment runs to the end', () => {
    const text = 'const s = `a ${ {k: add}.k } add ${ `add` }`;\nf(add);\n/* add';
    assert.deepEqual(kindsOf(text, 'add'), ['other', 'string', 'string', 'other', 'comment']);
  });

  it('module specifiers name files: counted apart, not listed', () => {
    const text = [
      "import { isFunction } from '../util/isFunction';",
      "export * from './isFunction';",
      "const m = require('./isFunction');",
      "const n = await import('./isFunction');",
      "import './isFunction';",
      "const label = 'isFunction';",
    ].join('\n');
    const r = residueOf('isFunction', [{ path: 'a.ts', text, languageId: 'typescript', known: new Set([text.indexOf('isFunction')]) }]);
    assert.deepEqual(
      r.items.map((i) => [i[1], i[3]]),
      [[6, 'string']],
    );
    assert.equal(r.modulePaths, 5);
    assert.equal(r.totalCount, 1);
  });

  it('a comment ending in a full stop before a name does not make it a property access', () => {
    assert.deepEqual(kindsOf('// Register the handler.\nadd(handler);\n/* then. */ add(x);\nfoo. /* c */ add;', 'add'), ['other', 'other', 'access']);
  });

  it('classifies Python by its comments, strings and docstrings; other languages say other', () => {
    const text = ['def f(value):', '    """Call add."""', '    # add it', "    return value.add(x) or 'add' or f'{add}'", "x = '''add'''"].join('\n');
    assert.deepEqual(kindsOf(text, 'add', 'python'), ['doc', 'comment', 'access', 'string', 'string', 'string']);
    assert.deepEqual(kindsOf('// add\nx.add();', 'add', 'go'), ['other', 'other']);
  });

  it('leaves out what the service accounted for, lists code kinds first, caps the list and counts every occurrence', () => {
    const files: ResidueFile[] = [
      { path: 'a.ts', text: '// add\nsub.add(x);\nvalue.add(y);\n', languageId: 'typescript', known: new Set([11]) },
      { path: 'b.ts', text: "'add';\n/** add */\nadd();\n", languageId: 'typescript' },
    ];
    const all = residueOf('add', files);
    assert.deepEqual(all.items, [
      ['a.ts', 3, 7, 'access', 'value.add(y);'],
      ['b.ts', 3, 1, 'other', 'add();'],
      ['b.ts', 1, 2, 'string', "'add';"],
      ['b.ts', 2, 5, 'doc', '/** add */'],
      ['a.ts', 1, 4, 'comment', '// add'],
    ]);
    assert.equal(all.totalCount, 5);
    assert.equal(all.hasMore, false);
    assert.deepEqual(all.kinds, { comment: 1, access: 1, string: 1, doc: 1, other: 1 });
    const cut = residueOf('add', files, 2);
    assert.deepEqual(
      cut.items.map((r) => r[3]),
      ['access', 'other'],
    );
    assert.equal(cut.totalCount, 5);
    assert.equal(cut.hasMore, true);
  });

  it('a new name holding the old one as a word is not residue; a long line is cut around the occurrence', () => {
    const files: ResidueFile[] = [{ path: 'a.py', text: `x = add.more\ny = add\nz = ${'q'.repeat(120)} + add + ${'r'.repeat(60)}\n`, languageId: 'python' }];
    const r = residueOf('add', files, 50, 'add.more');
    assert.deepEqual(
      r.items.map((i) => i[1]),
      [2, 3],
    );
    const long = r.items[1][4];
    assert.ok(long.startsWith('…') && long.endsWith('…') && long.includes(' + add + '), long);
    assert.ok(long.length <= 82, long);
  });

  it('a scan ahead lets the thread answer other work while it reads files that come back without I/O', async () => {
    // 3,000 files of 20 KB, each read from memory at once (as the editor gives files it read before).
    const text = `${'const x = 1;\n'.repeat(1500)}add(1);\n`;
    const paths = Array.from({ length: 3000 }, (_, i) => `src/f${i}.ts`);
    const editor = {
      languages: () => [{ id: 'typescript', aliases: [], extensions: ['.ts'], filenames: [], providedBy: [] }],
      readDocument: async () => ({ text }),
    } as unknown as EditorPort;
    const workspace = { fsPath: '/ws', files: async () => ({ paths }) } as unknown as Workspace;
    let scanned = false;
    const scan = scanAhead({ name: 'add', languageId: 'typescript', workspace, editor }).then((m) => ((scanned = true), m));
    // Work queued behind the scan, as a language service's answer arriving over IPC is.
    const other = await new Promise<boolean>((resolve) => setImmediate(() => resolve(scanned)));
    const found = await scan;
    assert.equal(other, false, 'the other work ran before the scan ended');
    assert.deepEqual([found?.size, found?.get('src/f7.ts')?.starts], [3000, [text.indexOf('add(1)')]]);
  });

  it('a scan leaves to the host the files it scans off its thread and reads the rest itself; a file with the name is read after the answer, rescanned if it changed since', async () => {
    const disk: Record<string, { text: string; stamp: string }> = {
      '/ws/a.ts': { text: 'add(1); // add\n', stamp: 'a1' },
      '/ws/b.ts': { text: 'const b = 1;\n', stamp: 'b1' },
      '/ws/c.ts': { text: 'add(5);\n', stamp: 'c1' },
      '/ws/open.ts': { text: 'add(2);\n', stamp: 'open1' },
      '/ws/staged.ts': { text: 'on disk\n', stamp: 'staged1' },
    };
    const asked: string[][] = [];
    const read: string[] = [];
    const editor = {
      languages: () => [{ id: 'typescript', aliases: [], extensions: ['.ts'], filenames: [], providedBy: [] }],
      readDocument: async (p: string) => (read.push(p), { ...disk[p] }),
      // As a host that cannot read open.ts off its thread (it is open in the editor): starts and stamps, no texts.
      scanWords: async (name: string, files: { absPath: string }[]) => {
        asked.push(files.map((f) => f.absPath));
        return new Map(
          files
            .filter((f) => !f.absPath.endsWith('open.ts'))
            .map((f) => {
              const starts = wholeWords(disk[f.absPath].text, name, 'typescript');
              return [f.absPath, starts.length === 0 ? ('none' as const) : { starts, stamp: disk[f.absPath].stamp }];
            }),
        );
      },
    } as unknown as EditorPort;
    const workspace = { fsPath: '/ws', files: async () => ({ paths: ['a.ts', 'b.ts', 'c.ts', 'open.ts', 'staged.ts', 'notes.md'] }) } as unknown as Workspace;
    const staged: Record<string, string> = { 'staged.ts': 'add(3);\n' };
    const textOf = (p: string) => staged[p];
    const ahead = await scanAhead({ name: 'add', languageId: 'typescript', workspace, editor, textOf });
    assert.deepEqual(asked, [['/ws/a.ts', '/ws/b.ts', '/ws/c.ts', '/ws/open.ts']], 'staged files and other languages are not sent');
    assert.deepEqual(read, ['/ws/open.ts'], 'ahead, only what the host left out is read here');
    assert.deepEqual(
      [...(ahead ?? new Map<string, ResidueFile>()).values()].map((f) => [f.path, f.starts, f.textless ?? false]),
      [
        ['a.ts', [0, 11], true],
        ['b.ts', [], true],
        ['c.ts', [0], true],
        ['open.ts', [0], false],
        ['staged.ts', [0], false],
      ],
    );
    // Meanwhile b.ts is staged with the name in it (its empty text from the scan ahead is not its text), and c.ts changes on disk.
    staged['b.ts'] = 'add(4);\n';
    disk['/ws/c.ts'] = { text: 'x; add(6);\n', stamp: 'c2' };
    read.length = 0;
    const residue = await findResidue({ name: 'add', languageId: 'typescript', workspace, editor, textOf, ...(ahead ? { ahead } : {}) });
    assert.deepEqual(
      residue.items.map((r) => [r[0], r[1], r[2], r[3]]),
      [
        ['a.ts', 1, 1, 'other'],
        ['b.ts', 1, 1, 'other'],
        ['c.ts', 1, 4, 'other'],
        ['open.ts', 1, 1, 'other'],
        ['staged.ts', 1, 1, 'other'],
        ['a.ts', 1, 12, 'comment'],
      ],
    );
    assert.deepEqual(read, ['/ws/a.ts', '/ws/c.ts', '/ws/c.ts'], 'the files found holding the name are read, c.ts again since it changed');
    assert.equal(asked.length, 1, 'the scan after the answer reads on the host: it is what changed since');
    // Without a scan ahead (find-references' residue), the files nobody staged go to the host's scan.
    const again = await findResidue({ name: 'add', languageId: 'typescript', workspace, editor, textOf });
    assert.deepEqual(asked[1], ['/ws/a.ts', '/ws/c.ts', '/ws/open.ts']);
    assert.deepEqual(again.items, residue.items);
  });

  it('a scan ahead whose host scan fails reads every file itself', async () => {
    const read: string[] = [];
    const editor = {
      languages: () => [{ id: 'typescript', aliases: [], extensions: ['.ts'], filenames: [], providedBy: [] }],
      readDocument: async (p: string) => (read.push(p), { text: 'add();\n' }),
      scanWords: async () => {
        throw new Error('the worker died');
      },
    } as unknown as EditorPort;
    const workspace = { fsPath: '/ws', files: async () => ({ paths: ['a.ts', 'b.ts'] }) } as unknown as Workspace;
    const ahead = await scanAhead({ name: 'add', languageId: 'typescript', workspace, editor });
    assert.deepEqual(read, ['/ws/a.ts', '/ws/b.ts']);
    assert.deepEqual(
      [...(ahead?.values() ?? [])].map((f) => f.starts),
      [[0], [0]],
    );
  });

  it('scans TypeScript and JavaScript together, any other language alone', () => {
    assert.deepEqual(languageFamily('javascriptreact'), ['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
    assert.deepEqual(languageFamily('python'), ['python']);
  });
});
