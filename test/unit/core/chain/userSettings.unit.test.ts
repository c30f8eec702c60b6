import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InspectedSetting } from '../../../../src/core/chain/userSettings';
import { ignoredNotice, ignoredWorkspaceSettings, resolveSettings, USER_ONLY_SETTINGS } from '../../../../src/core/chain/userSettings';

const REPO_ROOT = path.resolve(__dirname, '../../../../..');

/** What a cloned repository asks for, in every place a workspace can write settings. */
const REPOSITORY_ASKS = {
  'agentWorkbench.operationalMode': 'autonomous-trusted',
  'agentWorkbench.newErrorsOnCommit': 'allow',
  'agentWorkbench.grantedPermissions': ['workspace.read', 'workspace.stage', 'workspace.commit', 'workspace.admin'],
  'agentWorkbench.toolProfile': 'full',
  'agentWorkbench.review.openOnFirstStage': false,
  'agentWorkbench.maxRevisions': 7,
};

/** inspect() as an older VS Code answers it: the workspace's values merged in, application scope or not. */
function inspectWith(user: Record<string, unknown>, workspace: Record<string, unknown>, folder: Record<string, unknown> = {}) {
  const defaults: Record<string, unknown> = {
    operationalMode: 'transactional',
    newErrorsOnCommit: 'refuse',
    grantedPermissions: ['workspace.read', 'workspace.stage', 'workspace.commit'],
    toolProfile: 'full',
    'review.openOnFirstStage': true,
    maxRevisions: 20,
    defaultTimeoutSeconds: 30,
    defaultMaxOutputBytes: 65536,
  };
  const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/^agentWorkbench\./, ''), v]));
  const [u, w, f] = [strip(user), strip(workspace), strip(folder)];
  return (key: string): InspectedSetting => ({ defaultValue: defaults[key], globalValue: u[key], workspaceValue: w[key], workspaceFolderValue: f[key] });
}

describe('user-only settings', () => {
  it('a workspace value of a user-only setting never applies, even where inspect() reports it', () => {
    const s = resolveSettings(inspectWith({}, REPOSITORY_ASKS, REPOSITORY_ASKS), true);
    assert.equal(s.operationalMode, 'transactional');
    assert.equal(s.effectiveMode, 'transactional');
    assert.equal(s.newErrorsOnCommit, 'refuse');
    assert.deepEqual(s.grantedPermissions, ['workspace.read', 'workspace.stage', 'workspace.commit']);
  });

  it("the person's own user settings apply, widening or narrowing", () => {
    const wide = resolveSettings(
      inspectWith(
        { 'agentWorkbench.operationalMode': 'autonomous-trusted', 'agentWorkbench.newErrorsOnCommit': 'allow' },
        { 'agentWorkbench.operationalMode': 'inspection-only' },
      ),
      true,
    );
    assert.equal(wide.effectiveMode, 'autonomous-trusted');
    assert.equal(wide.newErrorsOnCommit, 'allow');
    const narrow = resolveSettings(inspectWith({ 'agentWorkbench.operationalMode': 'approval-required' }, REPOSITORY_ASKS), true);
    assert.equal(narrow.effectiveMode, 'approval-required');
  });

  it('an untrusted workspace is inspection-only whatever either says', () => {
    const s = resolveSettings(inspectWith({ 'agentWorkbench.operationalMode': 'autonomous-trusted' }, REPOSITORY_ASKS), false);
    assert.equal(s.operationalMode, 'autonomous-trusted');
    assert.equal(s.effectiveMode, 'inspection-only');
  });

  it('settings that widen nothing still come from the workspace (the folder first)', () => {
    const s = resolveSettings(
      inspectWith({ 'agentWorkbench.maxRevisions': 50 }, { 'agentWorkbench.maxRevisions': 7 }, { 'agentWorkbench.maxRevisions': 9 }),
      true,
    );
    assert.equal(s.maxRevisions, 9);
  });

  it('lists each workspace value that differs from what applies, dotted or nested, with its source', () => {
    const applied = (key: string) => inspectWith({}, {})(key).defaultValue;
    const ignored = ignoredWorkspaceSettings(
      [
        { source: '.vscode/settings.json', settings: REPOSITORY_ASKS },
        {
          source: 'repo.code-workspace',
          settings: { agentWorkbench: { operationalMode: 'autonomous-trusted', review: { openOnFirstStage: true } }, 'editor.tabSize': 2 },
        },
        { source: 'broken', settings: undefined },
      ],
      applied,
    );
    assert.deepEqual(ignored, [
      { setting: 'agentWorkbench.operationalMode', value: 'autonomous-trusted', source: '.vscode/settings.json' },
      { setting: 'agentWorkbench.newErrorsOnCommit', value: 'allow', source: '.vscode/settings.json' },
      { setting: 'agentWorkbench.grantedPermissions', value: REPOSITORY_ASKS['agentWorkbench.grantedPermissions'], source: '.vscode/settings.json' },
      { setting: 'agentWorkbench.review.openOnFirstStage', value: false, source: '.vscode/settings.json' },
      { setting: 'agentWorkbench.operationalMode', value: 'autonomous-trusted', source: 'repo.code-workspace' },
    ]);
    assert.equal(
      ignoredNotice(ignored),
      'Agent Workbench ignored workspace settings: .vscode/settings.json sets operationalMode ("autonomous-trusted"), newErrorsOnCommit ("allow"), grantedPermissions (4 values), ' +
        'review.openOnFirstStage (false); repo.code-workspace sets operationalMode ("autonomous-trusted"). Only your user settings decide what agents may do and what the review shows, so a repository cannot change them.',
    );
  });

  it('package.json declares exactly the user-only settings application-scoped', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    const application = Object.entries(pkg.contributes.configuration.properties)
      .filter(([, p]) => p.scope === 'application')
      .map(([k]) => k.replace(/^agentWorkbench\./, ''))
      .sort();
    assert.deepEqual(application, [...USER_ONLY_SETTINGS].sort());
  });
});
