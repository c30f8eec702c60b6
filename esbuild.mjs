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

const context = await esbuild.context({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  // jsonc-parser's main entry is UMD, which esbuild cannot follow; its ES module entry bundles cleanly.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'silent',
  metafile: true,
  plugins: [problemReporter],
});

if (watch) {
  await context.watch();
} else {
  const result = await context.rebuild();
  await context.dispose();
  if (result.errors.length > 0) process.exit(1);
}
