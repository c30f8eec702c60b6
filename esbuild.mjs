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

/**
 * The MCP server (and the SDK and zod with it) is its own file, dist/mcp-server.js, required by the
 * extension only when the server starts: a window that never serves MCP does not load or parse it.
 */
const mcpServerApart = {
  name: 'mcp-server-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/mcp\/server\.js$/ }, (args) =>
      args.importer.endsWith('src/host/mcp.ts') || args.importer.endsWith('src\\host\\mcp.ts') ? { path: './mcp-server.js', external: true } : undefined,
    );
  },
};

// The extension, its MCP server, the checker's worker, and the stdio bridge an MCP client starts with `node <extension>/dist/mcp-stdio.js` (src/mcp/stdioBridge.ts).
const contexts = await Promise.all([
  esbuild.context({
    ...shared,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    plugins: [...shared.plugins, mcpServerApart],
    // import() of the apart file becomes require(), resolved next to dist/extension.js.
    supported: { 'dynamic-import': false },
  }),
  esbuild.context({ ...shared, entryPoints: ['src/mcp/server.ts'], outfile: 'dist/mcp-server.js' }),
  esbuild.context({ ...shared, entryPoints: ['src/mcp/stdioBridge.ts'], outfile: 'dist/mcp-stdio.js' }),
  // The diagnostics checker's worker thread: it requires at run time the TypeScript the host names (VS Code's own), never a bundled one.
  esbuild.context({ ...shared, entryPoints: ['src/checker/worker.ts'], outfile: 'dist/check-worker.js', external: [...shared.external, 'typescript'] }),
  // The word scan's worker thread (a rename's residue, scanned while the language service computes the rename).
  esbuild.context({ ...shared, entryPoints: ['src/host/wordScanWorker.ts'], outfile: 'dist/word-scan-worker.js' }),
]);

if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (results.some((r) => r.errors.length > 0)) process.exit(1);
}
