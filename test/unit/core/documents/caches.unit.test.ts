import * as assert from 'node:assert/strict';
import { FakeHost, symbolsIn } from '../../support/fakeHost';
import { createHarness } from '../../support/harness';

describe('caches: language-service answers kept across calls, in one object', () => {
  it('an unchanged document is not asked for again; Services.caches.clear() forgets it; a changed text is asked for again', async () => {
    const host = new FakeHost();
    const text = 'export class A {}\n';
    const folder = host.addFolder('app', { 'src/a.ts': text });
    const abs = host.abs(folder, 'src/a.ts');
    host.setSymbols(abs, symbolsIn(text, [{ name: 'A', kind: 'Class', from: 'export class', to: '{}' }]));
    const h = await createHarness({ host });
    const outline = () => h.ok('get-document-outline', { document: { path: 'src/a.ts' } });
    await outline();
    await outline();
    assert.equal(host.callCount('documentSymbols', abs), 1, 'kept while the text is the same');
    assert.equal(h.services.caches.symbolTrees.size, 1);
    h.services.caches.clear();
    assert.equal(h.services.caches.symbolTrees.size, 0);
    await outline();
    assert.equal(host.callCount('documentSymbols', abs), 2, 'asked again after clear()');
    host.editBuffer(abs, text + '// more\n');
    await outline();
    assert.equal(host.callCount('documentSymbols', abs), 3, 'asked again for a changed text');
  });
});
