import * as assert from 'node:assert/strict';
import type { MutationData } from '../../../src/core/transactions/types';
import { FakeHost, symbolsIn } from '../support/fakeHost';
import { createHarness } from '../support/harness';
import type { Harness } from '../support/harness';

/*
 * Symbol edits resolve in the editor buffer and are placed on the staged text: one that only meets
 * a staged change (an insertion at the end or the start of a replaced range, or at a staged
 * insertion's point) is placed beside it, never refused as an overlap.
 */

/** A Python class as pyright outlines it: the class and its last method both end at the method's last statement. */
const PY = [
  'class Polygon:',
  '    def area(self) -> float:',
  '        return 0.0',
  '',
  '    def perimeter(self) -> float:',
  '        return 1.0',
  '',
  '',
  'LIMIT = 3',
  '',
].join('\n');

const TS = [
  'export class Greeter {',
  '  greet(name: string): string {',
  '    return name;',
  '  }',
  '',
  '  loud(name: string): string {',
  '    return name.toUpperCase();',
  '  }',
  '}',
  '',
  'export const VERSION = 1;',
  '',
].join('\n');

async function setup(): Promise<{ h: Harness; id: (file: string, path: string) => { symbolId: string }; text: (file: string) => string | undefined }> {
  const host = new FakeHost();
  const folder = host.addFolder('app', { 'package.json': '{"name":"app"}', 'shapes.py': PY, 'greeter.ts': TS });
  const abs = (p: string) => host.abs(folder, p);
  host.openDocument(abs('shapes.py'), undefined, 'python');
  host.openDocument(abs('greeter.ts'), undefined, 'typescript');
  host.setSymbols(
    abs('shapes.py'),
    symbolsIn(PY, [
      {
        name: 'Polygon',
        kind: 'Class',
        from: 'class Polygon',
        to: 'return 1.0',
        children: [
          { name: 'area', kind: 'Method', from: 'def area', to: 'return 0.0' },
          { name: 'perimeter', kind: 'Method', from: 'def perimeter', to: 'return 1.0' },
        ],
      },
      { name: 'LIMIT', kind: 'Variable', from: 'LIMIT', to: '= 3' },
    ]),
  );
  host.setSymbols(
    abs('greeter.ts'),
    symbolsIn(TS, [
      {
        name: 'Greeter',
        kind: 'Class',
        from: 'export class',
        to: '  }\n}',
        children: [
          { name: 'greet', kind: 'Method', from: 'greet(', to: '  }' },
          { name: 'loud', kind: 'Method', from: 'loud(', to: '  }' },
        ],
      },
      { name: 'VERSION', kind: 'Variable', from: 'VERSION', to: '= 1' },
    ]),
  );
  const h = await createHarness({ host });
  const ws = h.registry.all()[0];
  return { h, id: (file, p) => ({ symbolId: `${ws.documentId(file)}#${p}` }), text: (file) => h.transactions.stagedText(ws, file) };
}

describe('symbol edits beside staged changes (adjacent, not overlapping)', () => {
  it("Python: replace-symbol-body of a class's last method, then insert-after-symbol of the class lands after the new body", async () => {
    const { h, id, text } = await setup();
    await h.ok('replace-symbol-body', { symbol: id('shapes.py', 'Class:Polygon/Method:perimeter'), text: 'sides = 4\nreturn sides * 1.0' });
    const after = await h.ok<MutationData>('insert-after-symbol', { symbol: id('shapes.py', 'Class:Polygon'), text: '\n\nclass Square(Polygon):\n    pass' });
    assert.equal(after.data.transaction?.revision, 2);
    assert.deepEqual(after.data.documents.items, [{ path: 'shapes.py', addedLines: 4 }]);
    assert.equal(
      text('shapes.py'),
      [
        'class Polygon:',
        '    def area(self) -> float:',
        '        return 0.0',
        '',
        '    def perimeter(self) -> float:',
        '        sides = 4',
        '        return sides * 1.0',
        '',
        '',
        'class Square(Polygon):',
        '    pass',
        '',
        '',
        'LIMIT = 3',
        '',
      ].join('\n'),
    );
  });

  it('Python: the same two edits in the other order', async () => {
    const { h, id, text } = await setup();
    await h.ok('insert-after-symbol', { symbol: id('shapes.py', 'Class:Polygon'), text: '\n\nclass Square(Polygon):\n    pass' });
    await h.ok('replace-symbol-body', { symbol: id('shapes.py', 'Class:Polygon/Method:perimeter'), text: 'return 2.0' });
    assert.equal(text('shapes.py'), PY.replace('        return 1.0\n', '        return 2.0\n\n\nclass Square(Polygon):\n    pass\n'));
  });

  it('Python: replacing a body that holds a staged insertion conflicts and stages nothing; a body ending at it is placed before it', async () => {
    const { h, id, text } = await setup();
    await h.ok('insert-after-symbol', { symbol: id('shapes.py', 'Class:Polygon/Method:area'), text: '\ndef name(self) -> str:\n    return "p"' });
    const staged = text('shapes.py');
    const refused = await h.fail('replace-symbol-body', { symbol: id('shapes.py', 'Class:Polygon'), text: 'pass' }, 'TransactionConflicted');
    assert.match(refused.error.message, /overlaps a change already staged at line 3/);
    assert.equal(text('shapes.py'), staged);
    await h.ok('replace-symbol-body', { symbol: id('shapes.py', 'Class:Polygon/Method:area'), text: 'return -1.0' });
    assert.equal(text('shapes.py'), PY.replace('        return 0.0\n', '        return -1.0\n\n    def name(self) -> str:\n        return "p"\n'));
  });

  it('TypeScript: two insert-after-symbol of one symbol are both kept, in the order they were staged', async () => {
    const { h, id, text } = await setup();
    await h.ok('replace-symbol-body', { symbol: id('greeter.ts', 'Class:Greeter/Method:loud'), text: 'return name + "!";' });
    await h.ok('insert-after-symbol', { symbol: id('greeter.ts', 'Class:Greeter'), text: '\nexport const ONE = 1;' });
    await h.ok('insert-after-symbol', { symbol: id('greeter.ts', 'Class:Greeter'), text: 'export const TWO = 2;' });
    await h.ok('insert-before-symbol', { symbol: id('greeter.ts', 'Class:Greeter/Method:loud'), text: '/** Loud. */' });
    await h.ok('insert-before-symbol', { symbol: id('greeter.ts', 'Class:Greeter/Method:loud'), text: '// Shouts.' });
    assert.equal(
      text('greeter.ts'),
      [
        'export class Greeter {',
        '  greet(name: string): string {',
        '    return name;',
        '  }',
        '',
        '  /** Loud. */',
        '  // Shouts.',
        '  loud(name: string): string {',
        '    return name + "!";',
        '  }',
        '}',
        '',
        'export const ONE = 1;',
        'export const TWO = 2;',
        '',
        'export const VERSION = 1;',
        '',
      ].join('\n'),
    );
  });

  it('TypeScript: insert-after-symbol and insert-before-symbol meet a line edit-text replaced: after it and before it', async () => {
    const { h, id, text } = await setup();
    await h.ok('edit-text', {
      edits: [
        { location: { selection: { document: { path: 'greeter.ts' }, selectedText: 'export const VERSION = 1;' } }, newText: 'export const VERSION = 2;' },
      ],
    });
    await h.ok('insert-after-symbol', { symbol: id('greeter.ts', 'Variable:VERSION'), text: 'export const NEXT = VERSION + 1;' });
    await h.ok('insert-before-symbol', { symbol: id('greeter.ts', 'Variable:VERSION'), text: '/** The version. */' });
    assert.equal(
      text('greeter.ts'),
      TS.replace('export const VERSION = 1;\n', '/** The version. */\nexport const VERSION = 2;\nexport const NEXT = VERSION + 1;\n'),
    );
  });
});
