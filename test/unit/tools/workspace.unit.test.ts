import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { stableUuid } from '../../../src/core/documents/snapshots';
import { FAKE_ROOT, FakeHost } from '../support/fakeHost';
import { createHarness, MemoryStore } from '../support/harness';
import type { Harness } from '../support/harness';

interface WorkspaceInfo {
  workspaceId: string;
  alias: string;
  name: string;
  path: string;
  uri: string;
  index: number;
  snapshot: { workspaceId: string; workspaceEpoch: number; snapshotId: string; transactionRevision: number | null };
}
interface Collection<T> {
  items: T[];
  hasMore: boolean;
  totalCount?: number | null;
}
interface ProjectInfo {
  projectId: string;
  name: string;
  kind: string;
  path: string;
  directory: string;
}

const TSCONFIG = [
  '// Root configuration: comments and trailing commas are allowed here.',
  '{',
  '  "compilerOptions": {',
  '    "strict": true, /* block comment */',
  '    "target": "ES2022",',
  '  },',
  '  "include": ["src"],',
  '}',
  '',
].join('\n');

function appFiles(): Record<string, string> {
  return {
    'tsconfig.json': TSCONFIG,
    'package.json': '{ "name": "app", "version": "1.2.3" }\n',
    'README.md': '# App\n',
    'src/greeter.ts': 'export const greet = (n: string) => `hi ${n}`;\n',
    'src/util.ts': 'export const one = 1;\n',
    'packages/lib/package.json': '{ "name": "lib", "private": true }\n',
    'packages/lib/index.js': 'module.exports = 1;\n',
    'node_modules/dep/index.js': 'ignored',
  };
}

async function singleRoot(): Promise<Harness> {
  const host = new FakeHost();
  host.addFolder('app', appFiles());
  return createHarness({ host });
}

async function twoRoots(): Promise<Harness> {
  const host = new FakeHost();
  host.addFolder('app', appFiles());
  host.addFolder('tools', { 'Cargo.toml': '[package]\nname = "tools"\n', 'src/main.rs': 'fn main() {}\n' });
  return createHarness({ host });
}

describe('tools: workspace-list', () => {
  it('describes a single folder with a stable id, its alias and its current snapshot', async () => {
    const h = await singleRoot();
    const envelope = await h.ok<{ workspaces: Collection<WorkspaceInfo>; trusted: boolean }>('workspace-list', {});
    const folder = h.host.folders()[0];
    assert.equal(envelope.data.trusted, true);
    assert.equal(envelope.data.workspaces.hasMore, false);
    assert.equal(envelope.data.workspaces.totalCount, 1);
    assert.equal(envelope.data.workspaces.items.length, 1);
    const info = envelope.data.workspaces.items[0];
    assert.deepEqual(
      { ...info, snapshot: undefined },
      { workspaceId: stableUuid(folder.uri), alias: 'app', name: 'app', path: path.join(FAKE_ROOT, 'app'), uri: folder.uri, index: 0, snapshot: undefined },
    );
    assert.deepEqual(info.snapshot, envelope.snapshot);
    assert.equal(info.snapshot.workspaceEpoch, 1);
  });

  it('lists every folder of a multi-root window in editor order, bounded by workspacesLimit', async () => {
    const h = await twoRoots();
    const all = await h.ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', {});
    assert.deepEqual(
      all.data.workspaces.items.map((w) => [w.alias, w.index]),
      [
        ['app', 0],
        ['tools', 1],
      ],
    );
    assert.notEqual(all.data.workspaces.items[0].workspaceId, all.data.workspaces.items[1].workspaceId);
    const limited = await h.ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', { workspacesLimit: 1 });
    assert.deepEqual(
      limited.data.workspaces.items.map((w) => w.alias),
      ['app'],
    );
    assert.equal(limited.data.workspaces.hasMore, true);
    assert.equal(limited.data.workspaces.totalCount, 2);
  });

  it('tells apart folders with the same name by index', async () => {
    const host = new FakeHost();
    host.addFolder('app', {}, path.join(FAKE_ROOT, 'one', 'app'));
    host.addFolder('app', {}, path.join(FAKE_ROOT, 'two', 'app'));
    const h = await createHarness({ host });
    const list = await h.ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', {});
    assert.deepEqual(
      list.data.workspaces.items.map((w) => w.alias),
      ['app#0', 'app#1'],
    );
    const status = await h.ok<{ workspace: WorkspaceInfo }>('workspace-status', { workspace: { alias: 'app#1' } });
    assert.equal(status.data.workspace.path, path.join(FAKE_ROOT, 'two', 'app'));
    const ambiguous = await h.fail('workspace-status', { workspace: { alias: 'app' } }, 'WorkspaceSelectorRequired');
    assert.match(ambiguous.error.message, /app#0/);
  });

  it('keeps the workspaceId across a restart and increases the epoch', async () => {
    const store = new MemoryStore();
    const host = new FakeHost();
    host.addFolder('app', appFiles());
    const first = await (await createHarness({ host, store })).ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', {});
    const second = await (await createHarness({ host, store })).ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', {});
    const [a, b] = [first.data.workspaces.items[0], second.data.workspaces.items[0]];
    assert.equal(a.workspaceId, b.workspaceId);
    assert.equal(b.snapshot.workspaceEpoch, a.snapshot.workspaceEpoch + 1);
    assert.notEqual(a.snapshot.snapshotId, b.snapshot.snapshotId);
  });

  it('reports an untrusted window', async () => {
    const host = new FakeHost({ trusted: false });
    host.addFolder('app', {});
    const h = await createHarness({ host });
    const list = await h.ok<{ trusted: boolean }>('workspace-list', {});
    assert.equal(list.data.trusted, false);
  });
});

describe('tools: workspace selectors', () => {
  it('answers WorkspaceSelectorRequired with two folders and no selector, listing the aliases', async () => {
    const h = await twoRoots();
    const failure = await h.fail('workspace-status', {}, 'WorkspaceSelectorRequired');
    assert.match(failure.error.message, /"alias":"app"/);
    assert.match(failure.error.message, /"alias":"tools"/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    assert.match(failure.continuation?.instruction ?? '', /app, tools/);
    await h.fail('get-project-details', { project: { path: 'Cargo.toml' } }, 'WorkspaceSelectorRequired');
  });

  it('selects a folder by alias, by workspaceId or by path', async () => {
    const h = await twoRoots();
    const tools = h.registry.all()[1];
    for (const workspace of [
      { alias: 'tools' },
      { workspaceId: tools.id },
      { path: tools.fsPath },
      { path: `${tools.fsPath}/` },
      { alias: 'tools', workspaceId: tools.id },
    ]) {
      const status = await h.ok<{ workspace: WorkspaceInfo }>('workspace-status', { workspace });
      assert.equal(status.data.workspace.alias, 'tools', JSON.stringify(workspace));
      assert.equal(status.snapshot.workspaceId, tools.id, 'the envelope snapshot is the selected folder');
    }
  });

  it('answers WorkspaceNotFound with CallTool workspace-list for an unknown or contradictory selector', async () => {
    const h = await twoRoots();
    const unknown = await h.fail('workspace-status', { workspace: { alias: 'nope' } }, 'WorkspaceNotFound');
    assert.deepEqual(unknown.continuation && unknown.continuation.kind, 'CallTool');
    assert.equal(unknown.continuation && 'tool' in unknown.continuation ? unknown.continuation.tool : undefined, 'workspace-list');
    await h.fail('workspace-status', { workspace: { alias: 'app', workspaceId: h.registry.all()[1].id } }, 'WorkspaceNotFound');
  });

  it('answers WorkspaceNotFound when no folder is open', async () => {
    const h = await createHarness();
    const failure = await h.fail('workspace-status', {}, 'WorkspaceNotFound');
    assert.equal(failure.continuation?.kind, 'ResolveExternally');
    const list = await h.ok<{ workspaces: Collection<WorkspaceInfo> }>('workspace-list', {});
    assert.deepEqual(list.data.workspaces, { items: [], hasMore: false, totalCount: 0 });
  });
});

describe('tools: workspace-status', () => {
  it('reports projects, languages with their services, open documents, mode and trust', async () => {
    const h = await singleRoot();
    const greeter = h.host.abs(h.host.folders()[0], 'src/greeter.ts');
    h.host.openDocument(greeter, 'export const greet = 1; // edited\n');
    h.host.openDocument(h.host.abs(h.host.folders()[0], 'README.md'));
    const status = await h.ok<{
      trusted: boolean;
      operationalMode: string;
      effectiveMode: string;
      fileCount: number;
      fileCountIsPartial: boolean;
      projects: Collection<ProjectInfo>;
      languages: Collection<{ languageId: string; fileCount: number; sampleDocument: string; languageServices: { extensionId: string; active: boolean }[] }>;
      openDocuments: Collection<{ documentId: string; path: string; languageId: string; isDirty: boolean }>;
      transaction: null;
    }>('workspace-status', {});
    const d = status.data;
    const shortId = h.registry.all()[0].shortId;
    assert.equal(d.fileCount, 7, 'node_modules is not counted');
    assert.equal(d.fileCountIsPartial, false);
    assert.deepEqual(
      d.projects.items.map((p) => [p.path, p.kind, p.directory, p.projectId]),
      [
        ['package.json', 'node', '', `${shortId}:package.json`],
        ['packages/lib/package.json', 'node', 'packages/lib', `${shortId}:packages/lib/package.json`],
        ['tsconfig.json', 'typescript', '', `${shortId}:tsconfig.json`],
      ],
    );
    assert.deepEqual(
      d.languages.items.map((l) => [l.languageId, l.fileCount, l.sampleDocument]),
      [
        ['json', 2, 'package.json'],
        ['typescript', 2, 'src/greeter.ts'],
        ['javascript', 1, 'packages/lib/index.js'],
        ['jsonc', 1, 'tsconfig.json'],
        ['markdown', 1, 'README.md'],
      ],
    );
    assert.deepEqual(d.languages.items[1].languageServices, [{ extensionId: 'vscode.typescript-language-features', active: true }]);
    assert.deepEqual(d.openDocuments.items, [
      { documentId: `${shortId}:README.md`, path: 'README.md', languageId: 'markdown', isDirty: false },
      { documentId: `${shortId}:src/greeter.ts`, path: 'src/greeter.ts', languageId: 'typescript', isDirty: true },
    ]);
    assert.equal(d.trusted, true);
    assert.equal(d.operationalMode, 'transactional');
    assert.equal(d.effectiveMode, 'transactional');
    assert.equal(d.transaction, null);
  });

  it('honours its limits and the effective mode', async () => {
    const h = await singleRoot();
    h.host.trusted = false;
    const status = await h.ok<{ effectiveMode: string; trusted: boolean; projects: Collection<ProjectInfo>; languages: Collection<unknown> }>(
      'workspace-status',
      { projectsLimit: 1, languagesLimit: 0 },
    );
    assert.deepEqual(
      status.data.projects.items.map((p) => p.path),
      ['package.json'],
    );
    assert.equal(status.data.projects.hasMore, true);
    assert.equal(status.data.projects.totalCount, 3);
    assert.deepEqual(status.data.languages.items, []);
    assert.equal(status.data.languages.hasMore, true);
    assert.equal(status.data.effectiveMode, 'inspection-only');
    assert.equal(status.data.trusted, false);
  });

  it('sees new project files after they are created', async () => {
    const h = await singleRoot();
    const before = await h.ok<{ projects: Collection<ProjectInfo> }>('workspace-status', {});
    assert.equal(before.data.projects.totalCount, 3);
    h.host.writeFile(h.host.abs(h.host.folders()[0], 'svc/go.mod'), 'module svc\n');
    const after = await h.ok<{ projects: Collection<ProjectInfo> }>('workspace-status', {});
    assert.deepEqual(
      after.data.projects.items.map((p) => [p.path, p.kind]),
      [
        ['package.json', 'node'],
        ['packages/lib/package.json', 'node'],
        ['svc/go.mod', 'go'],
        ['tsconfig.json', 'typescript'],
      ],
    );
    assert.notEqual(after.snapshot.snapshotId, before.snapshot.snapshotId);
  });

  it('a folder without project files is one "folder" project', async () => {
    const host = new FakeHost();
    host.addFolder('notes', { 'a.md': '# a\n' });
    const h = await createHarness({ host });
    const status = await h.ok<{ projects: Collection<ProjectInfo> }>('workspace-status', {});
    assert.deepEqual(status.data.projects.items, [{ projectId: `${h.registry.all()[0].shortId}:.`, name: 'notes', kind: 'folder', path: '', directory: '' }]);
  });
});

describe('tools: get-solution-structure', () => {
  it('probes each language on its sample document', async () => {
    const h = await twoRoots();
    h.host.setFeatureProbes('typescript', { documentSymbols: 'available', hover: 'noResult' });
    // As the probe says: the document symbol provider answers (these files declare nothing it lists).
    const appFolder = h.host.folders()[0];
    for (const file of Object.keys(appFiles()).filter((f) => f.endsWith('.ts'))) h.host.setSymbols(h.host.abs(appFolder, file), []);
    const result = await h.ok<{
      workspaces: Collection<{
        workspace: WorkspaceInfo;
        projects: Collection<ProjectInfo>;
        languages: { languageId: string; features: Record<string, string> | null }[];
      }>;
      featureNames: string[];
    }>('get-solution-structure', {});
    const [app, tools] = result.data.workspaces.items;
    assert.equal(app.workspace.alias, 'app');
    assert.deepEqual(app.languages.find((l) => l.languageId === 'typescript')?.features, { documentSymbols: 'available', hover: 'noResult' });
    assert.equal(tools.workspace.alias, 'tools');
    assert.deepEqual(
      tools.projects.items.map((p) => p.kind),
      ['rust'],
    );
    assert.ok(h.host.callCount('probeLanguageFeatures', h.host.abs(h.host.folders()[0], 'src/greeter.ts')) === 1);
    const skipped = await h.ok<{ workspaces: Collection<{ languages: { features: unknown }[] }> }>('get-solution-structure', {
      probeFeatures: false,
      workspace: { alias: 'app' },
    });
    assert.equal(skipped.data.workspaces.items.length, 1);
    assert.ok(skipped.data.workspaces.items[0].languages.every((l) => l.features === null));
  });
});

describe('tools: workspace-status and the open transaction', () => {
  it('reports null, then the staged transaction with its state, id and changed-file count', async () => {
    const h = await singleRoot();
    const before = await h.ok<{ transaction: unknown }>('workspace-status', {});
    assert.equal(before.data.transaction, null);
    await h.ok('edit-text', { edits: [{ location: { selection: { document: { path: 'src/util.ts' }, selectedText: 'export' } }, newText: 'export ' }] });
    const after = await h.ok<{ transaction: { revision: number; canCommit: boolean; stagedFiles: number; transactionId: string } }>('workspace-status', {});
    const tx = h.transactions.active(h.registry.all()[0].id);
    assert.deepEqual(
      [after.data.transaction.revision, after.data.transaction.canCommit, after.data.transaction.stagedFiles, after.data.transaction.transactionId],
      [1, true, 1, tx?.id],
    );
  });
});

describe('tools: get-project-details', () => {
  it('details the root project: JSON-with-comments manifest parsed, nested project excluded', async () => {
    const h = await singleRoot();
    const details = await h.ok<{
      project: ProjectInfo;
      manifest: { path: string; format: string; content: unknown; truncated: boolean };
      languages: { languageId: string; fileCount: number }[];
      documents: Collection<{ documentId: string; path: string; languageId: string | null }>;
      nestedProjects: ProjectInfo[];
    }>('get-project-details', { project: { path: 'tsconfig.json' } });
    const d = details.data;
    const shortId = h.registry.all()[0].shortId;
    assert.equal(d.project.kind, 'typescript');
    assert.deepEqual(d.manifest, {
      path: 'tsconfig.json',
      format: 'json',
      content: { compilerOptions: { strict: true, target: 'ES2022' }, include: ['src'] },
      truncated: false,
    });
    assert.deepEqual(
      d.nestedProjects.map((p) => p.path),
      ['packages/lib/package.json'],
    );
    assert.deepEqual(
      d.documents.items.map((doc) => [doc.path, doc.languageId]),
      [
        ['README.md', 'markdown'],
        ['package.json', 'json'],
        ['src/greeter.ts', 'typescript'],
        ['src/util.ts', 'typescript'],
        ['tsconfig.json', 'jsonc'],
      ],
    );
    assert.equal(d.documents.items[2].documentId, `${shortId}:src/greeter.ts`);
    assert.deepEqual(d.languages, [
      { languageId: 'typescript', fileCount: 2 },
      { languageId: 'json', fileCount: 1 },
      { languageId: 'jsonc', fileCount: 1 },
      { languageId: 'markdown', fileCount: 1 },
    ]);
  });

  it('details a nested project selected by projectId, with a bounded documents collection', async () => {
    const h = await singleRoot();
    const projectId = `${h.registry.all()[0].shortId}:packages/lib/package.json`;
    const details = await h.ok<{
      project: ProjectInfo;
      manifest: { format: string; content: unknown };
      documents: Collection<{ path: string }>;
      nestedProjects: unknown[];
    }>('get-project-details', {
      project: { projectId },
      documentsLimit: 1,
    });
    assert.equal(details.data.project.directory, 'packages/lib');
    assert.deepEqual(details.data.manifest.content, { name: 'lib', private: true });
    const { cursor, ...documents } = details.data.documents as Collection<{ path: string }> & { cursor?: string };
    assert.deepEqual(documents, {
      items: [{ documentId: `${h.registry.all()[0].shortId}:packages/lib/index.js`, path: 'packages/lib/index.js', languageId: 'javascript' }],
      hasMore: true,
      totalCount: 2,
    });
    assert.deepEqual(details.data.nestedProjects, []);
    const rest = await h.ok<{ documents: Collection<{ path: string }> & { cursor?: string } }>('get-project-details', {
      project: { projectId },
      documentsLimit: 1,
      cursor,
    });
    assert.deepEqual(
      rest.data.documents.items.map((d) => d.path),
      ['packages/lib/package.json'],
    );
    assert.equal(rest.data.documents.cursor, undefined);
  });

  it('shows other manifests, and JSON that does not parse, as text', async () => {
    const host = new FakeHost();
    host.addFolder('mixed', { 'Cargo.toml': '[package]\nname = "x"\n', 'web/package.json': '{ "name": ' });
    const h = await createHarness({ host });
    const cargo = await h.ok<{ manifest: { format: string; content: unknown } }>('get-project-details', { project: { path: 'Cargo.toml' } });
    assert.deepEqual(cargo.data.manifest, { path: 'Cargo.toml', format: 'text', content: '[package]\nname = "x"\n', truncated: false });
    const broken = await h.ok<{ manifest: { format: string; content: unknown } }>('get-project-details', { project: { path: 'web/package.json' } });
    assert.equal(broken.data.manifest.format, 'text');
    assert.equal(broken.data.manifest.content, '{ "name": ');
  });

  it('selects a project by its folder: the language project first, else the package.json', async () => {
    const h = await singleRoot();
    const lib = await h.ok<{ project: ProjectInfo }>('get-project-details', { project: { path: 'packages/lib' } });
    assert.equal(lib.data.project.path, 'packages/lib/package.json');
    const root = await h.ok<{ project: ProjectInfo }>('get-project-details', { project: { path: '' } });
    assert.equal(root.data.project.path, 'tsconfig.json');
    const pkg = await h.ok<{ project: ProjectInfo }>('get-project-details', { project: { path: 'package.json' } });
    assert.equal(pkg.data.project.kind, 'node');
  });

  it('marks a manifest over the byte limit truncated, counting bytes not characters', async () => {
    const host = new FakeHost();
    // 10,029 characters but 20,029 bytes: over the 16 KiB limit.
    host.addFolder('big', { 'package.json': `{"name":"${'é'.repeat(10_000)}"}` });
    const h = await createHarness({ host });
    const details = await h.ok<{ manifest: { format: string; truncated: boolean } }>('get-project-details', { project: { path: 'package.json' } });
    assert.equal(details.data.manifest.format, 'text');
    assert.equal(details.data.manifest.truncated, true);
  });

  it('answers for the only project when project is omitted: tsconfig.json and package.json of one folder count as one', async () => {
    const host = new FakeHost();
    host.addFolder('solo', { 'tsconfig.json': '{}', 'package.json': '{"name":"solo"}', 'src/a.ts': 'export const a = 1;\n' });
    const h = await createHarness({ host });
    const details = await h.ok<{ project: ProjectInfo; documents: Collection<{ path: string }> }>('get-project-details', {});
    assert.equal(details.data.project.path, 'tsconfig.json');
    assert.deepEqual(
      details.data.documents.items.map((d) => d.path),
      ['package.json', 'src/a.ts', 'tsconfig.json'],
    );
  });

  it('lists the choices with ReviseRequest when project is omitted and the folder has several', async () => {
    const h = await singleRoot();
    const failure = await h.fail('get-project-details', {}, 'ProjectSelectorRequired');
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    const shortId = h.registry.all()[0].shortId;
    assert.ok(failure.error.message.includes(`{"projectId":"${shortId}:packages/lib/package.json"}`), failure.error.message);
    assert.ok(failure.error.message.includes(`{"projectId":"${shortId}:tsconfig.json"}`), failure.error.message);
    const chosen = await h.ok<{ project: ProjectInfo }>('get-project-details', { project: { projectId: `${shortId}:packages/lib/package.json` } });
    assert.equal(chosen.data.project.directory, 'packages/lib');
  });

  it('answers ProjectNotFound listing the projects', async () => {
    const h = await singleRoot();
    const failure = await h.fail('get-project-details', { project: { name: 'nope' } }, 'ProjectNotFound');
    assert.match(failure.error.message, /tsconfig\.json/);
    assert.match(failure.error.message, /packages\/lib\/package\.json/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
  });
});

describe('tools: server-status', () => {
  it('reports versions, modes, defaults and tool counts', async () => {
    const h = await singleRoot();
    h.setSettings({ operationalMode: 'approval-required', defaultTimeoutSeconds: 12 });
    const status = await h.ok<{
      product: { version: string };
      editor: { version: string };
      operationalMode: string;
      effectiveMode: string;
      defaults: { timeoutSeconds: number };
      tools: { total: number; allowedInMode: number };
      workspaceCount: number;
    }>('server-status', {});
    assert.equal(status.data.product.version, h.host.version);
    assert.equal(status.data.editor.version, h.host.editorVersion);
    assert.equal(status.data.operationalMode, 'approval-required');
    assert.equal(status.data.effectiveMode, 'approval-required');
    assert.equal(status.data.defaults.timeoutSeconds, 12);
    assert.equal(status.data.tools.total, h.tools.length);
    assert.equal(status.data.workspaceCount, 1);
  });

  it('says how a commit is approved through each door before an agent needs it, mode by mode', async () => {
    const h = await singleRoot();
    const approval = async () => (await h.ok<{ commitApproval: { 'vscode.lm': string; mcp: string } }>('server-status', {})).data.commitApproval;
    h.setSettings({ operationalMode: 'transactional' });
    const transactional = await approval();
    assert.match(transactional['vscode.lm'], /Copilot's confirmation in the chat/);
    assert.match(transactional.mcp, /A modal in VS Code asks the person; declined, unanswered or unable to show is a refusal/);
    h.setSettings({ operationalMode: 'approval-required' });
    assert.match((await approval()).mcp, /^Refused: only the person commits/);
    h.setSettings({ operationalMode: 'autonomous-trusted', newErrorsOnCommit: 'refuse' });
    assert.match((await approval())['vscode.lm'], /No one is asked; .* new errors is refused unless allowNewErrors: true/);
    h.setSettings({ operationalMode: 'inspection-only' });
    assert.match((await approval()).mcp, /^No commit/);
  });
});
