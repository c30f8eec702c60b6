import * as path from 'node:path';
import { callTool, revise, ToolError } from '../chain/envelope';
import type { Snapshot } from '../chain/envelope';
import type { workspaceSelectorInput } from '../chain/schemas';
import type { SchemaType } from '../chain/schemaTypes';
import type { HostFolder, EditorPort } from './editorPort';
import { isInside, keepInsideRealFolder, toPosix } from './paths';
import { SnapshotTracker, stableUuid } from './snapshots';

/** A document as answers name it. */
export interface DocumentRef {
  documentId: string;
  path: string;
  projectId: string;
}

export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What workspaceSelectorInput accepts (when not null). */
export type WorkspaceSelector = NonNullable<SchemaType<typeof workspaceSelectorInput>>;

export type ProjectKind = 'typescript' | 'javascript' | 'node' | 'python' | 'rust' | 'go' | 'dotnet' | 'java' | 'folder';

export interface ProjectInfo {
  projectId: string;
  name: string;
  kind: ProjectKind;
  /** Workspace-relative path of the file the project was found from ('' for the folder itself). */
  path: string;
  /** Workspace-relative directory the project covers ('' for the folder root). */
  directory: string;
}

const PROJECT_FILES: { test: (base: string) => boolean; kind: ProjectKind }[] = [
  { test: (b) => /^tsconfig(\..+)?\.json$/.test(b), kind: 'typescript' },
  { test: (b) => b === 'jsconfig.json', kind: 'javascript' },
  { test: (b) => b === 'package.json', kind: 'node' },
  { test: (b) => b === 'pyproject.toml', kind: 'python' },
  { test: (b) => b === 'Cargo.toml', kind: 'rust' },
  { test: (b) => b === 'go.mod', kind: 'go' },
  { test: (b) => /\.(cs|fs|vb)proj$/.test(b), kind: 'dotnet' },
  { test: (b) => b === 'pom.xml', kind: 'java' },
];

export function projectKindOf(relativePath: string): ProjectKind | undefined {
  const base = path.posix.basename(relativePath);
  return PROJECT_FILES.find((p) => p.test(base))?.kind;
}

export const FILE_LIST_LIMIT = 20_000;

/** One open workspace folder with its identity, snapshots and cached file facts. */
export class Workspace {
  readonly tracker: SnapshotTracker;
  private fileCache: Promise<{ paths: string[]; hasMore: boolean }> | undefined;
  /** projects() of the current fileCache: projectFor runs once per document of a large preview. */
  private projectCache: { files: Promise<unknown>; projects: Promise<ProjectInfo[]> } | undefined;

  constructor(
    readonly id: string,
    readonly alias: string,
    readonly folder: HostFolder,
    epoch: number,
    private readonly host: EditorPort,
    transactionRevision: () => number | null,
  ) {
    this.tracker = new SnapshotTracker(id, epoch, transactionRevision);
  }

  /** The first eight characters of the id: prefixes documentIds and projectIds. */
  get shortId(): string {
    return this.id.slice(0, 8);
  }

  get fsPath(): string {
    return this.folder.fsPath;
  }

  snapshot(): Snapshot {
    return this.tracker.current();
  }

  documentId(relativePath: string): string {
    return `${this.shortId}:${relativePath}`;
  }

  files(): Promise<{ paths: string[]; hasMore: boolean }> {
    this.fileCache ??= this.host.listFiles(this.folder, FILE_LIST_LIMIT).then(async (r) => {
      const inside = await keepInsideRealFolder(this.fsPath, r.paths, (p) => this.host.realPath(p));
      return { paths: inside.sort(), hasMore: r.hasMore };
    });
    return this.fileCache;
  }

  forgetFiles(): void {
    this.fileCache = undefined;
  }

  async projects(): Promise<ProjectInfo[]> {
    const files = this.files();
    if (this.projectCache?.files !== files) this.projectCache = { files, projects: this.scanProjects(files) };
    return [...(await this.projectCache.projects)];
  }

  private async scanProjects(files: Promise<{ paths: string[] }>): Promise<ProjectInfo[]> {
    const { paths } = await files;
    const projects: ProjectInfo[] = [];
    for (const p of paths) {
      const kind = projectKindOf(p);
      if (!kind) continue;
      const directory = path.posix.dirname(p) === '.' ? '' : path.posix.dirname(p);
      projects.push({
        projectId: `${this.shortId}:${p}`,
        name: directory === '' ? `${this.alias} (${path.posix.basename(p)})` : `${directory} (${path.posix.basename(p)})`,
        kind,
        path: p,
        directory,
      });
    }
    if (projects.length === 0) projects.push(this.folderProject());
    return projects;
  }

  folderProject(): ProjectInfo {
    return { projectId: `${this.shortId}:.`, name: this.alias, kind: 'folder', path: '', directory: '' };
  }

  /** The project that owns a document: the deepest project directory containing it (a tsconfig before a package.json). */
  async projectFor(relativePath: string): Promise<ProjectInfo> {
    const projects = await this.projects();
    let best: ProjectInfo | undefined;
    for (const p of projects) {
      const inside = p.directory === '' || relativePath === p.directory || relativePath.startsWith(`${p.directory}/`);
      if (!inside) continue;
      if (!best || p.directory.length > best.directory.length || (p.directory.length === best.directory.length && rank(p.kind) < rank(best.kind))) best = p;
    }
    return best ?? this.folderProject();
  }
}

const KIND_RANK: ProjectKind[] = ['typescript', 'javascript', 'dotnet', 'rust', 'go', 'java', 'python', 'node', 'folder'];
const rank = (kind: ProjectKind): number => KIND_RANK.indexOf(kind);

/** The open folders, kept in step with the editor. Resolves workspace selectors. */
export class WorkspaceRegistry {
  private workspaces: Workspace[] = [];

  constructor(
    private readonly host: EditorPort,
    private readonly store: KeyValueStore,
    private readonly transactionRevision: (workspaceId: string) => number | null = () => null,
  ) {}

  /** Reconciles with the editor's folders; a folder seen for the first time in this session gets the next epoch. */
  async sync(): Promise<void> {
    const folders = this.host.folders();
    const next: Workspace[] = [];
    const names = new Map<string, number>();
    for (const f of folders) names.set(f.name, (names.get(f.name) ?? 0) + 1);
    for (const folder of folders) {
      const id = stableUuid(folder.uri);
      const existing = this.workspaces.find((w) => w.id === id);
      if (existing) {
        next.push(existing);
        continue;
      }
      const key = `agentWorkbench.workspaceEpoch.${id}`;
      const epoch = (this.store.get<number>(key) ?? 0) + 1;
      await this.store.update(key, epoch);
      const alias = (names.get(folder.name) ?? 0) > 1 ? `${folder.name}#${folder.index}` : folder.name;
      next.push(new Workspace(id, alias, folder, epoch, this.host, () => this.transactionRevision(id)));
    }
    this.workspaces = next;
  }

  all(): readonly Workspace[] {
    return this.workspaces;
  }

  byId(id: string): Workspace | undefined {
    return this.workspaces.find((w) => w.id === id);
  }

  byShortId(shortId: string): Workspace | undefined {
    return this.workspaces.find((w) => w.shortId === shortId);
  }

  /** The folder that contains an absolute path (the deepest, for nested folders). */
  containing(absolutePath: string): Workspace | undefined {
    let best: Workspace | undefined;
    for (const w of this.workspaces) {
      if (isInside(w.fsPath, absolutePath) && (!best || w.fsPath.length > best.fsPath.length)) best = w;
    }
    return best;
  }

  /** A document changed on disk or in a buffer. */
  recordChange(absolutePath: string, kind: 'content' | 'created' | 'deleted'): void {
    const w = this.containing(absolutePath);
    if (!w) return;
    const rel = toPosix(path.relative(w.fsPath, absolutePath));
    w.tracker.recordChange(rel);
    if (kind !== 'content' || projectKindOf(rel)) w.forgetFiles();
  }

  describeChoices(): string {
    return this.workspaces.map((w) => `{"alias":"${w.alias}"} (${w.fsPath}, workspaceId ${w.id})`).join('; ');
  }

  resolve(selector: WorkspaceSelector | null | undefined): Workspace {
    if (this.workspaces.length === 0) {
      throw new ToolError('WorkspaceNotFound', 'No workspace folder is open in the editor. Ask the person to open a folder.', {
        kind: 'ResolveExternally',
        instruction: 'Ask the person to open a folder or workspace in VS Code, then retry.',
      });
    }
    const given = selector && (selector.workspaceId !== undefined || selector.alias !== undefined || selector.path !== undefined);
    if (!given) {
      if (this.workspaces.length === 1) return this.workspaces[0];
      throw new ToolError(
        'WorkspaceSelectorRequired',
        `${this.workspaces.length} workspace folders are open; say which one with workspace: ${this.describeChoices()}.`,
        revise(`Add "workspace": {"alias": ...} naming one of: ${this.workspaces.map((w) => w.alias).join(', ')}.`),
      );
    }
    const matches = this.workspaces.filter(
      (w) =>
        (selector.workspaceId === undefined || selector.workspaceId === w.id) &&
        (selector.alias === undefined || selector.alias === w.alias || selector.alias === w.folder.name) &&
        (selector.path === undefined || samePath(selector.path, w.fsPath)),
    );
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) {
      throw new ToolError(
        'WorkspaceSelectorRequired',
        `The workspace selector matches ${matches.length} folders; use workspaceId. Choices: ${this.describeChoices()}.`,
        revise('Select the folder by workspaceId.'),
      );
    }
    throw new ToolError(
      'WorkspaceNotFound',
      `No open workspace folder matches ${JSON.stringify(selector)}. Open folders: ${this.describeChoices()}.`,
      callTool('workspace-list', 'Call workspace-list to see the open folders, then select one by alias or workspaceId.'),
    );
  }
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string): string => path.resolve(p.replace(/\\/g, '/')).replace(/\/+$/, '');
  return norm(a) === norm(b);
}
