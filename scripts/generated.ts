import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolsContribution, referenceIndex, TOOL_DETAIL_SCHEMA, toolReference } from '../src/core/chain/manifest';
import { ALL_TOOLS } from '../src/tools';
import { MATRIX_PAGE, pageWithMatrix } from './languageMatrix';
import type { Matrix } from './languageMatrix';

/** Every generated file (workspace-relative path to content) as the definitions say it should be. */
export function generatedFiles(root: string): Map<string, string> {
  const pkgText = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
  const pkg = JSON.parse(pkgText) as { version: string; contributes: { languageModelTools: unknown } };
  pkg.contributes.languageModelTools = languageModelToolsContribution(ALL_TOOLS);
  const files = new Map<string, string>();
  files.set('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
  for (const tool of ALL_TOOLS) {
    files.set(`docs/reference/tools/${tool.name}.json`, `${JSON.stringify(toolReference(tool, pkg.version), null, 2)}\n`);
  }
  files.set('docs/reference/tool-detail.schema.json', `${JSON.stringify(TOOL_DETAIL_SCHEMA, null, 2)}\n`);
  files.set('docs/reference/index.md', `${referenceIndex(ALL_TOOLS, pkg.version)}\n`);
  // The language table of docs/languages.md, from the matrix the languages integration suite checks (docs/languages.json).
  const matrix = JSON.parse(fs.readFileSync(path.join(root, 'docs', 'languages.json'), 'utf8')) as Matrix;
  files.set(MATRIX_PAGE, pageWithMatrix(fs.readFileSync(path.join(root, MATRIX_PAGE), 'utf8'), matrix));
  return files;
}
