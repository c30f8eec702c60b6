import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints esbuild's problems in the form VS Code's $esbuild-watch matcher reads. */
const problemReporter = {
  name: 'problem-reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const shared = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  // jsonc-parser's main entry is UMD, which esbuild cannot follow; its ES module entry bundles cleanly.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'silent',
  metafile: true,
  plugins: [problemReporter],
};

// The extension, and the stdio bridge an MCP client starts with `node <extension>/dist/mcp-stdio.js` (src/mcp/stdioBridge.ts).
const contexts = await Promise.all([
  esbuild.context({ ...shared, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' }),
  esbuild.context({ ...shared, entryPoints: ['src/mcp/stdioBridge.ts'], outfile: 'dist/mcp-stdio.js' }),
]);

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (results.some((r) => r.errors.length > 0)) process.exit(1);
}
