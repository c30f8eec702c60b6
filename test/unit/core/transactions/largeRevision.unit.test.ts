/**
 * Big mutations answer the truth: a revision touching 2,000 files under a small output limit
 * (LEAD NOTE 2 in coord/tx1.md: rename-symbol used to answer OutputTooLarge although it staged).
 */
import * as assert from 'node:assert/strict';
import { ANSWER_LIST_DEFAULT, SHORTENED_NOTE, boundToFit, fitsBytes, utf8Bytes } from '../../../../src/core/chain/bounding';
import { defineTool } from '../../../../src/core/chain/definition';
import type { ReviewedMutationData, SemanticMutationData } from '../../../../src/tools/shared/semanticStaging';
import { ALL_TOOLS } from '../../../../src/tools';
import { MUTATION, mutationAnnotations } from '../../../../src/tools/shared/mutations';
import { FakeHost } from '../../support/fakeHost';
import type { FakeEdits } from '../../support/fakeHost';
import { createHarness, expectError, expectOk } from '../../support/harness';
import type { Harness } from '../../support/harness';

const FILES = 2000;
const LIMIT = 8192;
const ENTITY = 'export class Entity {\n  id = 0;\n}\n';
const moduleText = (i: number): string =>
  `import { Entity } from './entity';\n\nexport const e${i} = new Entity();\nexport function make${i}(): Entity {\n  return new Entity();\n}\n`;
const modulePath = (i: number): string => `src/m${String(i).padStart(4, '0')}.ts`;
/** A crude token count: what VS Code's tokenizer is to the chain. */
const tokens = async (text: string): Promise<number> => Math.ceil(text.length / 4);

describe('large revisions: answers fit and tell the truth (2,000 files)', () => {
  let host: FakeHost;
  let h: Harness;
  let abs: (p: string) => string;
  const paths = ['src/entity.ts', ...Array.from({ length: FILES - 1 }, (_, i) => modulePath(i))];

  beforeEach(async () => {
    host = new FakeHost();
    const files: Record<string, string> = { 'tsconfig.json': '{}\n', 'src/entity.ts': ENTITY };
    for (let i = 0; i < FILES - 1; i++) files[modulePath(i)] = moduleText(i);
    const folder = host.addFolder('big', files);
    abs = (p) => host.abs(folder, p);
    host.semantics.prepareRename = (_absPath, offset, text) => {
      const word = /^\w+/.exec(text.slice(offset))?.[0] ?? '';
      return { ok: true, range: { start: offset, end: offset + word.length }, placeholder: word };
    };
    host.semantics.rename = (absPath, offset, newName) => {
      const word = /^\w+/.exec(host.currentText(absPath)?.slice(offset) ?? '')?.[0] ?? '';
      const edits: FakeEdits = {};
      for (const p of paths) {
        const text = host.currentText(abs(p)) ?? '';
        edits[abs(p)] = [...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))].map((m) => ({ start: m.index ?? 0, length: word.length, newText: newName }));
      }
      return edits;
    };
    h = await createHarness({ host, settings: { defaultMaxOutputBytes: LIMIT, operationalMode: 'autonomous-trusted', defaultTimeoutSeconds: 120 } });
  });

  const rename = (options?: Parameters<Harness['call']>[2]) =>
    h.call(
      'rename-symbol',
      { symbol: { location: { span: { document: { path: 'src/entity.ts' }, range: { start: 13, length: 6 } } } }, newName: 'Thing' },
      options,
    );
  const ws = () => h.registry.all()[0];
  const referenceCount = 1 + (FILES - 1) * 4;

  it('rename-symbol stages all 2,000 files and answers a shortened list with the true counts', async () => {
    const result = await rename();
    assert.ok(utf8Bytes(result.text) <= LIMIT, `${utf8Bytes(result.text)} bytes`);
    const d = expectOk<SemanticMutationData>(result).data;
    assert.equal(d.transaction.revision, 1);
    assert.equal(d.revision.summary, 'Rename Entity to Thing');
    assert.equal(d.documents.totalCount, FILES);
    assert.equal(d.documents.hasMore, true);
    assert.equal(d.documents.items.length, ANSWER_LIST_DEFAULT, 'an agent reads the first files; transaction-preview shows the rest');
    assert.deepEqual(
      d.documents.items[0],
      { path: 'src/entity.ts', changedLines: 1, edits: 1 },
      'changeKind left out: Modified; added and removed lines, equal to the changed ones; the edits in the file',
    );
    assert.deepEqual([d.staged.edits, d.staged.fileOperations], [referenceCount, 0]);
    assert.deepEqual(
      d.documents.items.slice(1).map((x) => x.edits),
      Array<number>(ANSWER_LIST_DEFAULT - 1).fill(4),
      'every listed module has its 4 edits',
    );
    assert.equal(h.transactions.stagedText(ws(), modulePath(1998)), moduleText(1998).replaceAll('Entity', 'Thing'));
    assert.equal(h.logs.at(-1)?.truncated, false, 'the capped lists fit without the chain shortening them');
  });

  it('rename-symbol answers a minimal success, never an error, when even empty lists do not fit (a tiny token budget)', async () => {
    const result = await rename({ tokenBudget: 120, countTokens: tokens });
    const envelope = expectOk<SemanticMutationData>(result);
    const d = envelope.data;
    assert.deepEqual(
      [d.transaction.revision, d.revision.summary, d.documents, d.staged],
      [1, 'Rename Entity to Thing', { items: [], hasMore: true, totalCount: FILES }, { edits: referenceCount, fileOperations: 0 }],
    );
    assert.deepEqual(d.notes, [SHORTENED_NOTE]);
    assert.equal(envelope.snapshot.transactionRevision, 1, 'the snapshot still says revision 1 is staged');
    assert.equal(h.transactions.active(ws().id)?.current, 1, 'and it is');
    assert.equal((await h.transactions.preview(ws())).length, FILES);
  });

  it('transaction-preview lists what fits, with documentCount and documentsTruncated; the asked-for diff stays whole', async () => {
    expectOk(await rename());
    const result = await h.call('transaction-preview', {});
    assert.ok(utf8Bytes(result.text) <= LIMIT);
    const d = expectOk<{ documents: { document: { path: string } }[]; documentCount: number; documentsTruncated: boolean }>(result).data;
    assert.equal(d.documentCount, FILES);
    assert.equal(d.documentsTruncated, true);
    assert.ok(d.documents.length > 0 && d.documents.length < FILES);
    assert.deepEqual(
      d.documents.map((x) => x.document.path),
      [...paths].sort().slice(0, d.documents.length),
      'a prefix in path order',
    );
    const withDiff = expectOk<{ documentsTruncated: boolean; diff: { hunks: { lines: string[] }[]; truncated: boolean } }>(
      await h.call('transaction-preview', { document: { path: modulePath(7) }, includeDiff: true }),
    ).data;
    assert.equal(withDiff.diff.truncated, false);
    assert.deepEqual(
      withDiff.diff.hunks.flatMap((x) => x.lines).filter((l) => l.startsWith('+')),
      ["+import { Thing } from './entity';", '+export const e7 = new Thing();', '+export function make7(): Thing {', '+  return new Thing();'],
    );
    assert.equal(withDiff.documentsTruncated, false, 'a one-document preview lists that document only, and leaves nothing out');
    // A document beyond the listed ones still has its diff, by path or by documentId.
    const last = [...paths].sort().at(-1) as string;
    assert.ok(!d.documents.some((x) => x.document.path === last));
    for (const document of [{ path: last }, { documentId: ws().documentId(last) }]) {
      const far = expectOk<{ diff: { document: { path: string }; hunks: unknown[] } }>(
        await h.call('transaction-preview', { document, includeDiff: true }),
      ).data;
      assert.deepEqual([far.diff.document.path, far.diff.hunks.length > 0], [last, true]);
    }
  });

  it('transaction-preview with includeDiff and no document: the diffs of the first documents, cut from the end, and a note saying what is missing', async () => {
    expectOk(await rename());
    const result = await h.call('transaction-preview', { includeDiff: true });
    assert.ok(utf8Bytes(result.text) <= LIMIT, `${utf8Bytes(result.text)} bytes`);
    type Diff = { path: string; diff?: string; lines?: [number, string][]; truncated?: boolean; addedLines?: number };
    const d = expectOk<{ documents?: unknown; diffs: { items: Diff[]; hasMore: boolean; totalCount: number }; note: string }>(result).data;
    assert.equal(d.documents, undefined, 'diffs name the documents: no second list beside them');
    assert.deepEqual([d.diffs.totalCount, d.diffs.hasMore], [FILES, true]);
    const listed = d.diffs.items.map((x) => x.path);
    assert.deepEqual(listed, [...paths].sort().slice(0, listed.length), 'the first documents, in order');
    const whole = d.diffs.items.filter((i) => !i.truncated);
    assert.ok(whole.length > 1 && whole.length < listed.length, `${whole.length} whole diffs of ${listed.length} listed`);
    assert.deepEqual(d.diffs.items.slice(0, whole.length), whole, 'whole diffs first, then the documents the limit cut');
    // The transaction holds one rename and it is each file's every change: each file lists its changed lines.
    for (const x of whole) {
      assert.equal(x.diff, undefined, x.path);
      assert.ok(x.lines && x.lines.length > 0 && x.lines.every(([line, text]) => line > 0 && /\bThing\b/.test(text) && !/\bEntity\b/.test(text)), x.path);
      assert.equal(x.addedLines, undefined, 'whole lines say their own line counts');
    }
    for (const x of d.diffs.items.slice(whole.length)) {
      assert.deepEqual([x.truncated, (x.addedLines ?? 0) > 0], [true, true], `${x.path}: cut, with its counts`);
    }
    for (const x of d.diffs.items.slice(whole.length + 1)) assert.deepEqual([x.diff, x.lines], [undefined, undefined], `${x.path}: past the limit, no diff`);
    const next = listed[whole.length];
    assert.match(d.note, new RegExp(`of ${FILES} changed documents fit the output limit.*Ask with document for .*${next.replace('.', '\\.')}`));
    // The one named next has its diff on its own.
    const alone = expectOk<{ diff: { document: { path: string }; hunks: unknown[]; truncated: boolean } }>(
      await h.call('transaction-preview', { document: { path: next }, includeDiff: true }),
    ).data;
    assert.deepEqual([alone.diff.document.path, alone.diff.truncated, alone.diff.hunks.length > 0], [next, false, true]);
  });

  it('rename-symbol with includeDiff stages all 2,000 files and answers the diffs that fit, the rest counted and named', async () => {
    const result = await h.call('rename-symbol', {
      symbol: { location: { span: { document: { path: 'src/entity.ts' }, range: { start: 13, length: 6 } } } },
      newName: 'Thing',
      includeDiff: true,
    });
    assert.ok(utf8Bytes(result.text) <= LIMIT, `${utf8Bytes(result.text)} bytes`);
    const d = expectOk<ReviewedMutationData>(result).data;
    assert.deepEqual([d.staged.edits, d.diffs.totalCount, d.diffs.hasMore], [referenceCount, FILES, true]);
    const whole = d.diffs.items.filter((i) => !i.truncated);
    assert.ok(whole.length > 1, `${whole.length} whole diffs`);
    // Each file's every change is the rename: its changed lines.
    assert.deepEqual(whole[0], { path: 'src/entity.ts', lines: [[1, 'export class Thing {']] });
    assert.deepEqual(
      whole[1].lines?.map(([, text]) => /\bThing\b/.test(text) && !/\bEntity\b/.test(text)),
      [true, true, true, true],
      'a module: its import, the const, the return type and the new',
    );
    const next = d.diffs.items[whole.length].path;
    // The file the budget ran out in keeps its first lines, and the note says it was cut, not that it has none.
    const cut = d.diffs.items[whole.length];
    assert.deepEqual([cut.truncated, cut.lines?.[0], cut.addedLines], [true, [1, "import { Thing } from './entity';"], 4]);
    // As many listed without their diff as the note says: the list ends where the limit came, not after it.
    const note = d.notes?.join(' ') ?? '';
    assert.match(note, new RegExp(`${next.replace('.', '\\.')} lost hunks or lines from its end`));
    const listedWithout = d.diffs.items.filter((i) => i.diff === undefined && i.lines === undefined).length;
    assert.equal(Number(/(\d+) documents? listed without/.exec(note)?.[1] ?? 0), listedWithout, note);
    assert.match(
      d.notes?.join(' ') ?? '',
      new RegExp(`of ${FILES} changed documents fit the output limit.*Ask transaction-preview with includeDiff and document for ${next.replace('.', '\\.')}`),
    );
    assert.equal(host.diskText(abs(modulePath(1998))), moduleText(1998), 'nothing written');
    assert.equal(h.services.transactions.stagedText(ws(), modulePath(1998)), moduleText(1998).replaceAll('Entity', 'Thing'));
  });

  it('transaction-commit writes 2,000 files and answers a shortened files list; with a tiny budget a minimal success', async () => {
    expectOk(await rename());
    const committed = await h.call('transaction-commit', {});
    assert.ok(utf8Bytes(committed.text) <= LIMIT);
    const d = expectOk<{ files: { items: { path: string }[]; hasMore: boolean; totalCount: number }; transaction: { canCommit: boolean } }>(committed).data;
    assert.deepEqual([d.files.totalCount, d.files.hasMore, d.transaction.canCommit], [FILES, true, false]);
    assert.ok(d.files.items.length > 0);
    assert.equal(host.diskText(abs(modulePath(1500))), moduleText(1500).replaceAll('Entity', 'Thing'));
    assert.equal(h.transactions.active(ws().id), undefined);

    expectOk(
      await h.call('rename-symbol', {
        symbol: { location: { span: { document: { path: 'src/entity.ts' }, range: { start: 13, length: 5 } } } },
        newName: 'Entity',
      }),
    );
    const tiny = expectOk<{ notes: string[]; files: object; transactionId: string }>(
      await h.call('transaction-commit', {}, { tokenBudget: 100, countTokens: tokens }),
    );
    assert.deepEqual([tiny.data.notes, tiny.data.files], [[SHORTENED_NOTE], { items: [], hasMore: true, totalCount: FILES }]);
    assert.match(tiny.data.transactionId, /^[0-9a-f-]{36}$/);
    assert.equal(host.diskText(abs(modulePath(3))), moduleText(3), 'the second commit was written too');
  });
});

describe('large revisions: the chain after a commit point', () => {
  const big = {
    title: 'x'.repeat(400),
    list: Array.from({ length: 500 }, (_, i) => `item ${i}`),
    state: { revision: 3, canCommit: true },
    files: { items: ['a', 'b'], hasMore: false, totalCount: 2 },
  };
  const tool = (name: string, commits: boolean) =>
    defineTool({
      name,
      title: name,
      category: 'Mutations',
      ...MUTATION,
      description: 'test',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      dataSchema: { type: 'object' },
      annotations: mutationAnnotations(name),
      examples: [],
      async run(_input, ctx): Promise<typeof big> {
        if (commits) ctx.commitPoint();
        return big;
      },
    });

  it('keeps the essentials (scalars, short strings, emptied collections with counts) instead of OutputTooLarge', async () => {
    const h = await createHarness({
      tools: [...ALL_TOOLS, tool('test-committed', true), tool('test-uncommitted', false)],
      settings: { defaultMaxOutputBytes: 1024 },
      validateEnvelopes: false,
    });
    h.host.addFolder('w', { 'a.txt': 'a\n' });
    await h.sync();
    const kept = expectOk<Record<string, unknown>>(await h.call('test-committed', {})).data;
    assert.deepEqual(kept, {
      title: `${'x'.repeat(200)}…`,
      state: { revision: 3, canCommit: true },
      files: { items: [], hasMore: true, totalCount: 2 },
      notes: [SHORTENED_NOTE],
    });
    expectError(await h.call('test-uncommitted', {}), 'OutputTooLarge');
  });
});

describe("large revisions: bounding a plain list (roslyn-workbench-mcp's shape)", () => {
  it('shortens a plain array that has an xTruncated flag next to it, from the end, and sets the flag', async () => {
    const value = {
      documents: Array.from({ length: 100 }, (_, i) => ({ path: `f${i}` })),
      documentsTruncated: false,
      other: Array.from({ length: 100 }, (_, i) => i),
    };
    const result = await boundToFit(value, fitsBytes(900));
    assert.ok(result);
    const bounded = JSON.parse(result.text) as typeof value;
    assert.equal(bounded.documentsTruncated, true);
    assert.ok(bounded.documents.length > 0 && bounded.documents.length < 100);
    assert.deepEqual(bounded.documents, value.documents.slice(0, bounded.documents.length));
    assert.deepEqual(bounded.other, value.other, 'an array without a flag is not a collection');
  });
});

describe('large revisions: a failing tokenizer after the change was made', () => {
  it('answers the staged revision by its byte limit instead of an error', async () => {
    const host = new FakeHost();
    host.addFolder('w', { 'a.txt': 'alpha\n' });
    const h = await createHarness({ host });
    const broken = async (): Promise<number> => {
      throw new Error('tokenizer unavailable');
    };
    const staged = expectOk<{ documents: { totalCount: number } }>(
      await h.call(
        'edit-text',
        { edits: [{ location: { selection: { document: { path: 'a.txt' }, selectedText: 'alpha' } }, newText: 'beta' }] },
        { tokenBudget: 1000, countTokens: broken },
      ),
    );
    assert.equal(staged.data.documents.totalCount, 1);
    assert.equal(h.transactions.stagedText(h.registry.all()[0], 'a.txt'), 'beta\n');
    expectError(await h.call('transaction-preview', {}, { tokenBudget: 1000, countTokens: broken }), 'UnhandledException');
  });
});
