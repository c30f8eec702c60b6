import * as assert from 'node:assert/strict';
import { guessIndentation } from '../../../../src/core/documents/indentation';

const SPACES_4 = { tabSize: 4, insertSpaces: true };

describe('guessIndentation: the indentation an editor detects from the text', () => {
  it('a 2-space TypeScript file with JSDoc (` * ` lines step by 1) and deep nesting is 2 spaces, not the default 4', () => {
    const text = [
      '/**',
      ' * Removes an item from an array.',
      ' * @param arr The array',
      ' */',
      'export function bufferCount<T>(size: number) {',
      '  return operate((source, subscriber) => {',
      '    source.subscribe(',
      '      createOperatorSubscriber(subscriber, (value) => {',
      '        for (const buffer of buffers) {',
      '          if (size <= buffer.length) {',
      '            toEmit.push(buffer);',
      '          }',
      '        }',
      '      })',
      '    );',
      '  });',
      '}',
    ].join('\n');
    assert.deepEqual(guessIndentation(text, SPACES_4), { tabSize: 2, insertSpaces: true });
  });

  it('4 spaces, tabs, CRLF, and no evidence (the defaults stand)', () => {
    assert.deepEqual(guessIndentation('class A {\n    m() {\n        return 1;\n    }\n}\n', { tabSize: 2, insertSpaces: true }), {
      tabSize: 4,
      insertSpaces: true,
    });
    assert.deepEqual(guessIndentation('class A {\r\n\tm() {\r\n\t\treturn 1;\r\n\t}\r\n}\r\n', SPACES_4), { tabSize: 4, insertSpaces: false });
    assert.deepEqual(guessIndentation('const a = 1;\nconst b = 2;\n', { tabSize: 3, insertSpaces: false }), { tabSize: 3, insertSpaces: false });
    assert.deepEqual(guessIndentation('', SPACES_4), SPACES_4);
  });

  it('continuation lines aligned under the line before (after a comma) are not levels', () => {
    const text = ['function f() {', '    const a = 1,', '          b = 2,', '          c = 3;', '    return a;', '}'].join('\n');
    assert.deepEqual(guessIndentation(text, { tabSize: 2, insertSpaces: true }), { tabSize: 4, insertSpaces: true });
  });
});
