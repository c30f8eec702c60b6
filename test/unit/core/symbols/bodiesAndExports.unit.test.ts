import * as assert from 'node:assert/strict';
import { elementBody, hasElementBodies, hasSectionBodies, sectionBody } from '../../../../src/core/symbols/bodies';
import { commonJsExports } from '../../../../src/core/symbols/exports';
import { readsHeritage } from '../../../../src/core/symbols/heritage';

describe('bodies of elements and sections, CommonJS exports, languages with base lists', () => {
  it("elementBody: an element's content between its start tag (quoted > skipped) and its end tag; none for a void or self-closing one", () => {
    const text = '<a title="x > y" href="#top">Top <b>now</b></a>\n<br/>\n<img src="a.png">';
    const body = elementBody(text, 0, text.indexOf('</a>') + 4);
    assert.ok(body);
    assert.equal(text.slice(body.start, body.end), 'Top <b>now</b>');
    assert.equal(elementBody(text, text.indexOf('<br/>'), text.indexOf('<br/>') + 5), undefined);
    assert.equal(elementBody(text, text.indexOf('<img'), text.length), undefined);
    const empty = elementBody('<p></p>', 0, 7);
    assert.deepEqual(empty, { start: 3, end: 3 });
  });

  it("sectionBody: the lines under a heading to its section's end, trailing blank lines left; CRLF kept", () => {
    const text = '## A\n\nText.\n\n### B\n\nMore.\n\n## C\n';
    const body = sectionBody(text, 3, text.indexOf('## C'));
    assert.equal(text.slice(body.start, body.end), '\n\nText.\n\n### B\n\nMore.');
    const crlf = '# T\r\nBody\r\n';
    const b = sectionBody(crlf, 2, crlf.length);
    assert.equal(crlf.slice(b.start, b.end), '\r\nBody');
    const lone = sectionBody('# Only', 2, 6);
    assert.deepEqual(lone, { start: 6, end: 6 });
  });

  it('commonJsExports: module.exports object keys (shorthand, renamed, methods, spread left out) and exports.x assignments', () => {
    const text = [
      'const a = 1;',
      'module.exports = { a, b: helper, c() { return { d: 1 }; }, ...rest, "e": 2 };',
      'exports.f = 3;',
      'module.exports.g = 4;',
      'if (exports.h === 1) {}',
      'other.exports.i = 5;',
    ].join('\n');
    assert.deepEqual([...commonJsExports(text)].sort(), ['a', 'b', 'c', 'e', 'f', 'g']);
    assert.deepEqual([...commonJsExports('export const x = 1;')], []);
  });

  it('which languages are read for element or section bodies and for base lists', () => {
    assert.deepEqual(['html', 'markdown', 'css'].map(hasElementBodies), [true, false, false]);
    assert.deepEqual(['html', 'markdown', 'css'].map(hasSectionBodies), [false, true, false]);
    assert.deepEqual(['typescript', 'javascript', 'python', 'csharp', 'css', 'json', 'html', 'markdown'].map(readsHeritage), [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
