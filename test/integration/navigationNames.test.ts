import * as assert from 'node:assert/strict';
import type { SymbolOutput } from '../../src/core/symbols/symbols';
import type { ReferencesData } from '../../src/tools/references';
import { activateExtension, expectError, expectOk, invoke, waitForSymbols } from './helpers';

const symbolIdOf = async (symbol: Record<string, unknown>): Promise<string> => expectOk<SymbolOutput>(await invoke('resolve-symbol', { symbol })).data.symbolId;

describe('navigation: a symbol by its name path, through TypeScript’s symbols', function () {
  before(async function () {
    await activateExtension();
    for (const file of ['src/shapes.ts', 'src/overloads.ts']) await waitForSymbols(file);
  });

  it('get-symbol-info and find-references take {name} and answer as for the symbolId', async () => {
    const info = expectOk<SymbolOutput & { containers: string[] }>(await invoke('get-symbol-info', { symbol: { name: 'Formatter.trim' } })).data;
    assert.match(info.symbolId, /:src\/overloads\.ts#Class:Formatter\/Method:trim$/);
    assert.deepEqual(info.containers, ['Formatter']);
    const circle = await symbolIdOf({ name: 'Circle' });
    assert.match(circle, /:src\/shapes\.ts#Class:Circle$/);
    const byName = expectOk<ReferencesData>(await invoke('find-references', { symbol: { name: 'Circle.area' } })).data;
    const byId = expectOk<ReferencesData>(await invoke('find-references', { symbol: { symbolId: `${circle}/Method:area` } })).data;
    assert.ok(byName.totalReferences > 0);
    assert.deepEqual(byName, byId);
  });

  it('a name several symbols answer to is SymbolAmbiguous, listing each with kind, path:line and symbolId; path and kind narrow it', async () => {
    const failure = expectError(await invoke('get-symbol-info', { symbol: { name: 'area' } }), 'SymbolAmbiguous');
    for (const owner of ['Shape', 'Base', 'Circle', 'Square', 'UnitSquare']) {
      assert.match(
        failure.error.message,
        new RegExp(`Method ${owner}\\.area \\(src/shapes\\.ts:\\d+, symbolId "[0-9a-f]{8}:src/shapes\\.ts#(Interface|Class):${owner}/Method:area"\\)`),
        owner,
      );
    }
    assert.match(await symbolIdOf({ name: 'UnitSquare.area', path: 'src/shapes.ts', kind: 'Method' }), /#Class:UnitSquare\/Method:area$/);
    expectError(await invoke('resolve-symbol', { symbol: { name: 'Circle', kind: 'Function' } }), 'SymbolNotFound');
  });

  it('overloads: an index in source order picks one, none is SymbolAmbiguous', async () => {
    const failure = expectError(await invoke('find-overloads', { symbol: { name: 'format' } }), 'SymbolAmbiguous');
    assert.match(failure.error.message, /overloads of one declaration \(symbol\.overload 0 to 2, in source order\)/);
    assert.match(await symbolIdOf({ name: 'format', overload: 0 }), /:src\/overloads\.ts#Function:format$/);
    assert.match(await symbolIdOf({ name: 'format', overload: 2 }), /:src\/overloads\.ts#Function:format~2$/);
    assert.match(await symbolIdOf({ name: 'Formatter.pad', overload: 1 }), /#Class:Formatter\/Method:pad~1$/);
  });

  it('replace-symbol-body stages the body of the symbol it is given by name', async () => {
    try {
      expectOk(await invoke('replace-symbol-body', { symbol: { name: 'Formatter.trim' }, text: 'return value.trimEnd();' }));
      const preview = expectOk<{ diff: { hunks: { lines: string[] }[] } }>(
        await invoke('transaction-preview', { document: { path: 'src/overloads.ts' }, includeDiff: true }),
      ).data;
      const changed = preview.diff.hunks.flatMap((hunk) => hunk.lines).filter((l) => l.startsWith('+') || l.startsWith('-'));
      assert.deepEqual(changed, ['-    return value.trim();', '+    return value.trimEnd();']);
    } finally {
      await invoke('transaction-rollback', {});
    }
  });
});
