import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The hand-written pages: the README, ARCHITECTURE.md and docs/*.md (docs/reference/ is generated). */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'ARCHITECTURE.md', ...docs];
}

/** Markdown link targets ([text](target) and ![alt](target)), outside fenced code blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('docs: the README and the docs pages', () => {
  it('are found', () => {
    assert.ok(pages().length > 5, pages().join(', '));
  });

  it('every relative link reaches an existing file, and every anchor a heading of its page', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      for (const target of linkTargets(text)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [file, hash] = target.split('#');
        const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file));
        if (!fs.existsSync(resolved)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (hash && resolved.endsWith('.md')) {
          const headings = [...fs.readFileSync(resolved, 'utf8').matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchor(m[1]));
          if (!headings.includes(hash)) broken.push(`${page}: ${target} (no heading #${hash})`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the README stays short: at most 300 lines', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines`);
  });

  it("speak of the behaviour, not of the project's own process (issue numbers, the seed)", () => {
    const found: string[] = [];
    for (const page of pages()) {
      fs.readFileSync(path.join(ROOT, page), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bissues?\s+#?\d+|\bthe seeds?\b|\bseeds?'s?\b/i.test(line)) found.push(`${page}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });

  it("and neither does the code: sources, tests, scripts, benches, the webview's assets, the manifest and the changelog", () => {
    const self = path.relative(ROOT, __filename).replace(/^out[\\/]/, '').replace(/\.js$/, '.ts');
    const walk = (rel: string): string[] =>
      fs.statSync(path.join(ROOT, rel)).isDirectory()
        ? fs.readdirSync(path.join(ROOT, rel)).flatMap((e) => (e === 'fixtures' || e === 'results' ? [] : walk(path.join(rel, e))))
        : /\.(ts|mjs|js|json|md|css|html|sh)$/.test(rel)
          ? [rel]
          : [];
    const files = ['src', 'test', 'scripts', 'bench', 'media', 'package.json', 'CHANGELOG.md', 'esbuild.mjs'].flatMap(walk).filter((f) => f !== self);
    assert.ok(files.length > 200, `found the code (${files.length} files)`);
    const found: string[] = [];
    for (const file of files)
      {fs.readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // "seed" alone is a random generator's seed in the tests; the project's seed documents are "the seed(s)".
          if (/\bissues?\s+#?\d+|\bthe seeds?\b|\bseed's\b/i.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });}
    assert.deepEqual(found, []);
  });

  it('the package ships the docs pages the README links to', () => {
    const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!docs/*.md'), '.vscodeignore keeps docs/*.md in the .vsix');
  });
});
