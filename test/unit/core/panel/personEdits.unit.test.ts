/**
 * The person's panel edits and an agent's edit-text interleaved: the person's offsets are
 * computed inside the workspace's mutation queue, so an agent revision staged in between can
 * never make them land on the wrong text.
 */
import * as assert from 'node:assert/strict';
import { PanelController } from '../../../../src/core/panel/controller';
import type { PanelHostActions } from '../../../../src/core/panel/controller';
import type { CallResult } from '../../../../src/core/chain/chain';
import type { Workspace } from '../../../../src/core/documents/workspaces';
import { FakeHost } from '../../support/fakeHost';
import { createHarness, expectOk } from '../../support/harness';
import type { Harness } from '../../support/harness';

const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n';
const actions: PanelHostActions = { openDiff: async () => undefined, openAllChanges: async () => undefined };
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('panel: person edits interleaved with agent edits', () => {
  let h: Harness;
  let ws: Workspace;
  let c: PanelController;
  /** Holds the workspace's queue until released, so calls line up behind it in a known order. */
  let release: () => void;

  beforeEach(async () => {
    const host = new FakeHost();
    host.addFolder('app', { 'a.txt': A });
    h = await createHarness({ host, settings: { operationalMode: 'autonomous-trusted' } });
    ws = h.registry.all()[0];
    c = new PanelController(h.services, actions);
    const at = A.indexOf('eleven');
    await h.transactions.stage(
      undefined,
      ws,
      { tool: 'edit-text', summary: 'shout eleven' },
      [{ kind: 'edit', path: 'a.txt', edits: [{ start: at, end: at + 6, newText: 'ELEVEN' }] }],
      { basis: 'staged' },
    );
    const gate = new Promise<void>((resolve) => (release = resolve));
    void h.transactions.exclusive(ws.id, () => gate);
  });

  /** An agent's edit-text inserting a line at the top, started first and waiting in the queue. */
  const agentInsertsAtTop = async (): Promise<{ call: Promise<CallResult> }> => {
    const call = h.call('edit-text', { edits: [{ location: { span: { document: { path: 'a.txt' }, range: { start: 0, length: 0 } } }, newText: 'zero\n' }] });
    await tick();
    return { call };
  };

  it('a hunk discarded from the panel while an agent stages is refused (the panel showed another revision), and nothing moves', async () => {
    const hunk = (await c.model()).selected?.hunks[0];
    assert.ok(hunk);
    const tx = h.transactions.active(ws.id);
    assert.ok(tx);
    const { call: agent } = await agentInsertsAtTop();
    const person = c.handle({
      type: 'discardHunk',
      workspaceId: ws.id,
      transactionId: tx.id,
      revision: tx.current,
      path: 'a.txt',
      hunk: 0,
      originalStartLine: hunk.originalStartLine,
      updatedStartLine: hunk.updatedStartLine,
    });
    release();
    expectOk(await agent);
    const outcome = await person;
    assert.equal(outcome?.ok, false);
    assert.equal(outcome?.ok === false && outcome.code, 'TransactionConflicted');
    assert.equal(h.transactions.stagedText(ws, 'a.txt'), `zero\n${A.replace('eleven', 'ELEVEN')}`);
  });

  it('a hunk discarded from the command palette is found in the text as it is after the agent staged', async () => {
    const { call: agent } = await agentInsertsAtTop();
    // Hunk 2 of 2 exists only once the agent's line at the top is staged.
    const person = c.discardHunk(ws, 'a.txt', 1);
    release();
    expectOk(await agent);
    const outcome = await person;
    assert.equal(outcome.ok, true, outcome.message);
    assert.equal(h.transactions.stagedText(ws, 'a.txt'), `zero\n${A}`, "the agent's line stays, ELEVEN is discarded, nothing else moves");
    assert.deepEqual(
      h.transactions.history(ws).map((r) => [r.tool, r.by]),
      [
        ['edit-text', 'agent'],
        ['edit-text', 'agent'],
        ['review-panel', 'person'],
      ],
    );
  });

  it("a person's saved text based on the text before the agent's revision is refused, and the agent's revision stays", async () => {
    const shown = h.transactions.stagedText(ws, 'a.txt') ?? '';
    const { call: agent } = await agentInsertsAtTop();
    const person = c.personText(ws, 'a.txt', shown.replace('two', 'TWO'), shown);
    release();
    expectOk(await agent);
    const outcome = await person;
    assert.equal(outcome.ok, false);
    assert.equal(outcome.ok === false && outcome.code, 'TransactionConflicted');
    assert.equal(h.transactions.stagedText(ws, 'a.txt'), `zero\n${A.replace('eleven', 'ELEVEN')}`);
    assert.equal(h.transactions.active(ws.id)?.current, 2);
  });

  it('a person edit queued before an agent edit lands first, and the agent resolves against the text it left', async () => {
    const shown = h.transactions.stagedText(ws, 'a.txt') ?? '';
    const person = c.personText(ws, 'a.txt', shown.replace('two\n', 'two\nand a half\n'), shown);
    await tick();
    const agent = h.call('edit-text', { edits: [{ location: { selection: { document: { path: 'a.txt' }, selectedText: 'three' } }, newText: 'THREE' }] });
    release();
    assert.equal((await person).ok, true);
    expectOk(await agent);
    assert.equal(h.transactions.stagedText(ws, 'a.txt'), A.replace('eleven', 'ELEVEN').replace('two\n', 'two\nand a half\n').replace('three', 'THREE'));
    assert.deepEqual(
      h.transactions.history(ws).map((r) => r.by),
      ['agent', 'person', 'agent'],
    );
  });
});
