/**
 * The language support matrix: what the `languages` integration suite finds
 * (test/integration/languages.test.ts writes out/test-artifacts/languages.json, which must equal
 * the committed docs/languages.json) and the table in docs/languages.md generated from it (scripts/generated.ts).
 */

export const LANGUAGES = ['TypeScript', 'JavaScript', 'Python', 'JSON', 'CSS', 'HTML', 'Markdown'] as const;

/** Every tool that takes a document, symbol or location, in the order the table lists them. */
export const MATRIX_TOOLS = [
  'get-document-outline',
  'search-symbols',
  'resolve-symbol',
  'get-symbol-info',
  'get-symbol-members',
  'get-api-surface',
  'get-code-context',
  'go-to-definition',
  'find-implementations',
  'find-references',
  'find-callers',
  'find-callees',
  'get-type-hierarchy',
  'find-derived-types',
  'find-overrides',
  'find-overloads',
  'get-partial-declarations',
  'get-symbol-attributes',
  'get-diagnostics',
  'list-code-actions',
  'rename-symbol',
  'format-document',
  'replace-symbol-body',
  'insert-before-symbol',
  'insert-after-symbol',
  'edit-text',
  'create-file',
  'delete-file',
  'move-file',
] as const;

/** get-solution-structure's probed features and the tool that stands on each alone: they must agree. */
export const TOOL_FEATURES: Record<string, (typeof MATRIX_TOOLS)[number]> = {
  documentSymbols: 'get-document-outline',
  definition: 'go-to-definition',
  references: 'find-references',
  rename: 'rename-symbol',
  formatting: 'format-document',
};

export type Cell = { status: 'supported' } | { status: 'unsupported'; feature: string };

export interface Matrix {
  languages: string[];
  /** Tool -> language -> what the tool did on that language's document. */
  tools: Record<string, Record<string, Cell | { status: 'failure'; why: string }>>;
}

const describe = (cell: Matrix['tools'][string][string] | undefined): string =>
  cell === undefined
    ? 'not run'
    : cell.status === 'supported'
      ? 'supported'
      : cell.status === 'unsupported'
        ? `unsupported (${cell.feature})`
        : `failure: ${cell.why}`;

/** Each cell that differs, as "tool on Language: expected … , found …". */
export function diffMatrix(expected: Matrix, found: Matrix): string[] {
  const out: string[] = [];
  const tools = [...new Set([...Object.keys(expected.tools), ...Object.keys(found.tools)])];
  const languages = [...new Set([...expected.languages, ...found.languages])];
  for (const tool of tools) {
    for (const language of languages) {
      const a = describe(expected.tools[tool]?.[language]);
      const b = describe(found.tools[tool]?.[language]);
      if (a !== b) out.push(`${tool} on ${language}: expected ${a}, found ${b}`);
    }
  }
  return out;
}

/** The matrix as a Markdown table: a row per tool, a column per language; "yes", or "no:" and the feature the language's service lacks. */
export function matrixTable(matrix: Matrix): string {
  const rows = [`| tool | ${matrix.languages.join(' | ')} |`, `| --- | ${matrix.languages.map(() => '---').join(' | ')} |`];
  for (const [tool, cells] of Object.entries(matrix.tools)) {
    const shown = matrix.languages.map((l) => {
      const cell = cells[l];
      if (cell === undefined) return '';
      if (cell.status === 'supported') return 'yes';
      if (cell.status === 'unsupported') return `no: ${cell.feature}`;
      return `**fails**: ${cell.why}`;
    });
    rows.push(`| \`${tool}\` | ${shown.join(' | ')} |`);
  }
  return rows.join('\n');
}

export const MATRIX_START = '<!-- languages matrix: generated from docs/languages.json by npm run gen -->';
export const MATRIX_END = '<!-- end of languages matrix -->';

/** The page (workspace-relative) whose table between the markers is generated from the matrix. */
export const MATRIX_PAGE = 'docs/languages.md';

/** The page's text with its table between the markers replaced by the one generated from the matrix. */
export function pageWithMatrix(page: string, matrix: Matrix): string {
  const start = page.indexOf(MATRIX_START);
  const end = page.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`${MATRIX_PAGE} has no "${MATRIX_START}" … "${MATRIX_END}" markers`);
  return `${page.slice(0, start + MATRIX_START.length)}\n\n${matrixTable(matrix)}\n\n${page.slice(end)}`;
}
