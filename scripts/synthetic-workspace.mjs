// Deterministic synthetic TypeScript workspaces for benchmarks and cold-start tests: big enough
// that the TypeScript server takes seconds to load the project, with reference counts known
// exactly, so an answer can be checked for completeness without asking the language service.
//
//   node scripts/synthetic-workspace.mjs <dir> [--files 1000] [--uses 4] [--channel-every 25] [--hubs 0]
//
// Layout: src/model/entity.ts declares `export class Entity` (and `makeEntity`); each of the
// `files` modules src/features/fNNNN.ts imports Entity once and names it `uses` more times, and
// declares `FeatureNNNN` and `runNNNN`. References to Entity, declaration included:
// 3 (declaration, a return type, a `new`) + files * (1 + uses).
// Every `channelEvery`-th module also uses `Channel` (src/model/channel.ts) three times (import,
// `new`, a type), a symbol of moderate reach like most real ones. With `hubs` > 0, every module
// imports and constructs Hub00..Hub<hubs-1> (src/model/hubs.ts): 1 + 2 * files references each.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export function entityReferenceCount({ files, uses }) {
  return 3 + files * (1 + uses);
}

const hubName = (k) => `Hub${String(k).padStart(2, '0')}`;

export function featureFile(i, uses, channelEvery = 25, hubs = 0) {
  const n = String(i).padStart(4, '0');
  const channel = channelEvery > 0 && i % channelEvery === 0;
  const lines = [`import { Entity, makeEntity } from '../model/entity';`];
  if (channel) lines.push(`import { Channel } from '../model/channel';`);
  if (hubs > 0) lines.push(`import { ${Array.from({ length: hubs }, (_, k) => hubName(k)).join(', ')} } from '../model/hubs';`);
  lines.push('');
  if (channel) lines.push(`export const channel${n}: Channel = new Channel('f${n}');`, '');
  if (hubs > 0) lines.push(`export const hubs${n} = [${Array.from({ length: hubs }, (_, k) => `new ${hubName(k)}()`).join(', ')}];`, '');
  lines.push(`export class Feature${n} {`);
  // uses >= 1: the field type; then parameters and locals of run<n>.
  lines.push(`  constructor(readonly item: Entity) {}`, '}', '');
  const params = [];
  for (let k = 1; k < uses; k++) params.push(`e${k}: Entity`);
  lines.push(`export function run${n}(${params.join(', ')}): number {`);
  lines.push(`  const created = makeEntity(${i});`);
  lines.push(`  let total = created.touch();`);
  for (let k = 1; k < uses; k++) lines.push(`  total += e${k}.touch();`);
  lines.push('  return total;', '}', '');
  return lines.join('\n');
}

export function generateWorkspace(dir, { files = 1000, uses = 4, channelEvery = 25, hubs = 0 } = {}) {
  if (uses < 1) throw new Error('uses must be at least 1');
  fs.mkdirSync(path.join(dir, 'src', 'model'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'src', 'features'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'synthetic', private: true, version: '0.0.0' }, null, 2) + '\n');
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify(
      { compilerOptions: { target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', strict: true, noEmit: true }, include: ['src'] },
      null,
      2,
    ) + '\n',
  );
  fs.writeFileSync(
    path.join(dir, 'src', 'model', 'entity.ts'),
    [
      'export class Entity {',
      '  constructor(readonly id: number) {}',
      '  touch(): number {',
      '    return this.id;',
      '  }',
      '}',
      '',
      'export function makeEntity(id: number): Entity {',
      '  return new Entity(id);',
      '}',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'src', 'model', 'channel.ts'), ['export class Channel {', '  constructor(readonly name: string) {}', '}', ''].join('\n'));
  if (hubs > 0) {
    fs.writeFileSync(path.join(dir, 'src', 'model', 'hubs.ts'), Array.from({ length: hubs }, (_, k) => `export class ${hubName(k)} {}\n`).join(''));
  }
  let channelFiles = 0;
  for (let i = 0; i < files; i++) {
    if (channelEvery > 0 && i % channelEvery === 0) channelFiles++;
    fs.writeFileSync(path.join(dir, 'src', 'features', `f${String(i).padStart(4, '0')}.ts`), featureFile(i, uses, channelEvery, hubs));
  }
  return {
    dir,
    files,
    uses,
    entityReferences: entityReferenceCount({ files, uses }),
    entityPath: 'src/model/entity.ts',
    channelPath: 'src/model/channel.ts',
    channelReferences: 1 + 3 * channelFiles,
    channelFiles: channelFiles + 1,
    hubs,
    hubReferences: hubs > 0 ? 1 + 2 * files : 0,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      files: { type: 'string', default: '1000' },
      uses: { type: 'string', default: '4' },
      'channel-every': { type: 'string', default: '25' },
      hubs: { type: 'string', default: '0' },
    },
  });
  if (positionals.length !== 1) {
    console.error('usage: node scripts/synthetic-workspace.mjs <dir> [--files 1000] [--uses 4] [--channel-every 25] [--hubs 0]');
    process.exit(2);
  }
  const info = generateWorkspace(path.resolve(positionals[0]), {
    files: Number(values.files),
    uses: Number(values.uses),
    channelEvery: Number(values['channel-every']),
    hubs: Number(values.hubs),
  });
  console.log(JSON.stringify(info));
}
