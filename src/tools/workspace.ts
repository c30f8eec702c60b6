import { defineTool } from '../core/chain/definition';
import { revise, ToolError } from '../core/chain/envelope';
import { countLanguages, LanguageIndex } from '../core/documents/languages';
import type { FeatureProbe, LanguageContribution } from '../core/documents/editorPort';
import { joinFolder, isInside, toPosix, toRelativePath } from '../core/documents/paths';
import { collectionOutput, cursorInput, limitParameter, projectSelectorInput } from '../core/chain/schemas';
import type { JsonSchema } from '../core/chain/schemas';
import { limitItems } from '../core/chain/bounding';
import type { ProjectSelector, ToolContext } from '../core/documents/context';
import type { ProjectInfo, Workspace } from '../core/documents/workspaces';
import type { Snapshot } from '../core/chain/envelope';
import type { OperationalMode } from '../core/chain/modes';
import type { TransactionState } from '../core/transactions/types';
import { inputSchema, paged, projectInfoSchema, QUERY, queryAnnotations, workspaceInfoSchema } from './shared/common';
import type { Collection } from './shared/common';
import { transactionStateSchema } from './shared/mutations';
import { documentSymbolTree, SYMBOLS_READINESS } from '../core/symbols/symbols';
import * as path from 'node:path';
import { parse as parseJsoncText } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';

const CATEGORY = 'Workspaces' as const;

/** A folder as the workspace tools describe it (workspaceInfoSchema). */
export interface WorkspaceInfo {
  workspaceId: string;
  alias: string;
  name: string;
  path: string;
  uri: string;
  index: number;
  snapshot: Snapshot;
}

function describeWorkspace(w: Workspace): WorkspaceInfo {
  return { workspaceId: w.id, alias: w.alias, name: w.folder.name, path: w.fsPath, uri: w.folder.uri, index: w.folder.index, snapshot: w.snapshot() };
}

const languageServicesSchema: JsonSchema = {
  type: 'array',
  description: 'Extensions that contribute or serve the language, and whether they are running.',
  items: { type: 'object', properties: { extensionId: { type: 'string' }, active: { type: 'boolean' } }, required: ['extensionId', 'active'] },
};

export interface LanguageSummary {
  languageId: string;
  fileCount: number;
  sampleDocument: string;
  languageServices: LanguageContribution['providedBy'];
}

function languageSummaries(ctx: ToolContext, paths: readonly string[]): LanguageSummary[] {
  const index = new LanguageIndex(ctx.editor.languages());
  return countLanguages(paths, index).map((c) => ({
    languageId: c.languageId,
    fileCount: c.fileCount,
    sampleDocument: c.sample,
    languageServices: index.contribution(c.languageId)?.providedBy ?? [],
  }));
}

// ---------------------------------------------------------------- workspace-list

export interface WorkspaceListData {
  workspaces: Collection<WorkspaceInfo>;
  trusted: boolean;
}

export const workspaceList = defineTool({
  name: 'workspace-list',
  title: 'Workspace List',
  category: CATEGORY,
  ...QUERY,
  description:
    "Which folders are open (workspaceId, alias, path, snapshot), to choose the workspace other tools take when several are. One folder's state: workspace-status; whether language features answer: get-solution-structure.",
  inputSchema: inputSchema({ workspacesLimit: limitParameter('workspace folders'), cursor: cursorInput }),
  dataSchema: {
    type: 'object',
    properties: {
      workspaces: collectionOutput('The open folders in editor order.', workspaceInfoSchema),
      trusted: { type: 'boolean', description: 'Whether the window is trusted; untrusted windows are inspection-only.' },
    },
    required: ['workspaces', 'trusted'],
  },
  annotations: queryAnnotations('Workspace List'),
  examples: [
    {
      workflowId: 'orientation',
      workflowTitle: 'Find your way around a workspace',
      step: 1,
      id: 'list-workspaces',
      title: 'List open folders',
      purpose: 'Learn which folders are open and how to select them.',
      expectedOutcome: 'Each folder with its alias, workspaceId and snapshot.',
      request: {},
    },
  ],
  async run(input, ctx): Promise<WorkspaceListData> {
    const all = ctx.registry.all().map(describeWorkspace);
    if (input.workspace) ctx.workspace(input.workspace);
    return { workspaces: paged(ctx, 'workspaces', all, input.workspacesLimit), trusted: ctx.editor.isTrusted() };
  },
});

// ---------------------------------------------------------------- workspace-status

/** The folder's open transaction, with its id and how many files it changes. */
export type ActiveTransaction = TransactionState & { transactionId: string; stagedFiles: number };

export interface WorkspaceStatusData {
  workspace: WorkspaceInfo;
  trusted: boolean;
  operationalMode: OperationalMode;
  effectiveMode: OperationalMode;
  fileCount: number;
  fileCountIsPartial: boolean;
  projects: Collection<ProjectInfo>;
  languages: Collection<LanguageSummary>;
  openDocuments: Collection<{ documentId: string; path: string; languageId: string; isDirty: boolean }>;
  transaction: ActiveTransaction | null;
}

export const workspaceStatus = defineTool({
  name: 'workspace-status',
  title: 'Workspace Status',
  category: CATEGORY,
  ...QUERY,
  description:
    "One folder's state, to know what you may do before changing it: operational mode, trust, active transaction, unsaved documents, projects and languages with the extensions serving them. Whether language features answer yet: get-solution-structure; a project's files: get-project-details.",
  inputSchema: inputSchema({
    projectsLimit: limitParameter('projects'),
    languagesLimit: limitParameter('languages'),
    openDocumentsLimit: limitParameter('open documents'),
    cursor: cursorInput,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      workspace: workspaceInfoSchema,
      trusted: { type: 'boolean' },
      operationalMode: { type: 'string', description: 'The configured mode.' },
      effectiveMode: { type: 'string', description: 'The mode that applies (inspection-only when untrusted).' },
      fileCount: { type: 'integer', description: 'Files seen (node_modules, .git and similar folders excluded).' },
      fileCountIsPartial: { type: 'boolean', description: 'True when the folder has more files than were listed.' },
      projects: collectionOutput('Projects found from their files, in path order.', projectInfoSchema),
      languages: collectionOutput('Languages present, most files first.', {
        type: 'object',
        properties: {
          languageId: { type: 'string' },
          fileCount: { type: 'integer' },
          sampleDocument: { type: 'string' },
          languageServices: languageServicesSchema,
        },
        required: ['languageId', 'fileCount', 'sampleDocument', 'languageServices'],
      }),
      openDocuments: collectionOutput('Documents open in the editor; isDirty marks unsaved changes (tools read the buffer).', {
        type: 'object',
        properties: { documentId: { type: 'string' }, path: { type: 'string' }, languageId: { type: 'string' }, isDirty: { type: 'boolean' } },
        required: ['documentId', 'path', 'languageId', 'isDirty'],
      }),
      transaction: {
        ...transactionStateSchema,
        description: 'The active staged transaction (its state, id and how many files it changes); null when none is open.',
        properties: { ...(transactionStateSchema.properties as JsonSchema), transactionId: { type: 'string' }, stagedFiles: { type: 'integer', minimum: 0 } },
      },
    },
    required: [
      'workspace',
      'trusted',
      'operationalMode',
      'effectiveMode',
      'fileCount',
      'fileCountIsPartial',
      'projects',
      'languages',
      'openDocuments',
      'transaction',
    ],
  },
  annotations: queryAnnotations('Workspace Status'),
  examples: [
    {
      workflowId: 'orientation',
      workflowTitle: 'Find your way around a workspace',
      step: 2,
      id: 'workspace-status',
      title: 'Inspect one folder',
      purpose: 'See projects, languages and unsaved documents of a folder.',
      expectedOutcome: 'Projects, languages with their language services, and open documents.',
      request: { workspace: { alias: 'sample' } },
    },
  ],
  async run(input, ctx): Promise<WorkspaceStatusData> {
    const w = ctx.workspace(input.workspace);
    const files = await w.files();
    const settings = ctx.services.settings();
    const open = ctx.editor
      .openDocuments()
      .filter((d) => isInside(w.fsPath, d.absPath))
      .map((d) => {
        const rel = toPosix(path.relative(w.fsPath, d.absPath));
        return { documentId: w.documentId(rel), path: rel, languageId: d.languageId, isDirty: d.isDirty };
      })
      .sort((a, b) => a.path.localeCompare(b.path));
    return {
      workspace: describeWorkspace(w),
      trusted: settings.trusted,
      operationalMode: settings.operationalMode,
      effectiveMode: settings.effectiveMode,
      fileCount: files.paths.length,
      fileCountIsPartial: files.hasMore,
      projects: paged(ctx, 'projects', await w.projects(), input.projectsLimit),
      languages: paged(ctx, 'languages', languageSummaries(ctx, files.paths), input.languagesLimit),
      openDocuments: paged(ctx, 'openDocuments', open, input.openDocumentsLimit),
      transaction: activeTransaction(ctx, w),
    };
  },
});

// ---------------------------------------------------------------- get-solution-structure

const STARTING_RETRY_SECONDS = 5;
/** How long get-solution-structure waits for a running extension's first document symbols. */
const STARTING_SYMBOLS_WAIT_MS = 3000;

/** Features whose answers depend on the whole project: partial while the server loads it. */
const PROJECT_WIDE = ['hover', 'definition', 'references', 'rename'];

/**
 * A language is starting while an extension serving it is still activating ('activating': every
 * feature that did not answer is "starting"), or while its server answers from the open files
 * only, still loading the project ('loading': project-wide features are "starting" too, since
 * their answers are partial). 'reprobe': the server has just answered its first symbols.
 */
async function languageStarting(
  ctx: ToolContext,
  w: Workspace,
  sample: string,
  services: { active: boolean }[],
  features: Record<string, FeatureProbe>,
): Promise<'activating' | 'loading' | 'reprobe' | false> {
  if (services.some((s) => !s.active)) return Object.values(features).every((f) => f === 'available') ? false : 'activating';
  if (services.length === 0) return false;
  const doc = await ctx.document({ path: sample }, { workspaceId: w.id }, 'sampleDocument').catch(() => undefined);
  if (!doc) return false;
  if (features.documentSymbols !== 'available') {
    // A running extension whose server has not answered yet: documentSymbolTree waits for it a few seconds.
    try {
      const symbols = await documentSymbolTree(ctx, doc, Math.min(STARTING_SYMBOLS_WAIT_MS, SYMBOLS_READINESS.waitMs));
      return symbols.length > 0 ? 'reprobe' : false;
    } catch (e) {
      return e instanceof ToolError && e.code === 'LanguageServiceStarting' ? 'activating' : false;
    }
  }
  return (await ctx.services.readiness.coverage(ctx, doc, 0)).state === 'loading' ? 'loading' : false;
}

const FEATURE_NAMES = ['documentSymbols', 'foldingRanges', 'hover', 'definition', 'references', 'rename', 'semanticTokens', 'formatting'];

/** A language of a folder with, when probed, which of its features answer now. */
export interface LanguageFeatures extends LanguageSummary {
  features: Record<string, FeatureProbe> | null;
  retryAfterSeconds?: number;
}

export interface SolutionStructureData {
  workspaces: Collection<{ workspace: WorkspaceInfo; projects: Collection<ProjectInfo>; languages: LanguageFeatures[] }>;
  featureNames: string[];
}

export const getSolutionStructure = defineTool({
  name: 'get-solution-structure',
  title: 'Get Solution Structure',
  category: CATEGORY,
  ...QUERY,
  timeoutSeconds: 60,
  description:
    "Whether language features answer yet, when answers look empty or a service is starting: per open folder (or the one selected), projects, languages and each language's features (symbols, definition, references, rename...) probed on a sample document: available; starting (loading: ask again after retryAfterSeconds); noResult; unavailable. Mode and transaction: workspace-status.",
  inputSchema: inputSchema({
    probeFeatures: { type: 'boolean', default: true, description: 'Probe each language feature on a sample document (slower; default true).' },
    projectsLimit: limitParameter('projects per folder'),
  }),
  dataSchema: {
    type: 'object',
    properties: {
      workspaces: collectionOutput('Folders in editor order.', {
        type: 'object',
        properties: {
          workspace: workspaceInfoSchema,
          projects: collectionOutput('Projects in path order.', projectInfoSchema),
          languages: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                languageId: { type: 'string' },
                fileCount: { type: 'integer' },
                sampleDocument: { type: 'string' },
                languageServices: languageServicesSchema,
                features: {
                  type: ['object', 'null'],
                  description: 'Feature name to "available", "starting", "noResult" or "unavailable"; null when not probed.',
                  additionalProperties: { type: 'string', enum: ['available', 'starting', 'noResult', 'unavailable'] },
                },
                retryAfterSeconds: { type: 'integer', minimum: 1, description: 'Present when a feature is "starting": ask again after this many seconds.' },
              },
              required: ['languageId', 'fileCount', 'sampleDocument', 'languageServices', 'features'],
            },
          },
        },
        required: ['workspace', 'projects', 'languages'],
      }),
      featureNames: { type: 'array', items: { type: 'string' } },
    },
    required: ['workspaces', 'featureNames'],
  },
  annotations: queryAnnotations('Get Solution Structure'),
  examples: [
    {
      workflowId: 'orientation',
      workflowTitle: 'Find your way around a workspace',
      step: 3,
      id: 'solution-structure',
      title: 'See projects and language features',
      purpose: 'Learn which languages the editor can answer semantic questions about.',
      expectedOutcome: 'Each folder with its projects, and each language with its probed features.',
      request: { probeFeatures: true },
    },
  ],
  async run(input, ctx, token): Promise<SolutionStructureData> {
    const folders = input.workspace ? [ctx.workspace(input.workspace)] : [...ctx.registry.all()];
    const items: SolutionStructureData['workspaces']['items'] = [];
    for (const w of folders) {
      const files = await w.files();
      const languages: LanguageFeatures[] = [];
      for (const summary of languageSummaries(ctx, files.paths)) {
        let features: Record<string, FeatureProbe> | null = null;
        let languageServices = summary.languageServices;
        let retryAfterSeconds: number | undefined;
        if (input.probeFeatures !== false && !token.isCancellationRequested) {
          const sample = joinFolder(w.fsPath, summary.sampleDocument);
          features = await ctx.editor.probeLanguageFeatures(sample);
          // Probing opened the sample, which may have started the language's extension: read its state again.
          languageServices = new LanguageIndex(ctx.editor.languages()).contribution(summary.languageId)?.providedBy ?? [];
          let starting = await languageStarting(ctx, w, summary.sampleDocument, languageServices, features);
          if (starting === 'reprobe') {
            features = await ctx.editor.probeLanguageFeatures(sample);
            starting = await languageStarting(ctx, w, summary.sampleDocument, languageServices, features);
          }
          if (starting === 'activating' || starting === 'loading') {
            for (const [name, state] of Object.entries(features)) {
              if (state !== 'available' || (starting === 'loading' && PROJECT_WIDE.includes(name))) features[name] = 'starting';
            }
            retryAfterSeconds = STARTING_RETRY_SECONDS;
          }
        }
        languages.push({ ...summary, languageServices, features, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
      }
      items.push({ workspace: describeWorkspace(w), projects: limitItems(await w.projects(), input.projectsLimit), languages });
    }
    return { workspaces: limitItems(items, null), featureNames: FEATURE_NAMES };
  },
});

// ---------------------------------------------------------------- get-project-details

const MANIFEST_MAX_BYTES = 16_384;

/** A project by id, name or path; a folder path picks its language project (tsconfig) before its package.json. */
function findProject(projects: ProjectInfo[], selector: ProjectSelector): ProjectInfo | undefined {
  const matches = projects.filter(
    (p) =>
      (selector.projectId === undefined || selector.projectId === p.projectId) &&
      (selector.name === undefined || selector.name === p.name) &&
      (selector.path === undefined || selector.path === p.path || selector.path === p.directory),
  );
  return matches.find((p) => selector.path === undefined || p.path === selector.path) ?? matches.find((p) => p.kind !== 'node') ?? matches[0];
}

export interface ProjectDetailsData {
  project: ProjectInfo;
  manifest: { path: string; format: 'json' | 'text'; content: unknown; truncated: boolean } | null;
  languages: { languageId: string; fileCount: number }[];
  documents: Collection<{ documentId: string; path: string; languageId: string | null }>;
  nestedProjects: ProjectInfo[];
}

export const getProjectDetails = defineTool({
  name: 'get-project-details',
  title: 'Get Project Details',
  category: CATEGORY,
  ...QUERY,
  description:
    "One project's files, to find paths: kind, manifest (package.json or tsconfig.json as JSON, others' first lines), documents (files in no nested project, with language) and language counts. project: projectId, name or path from get-solution-structure; omitted when the folder has one.",
  inputSchema: inputSchema({
    project: {
      ...projectSelectorInput,
      minProperties: 1,
      description: 'Optional when the folder has one project (a tsconfig.json beside its package.json counts as one).',
    },
    documentsLimit: limitParameter('documents'),
    cursor: cursorInput,
  }),
  dataSchema: {
    type: 'object',
    properties: {
      project: projectInfoSchema,
      manifest: {
        type: ['object', 'null'],
        properties: {
          path: { type: 'string' },
          format: { type: 'string', enum: ['json', 'text'] },
          content: {},
          truncated: { type: 'boolean' },
        },
        required: ['path', 'format', 'content', 'truncated'],
      },
      languages: {
        type: 'array',
        items: { type: 'object', properties: { languageId: { type: 'string' }, fileCount: { type: 'integer' } }, required: ['languageId', 'fileCount'] },
      },
      documents: collectionOutput('Documents of the project in path order.', {
        type: 'object',
        properties: { documentId: { type: 'string' }, path: { type: 'string' }, languageId: { type: ['string', 'null'] } },
        required: ['documentId', 'path', 'languageId'],
      }),
      nestedProjects: { type: 'array', items: projectInfoSchema, description: 'Projects inside this one, whose files are not listed here.' },
    },
    required: ['project', 'manifest', 'languages', 'documents', 'nestedProjects'],
  },
  annotations: queryAnnotations('Get Project Details'),
  examples: [
    {
      workflowId: 'orientation',
      workflowTitle: 'Find your way around a workspace',
      step: 4,
      id: 'project-details',
      title: 'List a project',
      purpose: "See a project's manifest and documents before reading code.",
      expectedOutcome: 'The manifest and the first 50 documents in path order.',
      request: { project: { path: 'tsconfig.json' } },
    },
  ],
  async run(input, ctx): Promise<ProjectDetailsData> {
    const w = ctx.workspace(input.workspace);
    const projects = await w.projects();
    const project = input.project
      ? findProject(
          projects,
          input.project.path === undefined ? input.project : { ...input.project, path: toRelativePath(w.fsPath, input.project.path, 'project.path') },
        )
      : onlyProject(w.alias, projects);
    if (!project) {
      throw new ToolError(
        'ProjectNotFound',
        `No project of folder ${w.alias} matches ${JSON.stringify(input.project)}. Projects: ${projects.map((p) => `${p.projectId} (${p.name})`).join(', ')}.`,
        revise('Select one of the listed projects by projectId.'),
      );
    }
    const inDir = (p: string, dir: string): boolean => dir === '' || p.startsWith(`${dir}/`);
    const nested = projects.filter((p) => p.directory !== project.directory && inDir(p.directory, project.directory));
    const { paths } = await w.files();
    const index = new LanguageIndex(ctx.editor.languages());
    const docs = paths
      .filter((p) => inDir(p, project.directory) && !nested.some((n) => inDir(p, n.directory)))
      .map((p) => ({ documentId: w.documentId(p), path: p, languageId: index.languageOf(p) ?? null }));
    let manifest: ProjectDetailsData['manifest'] = null;
    if (project.path !== '') {
      const text = (await ctx.editor.readFileText(joinFolder(w.fsPath, project.path), MANIFEST_MAX_BYTES + 1)) ?? '';
      const truncated = Buffer.byteLength(text, 'utf8') > MANIFEST_MAX_BYTES;
      const parsed = project.path.endsWith('.json') && !truncated ? parseJsonc(text) : undefined;
      manifest =
        parsed !== undefined
          ? { path: project.path, format: 'json' as const, content: parsed, truncated: false }
          : {
              path: project.path,
              format: 'text' as const,
              content: text.split(/\r?\n/).slice(0, 80).join('\n').slice(0, MANIFEST_MAX_BYTES),
              truncated: truncated || text.split(/\r?\n/).length > 80,
            };
    }
    return {
      project,
      manifest,
      languages: countLanguages(
        docs.map((d) => d.path),
        index,
      ).map(({ languageId, fileCount }) => ({ languageId, fileCount })),
      documents: paged(ctx, 'documents', docs, input.documentsLimit),
      nestedProjects: nested,
    };
  },
});

/** The folder's open transaction, as transaction tools describe it, with its id and changed-file count. */
function activeTransaction(ctx: ToolContext, w: Workspace): ActiveTransaction | null {
  const tm = ctx.services.transactions;
  const tx = tm.active(w.id);
  const state = tm.state(tx);
  return tx && state ? { ...state, transactionId: tx.id, stagedFiles: tx.effectiveDocuments().length } : null;
}

/** The folder's one project, where the project files of one directory (tsconfig.json beside package.json) count as one. */
function onlyProject(alias: string, projects: ProjectInfo[]): ProjectInfo {
  const directories = [...new Set(projects.map((p) => p.directory))];
  if (directories.length === 1) return findProject(projects, { path: directories[0] }) ?? projects[0];
  throw new ToolError(
    'ProjectSelectorRequired',
    `Folder ${alias} has ${projects.length} projects; name one: ${projects.map((p) => `{"projectId":${JSON.stringify(p.projectId)}} (${p.name}, ${p.path || 'folder'})`).join(', ')}.`,
    revise('Repeat the request with project set to one of the listed selectors.'),
    { choices: projects.map((p) => ({ projectId: p.projectId, name: p.name, path: p.path })) },
  );
}

/** JSON with comments and trailing commas, as tsconfig.json allows; undefined when it does not parse. */
function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsoncText(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 ? value : undefined;
}
