import * as assert from 'node:assert/strict';
import { readableHover } from '../../../../src/core/symbols/signature';

describe('readableHover', () => {
  // What TypeScript 5's hover says for rxjs's Subscriber: {@link Observer} becomes a command link naming the file's absolute path.
  const link = (name: string, file: string) =>
    `[${name}](command:_typescript.openJsDocLink?${encodeURIComponent(JSON.stringify([{ file: { fsPath: file, scheme: 'file' }, position: { line: 185, character: 0 } }]))} "Open symbol link")`;

  it('reduces command links to their text and trims the blank lines around each part', () => {
    const parts = [
      '\n```typescript\nclass Subscriber<T>\n```\n',
      `Implements the ${link('Observer', '/tmp/x/src/types.ts')} interface and extends the\n${link('Subscription', '/tmp/x/src/Subscription.ts')} class.`,
    ];
    assert.deepEqual(readableHover(parts), [
      '```typescript\nclass Subscriber<T>\n```',
      'Implements the Observer interface and extends the\nSubscription class.',
    ]);
  });

  it('keeps links to the web and leaves out parts left empty', () => {
    assert.deepEqual(readableHover(['See [the docs](https://rxjs.dev/guide "guide").', '\n \n']), ['See [the docs](https://rxjs.dev/guide "guide").']);
  });

  it('keeps a command link without a title as its text, and cuts a part past 4,000 characters', () => {
    assert.deepEqual(readableHover(['[run](command:foo.bar) now']), ['run now']);
    const long = readableHover(['x'.repeat(4100)]);
    assert.equal(long[0].length, 4001);
    assert.ok(long[0].endsWith('…'));
  });
});
