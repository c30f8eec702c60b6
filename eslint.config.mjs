import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test/fixtures/**', '.vscode-test/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'multi-line'],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The rings: core is plain TypeScript that knows neither the tools nor VS Code; tools build on
    // core only; only src/host and src/extension.ts talk to VS Code.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Only src/host may import vscode.' }],
          patterns: [
            { group: ['**/host/*', '**/tools/*', '**/tools', '**/extension'], message: 'src/core imports neither src/host nor src/tools.' },
            { group: ['**/checker/*'], message: 'src/checker runs in a worker the host starts: src/core never imports it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Only src/host may import vscode.' }],
          patterns: [
            { group: ['**/host/*', '**/extension'], message: 'src/tools never imports src/host.' },
            { group: ['**/checker/*'], message: 'src/checker runs in a worker the host starts: tools reach it through the host.' },
          ],
        },
      ],
    },
  },
  {
    // The MCP door is plain Node (its HTTP server and the stdio bridge): VS Code stays in src/host.
    files: ['src/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Only src/host may import vscode.' }],
          patterns: [{ group: ['**/host/*', '**/extension'], message: 'src/mcp never imports src/host.' }],
        },
      ],
    },
  },
  {
    // The checker is plain Node run in a worker thread: it loads TypeScript from the path it is given and knows no other ring.
    files: ['src/checker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'Only src/host may import vscode.' },
            {
              name: 'typescript',
              message: 'The worker requires the TypeScript the host names at run time; import only its types (import type).',
              allowTypeImports: true,
            },
          ],
          patterns: [{ group: ['**/host/*', '**/tools/*', '**/core/*', '**/mcp/*', '**/extension'], message: 'src/checker imports no other ring.' }],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' },
    },
  },
);
