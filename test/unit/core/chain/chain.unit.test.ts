import * as assert from 'node:assert/strict';
import { utf8Bytes } from '../../../../src/core/chain/bounding';
import { LinkedCancellation } from '../../../../src/core/chain/cancellation';
import type { CancellationSignal } from '../../../../src/core/chain/cancellation';
import { NO_WORKSPACE_SNAPSHOT, ToolRunner } from '../../../../src/core/chain/chain';
import { defineTool } from '../../../../src/core/chain/definition';
import type { AnyToolDefinition, ToolDefinition } from '../../../../src/core/chain/definition';
import { callTool, ToolError } from '../../../../src/core/chain/envelope';
import type { FailureEnvelope } from '../../../../src/core/chain/envelope';
import { envelopeOutputSchema } from '../../../../src/core/chain/schemas';
import type { ToolInput } from '../../../../src/core/chain/schemaTypes';
import { compileSchema } from '../../../../src/core/chain/validation';
import { ALL_TOOLS } from '../../../../src/tools';
import { QUERY } from '../../../../src/tools/shared/common';
import { FakeHost } from '../../support/fakeHost';
import { assertValidEnvelope, createHarness, expectError, expectOk } from '../../support/harness';
import type { Harness } from '../../support/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const testInput = {
  type: 'object',
  properties: { text: { type: 'string', maxLength: 100 }, count: { type: 'integer', minimum: 0, maximum: 100000 } },
  additionalProperties: false,
} as const;

/** A test-only tool: a closed input schema with an optional bounded "text", and the given body. */
function testTool(name: string, overrides: Partial<Omit<ToolDefinition<ToolInput<typeof testInput>, unknown>, 'inputSchema'>>): AnyToolDefinition {
  return defineTool<typeof testInput, unknown>({
    name,
    title: name,
    category: 'Workspaces',
    ...QUERY,
    description: `Test tool ${name}.`,
    inputSchema: testInput,
    dataSchema: { type: 'object' },
    annotations: { title: name, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    examples: [],
    run: async () => ({}),
    ...overrides,
  }) as AnyToolDefinition;
}

interface Probe {
  runs: number;
  lastToken?: CancellationSignal;
  started?: () => void;
}

function buildTools(probe: Probe): AnyToolDefinition[] {
  const counted = <T>(value: T) => {
    probe.runs++;
    return value;
  };
  const listItems = (count: number) => Array.from({ length: count }, (_, i) => ({ index: i, label: `item number ${i} `.padEnd(40, '-') }));
  return [
    testTool('test-echo', {
      dataSchema: { type: 'object', properties: { echo: { type: 'string' } }, required: ['echo'], additionalProperties: false },
      run: async (input) => counted({ echo: input.text ?? '' }),
    }),
    testTool('test-throws', {
      run: async () => {
        probe.runs++;
        throw new Error('kaboom in the tool body');
      },
    }),
    testTool('test-tool-error', {
      run: async () => {
        probe.runs++;
        throw new ToolError('DocumentNotFound', 'No such document; call workspace-list.', callTool('workspace-list', 'List the folders first.'), {
          tried: ['a.ts'],
        });
      },
    }),
    testTool('test-mutation', {
      operationKind: 'Mutation',
      effect: 'Write',
      requiredPermission: 'workspace.stage',
      safeToRepeat: false,
      run: async () => counted({ staged: true }),
    }),
    testTool('test-permission', { requiredPermission: 'special.permission', run: async () => counted({}) }),
    testTool('test-hang', {
      timeoutSeconds: 1,
      run: (_input, _ctx, token) => {
        probe.runs++;
        probe.lastToken = token;
        return new Promise<never>(() => undefined);
      },
    }),
    testTool('test-hang-default', {
      run: (_input, _ctx, token) => {
        probe.runs++;
        probe.lastToken = token;
        return new Promise<never>(() => undefined);
      },
    }),
    testTool('test-wait', {
      run: (_input, _ctx, token) => {
        probe.runs++;
        probe.lastToken = token;
        probe.started?.();
        return new Promise<never>(() => undefined);
      },
    }),
    testTool('test-approval', {
      operationKind: 'Mutation',
      effect: 'Write',
      requiresApproval: true,
      requiredPermission: 'workspace.commit',
      notApprovedCode: 'TransactionCommitNotApproved',
      prepareApproval: async (input) => ({ title: 'Commit?', message: `Commit ${input.text ?? 'everything'}: 2 files, +3 -1.` }),
      run: async () => counted({ committed: true }),
    }),
    testTool('test-approval-slow', {
      operationKind: 'Mutation',
      effect: 'Write',
      requiresApproval: true,
      requiredPermission: null,
      timeoutSeconds: 1,
      run: async () => counted({ applied: true }),
    }),
    testTool('test-approval-plain', {
      operationKind: 'Mutation',
      effect: 'Destructive',
      requiresApproval: true,
      requiredPermission: null,
      run: async () => counted({ deleted: true }),
    }),
    testTool('test-big', {
      maxOutputBytes: 2048,
      dataSchema: {
        type: 'object',
        properties: {
          head: { type: 'string' },
          list: {
            type: 'object',
            properties: { items: { type: 'array' }, hasMore: { type: 'boolean' }, totalCount: { type: 'integer' } },
            required: ['items', 'hasMore'],
          },
        },
        required: ['head', 'list'],
      },
      run: async (input) => counted({ head: 'kept', list: { items: listItems(input.count ?? 200), hasMore: false, totalCount: input.count ?? 200 } }),
    }),
    testTool('test-unbounded-scalar', {
      maxOutputBytes: 1024,
      run: async () => counted({ blob: 'x'.repeat(5000), list: { items: [1, 2, 3], hasMore: false } }),
    }),
  ];
}

describe('chain: ToolRunner', () => {
  // Built once so input and envelope schemas are compiled once; each test gets a fresh harness.
  const probe: Probe = { runs: 0 };
  const testTools = buildTools(probe);
  let h: Harness;

  beforeEach(async () => {
    probe.runs = 0;
    probe.lastToken = undefined;
    probe.started = undefined;
    const host = new FakeHost();
    host.addFolder('app', { 'src/a.ts': 'export const a = 1;\n' });
    h = await createHarness({ host, tools: [...ALL_TOOLS, ...testTools] });
  });

  const failureOf = async (
    name: string,
    input: unknown,
    code: Parameters<typeof expectError>[1],
    options?: Parameters<Harness['call']>[2],
  ): Promise<FailureEnvelope> => {
    const result = await h.call(name, input, options);
    return expectError(result, code);
  };

  it('answers success as exactly {ok, data, snapshot} with the folder snapshot', async () => {
    const result = await h.call('test-echo', { text: 'hi' });
    assert.deepEqual(Object.keys(result.envelope).sort(), ['data', 'ok', 'snapshot']);
    const envelope = expectOk(result);
    assert.deepEqual(envelope.data, { echo: 'hi' });
    assert.deepEqual(envelope.snapshot, h.registry.all()[0].snapshot());
    assert.match(envelope.snapshot.workspaceId, UUID);
    assert.equal(result.text, JSON.stringify(result.envelope));
  });

  it("waits for activation's storage work (Services.startup) before any call runs, then answers from what it restored", async () => {
    const host = new FakeHost();
    const late = await createHarness({ host, tools: testTools });
    host.addFolder('app', { 'src/a.ts': 'export const a = 1;\n' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    late.services.startup = gate.then(() => late.sync());
    let settled = false;
    const call = late.call('test-echo', { text: 'hi' }).then((r) => ((settled = true), r));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, false, 'the call answered before startup was done');
    assert.equal(probe.runs, 0, 'the tool ran before startup was done');
    release();
    const envelope = expectOk(await call);
    assert.deepEqual(envelope.snapshot, late.registry.all()[0].snapshot(), 'the answer is about the folder startup numbered, not the empty window');
  });

  it('answers with the no-workspace snapshot when no folder is open', async () => {
    const empty = await createHarness({ tools: testTools });
    const envelope = expectOk(await empty.call('test-echo', { text: 'x' }));
    assert.deepEqual(envelope.snapshot, NO_WORKSPACE_SNAPSHOT);
  });

  it('turns a plain Error into UnhandledException whose details get-error-details returns', async () => {
    const failure = await failureOf('test-throws', {}, 'UnhandledException');
    assert.match(failure.error.correlationId, UUID);
    assert.match(failure.error.message, /kaboom in the tool body/);
    assert.ok(failure.error.message.includes(failure.error.correlationId));
    assert.deepEqual(
      failure.continuation && { kind: failure.continuation.kind, tool: 'tool' in failure.continuation ? failure.continuation.tool : undefined },
      { kind: 'CallTool', tool: 'get-error-details' },
    );
    const details = expectOk<{ correlationId: string; tool: string; code: string; stack: string | null; input: string }>(
      await h.call('get-error-details', { correlationId: failure.error.correlationId }),
    );
    assert.equal(details.data.correlationId, failure.error.correlationId);
    assert.equal(details.data.tool, 'test-throws');
    assert.equal(details.data.code, 'UnhandledException');
    assert.match(details.data.stack ?? '', /Error: kaboom in the tool body\n\s+at /);
    assert.equal(details.data.input, '{}');
  });

  it('keeps a ToolError code, message, continuation and stored details', async () => {
    const failure = await failureOf('test-tool-error', { text: 'x' }, 'DocumentNotFound');
    assert.equal(failure.error.message, 'No such document; call workspace-list.');
    assert.deepEqual(failure.continuation, { kind: 'CallTool', tool: 'workspace-list', instruction: 'List the folders first.' });
    const details = expectOk<{ details: unknown; stack: unknown; input: string }>(
      await h.call('get-error-details', { correlationId: failure.error.correlationId }),
    );
    assert.deepEqual(details.data.details, { tried: ['a.ts'] });
    assert.equal(details.data.stack, null);
    assert.equal(details.data.input, '{"text":"x"}');
  });

  it('get-error-details answers ErrorDetailsNotFound for an unknown correlationId', async () => {
    await failureOf('get-error-details', { correlationId: '8f14e45f-ceea-467f-a0e6-6c3b6f5e4c1d' }, 'ErrorDetailsNotFound');
  });

  it('refuses bad input with InvalidRequest naming the field, without running the tool', async () => {
    const failure = await failureOf('test-echo', { text: 42, extra: true }, 'InvalidRequest');
    assert.match(failure.error.message, /text: must be string/);
    assert.match(failure.error.message, /extra: unknown field/);
    assert.equal(failure.continuation?.kind, 'ReviseRequest');
    assert.equal(probe.runs, 0);
    await failureOf('test-echo', 'not an object', 'InvalidRequest');
    const undefinedInput = await h.runner.invoke('test-echo', undefined);
    expectError(undefinedInput, 'InvalidRequest');
    assertValidEnvelope(h.tool('test-echo'), undefinedInput.envelope);
    assert.equal(probe.runs, 0);
  });

  it('answers InvalidRequest for an unknown tool name', async () => {
    const result = await h.runner.invoke('no-such-tool', {});
    const failure = expectError(result, 'InvalidRequest');
    assert.match(failure.error.message, /no tool named no-such-tool/);
    assert.ok(compileSchema(envelopeOutputSchema({}))(result.envelope));
  });

  describe('authorization', () => {
    it('inspection-only refuses a Write tool with SourceMutationDisabled and does not run it', async () => {
      h.setSettings({ operationalMode: 'inspection-only' });
      const failure = await failureOf('test-mutation', {}, 'SourceMutationDisabled');
      assert.match(failure.error.message, /inspection-only/);
      assert.equal(failure.continuation?.kind, 'ResolveExternally');
      assert.equal(probe.runs, 0);
      expectOk(await h.call('test-echo', { text: 'still answers' }));
      expectOk(await h.call('workspace-list', {}));
    });

    it('authorizes before validating: a refused tool is refused even with bad input', async () => {
      h.setSettings({ operationalMode: 'inspection-only' });
      await failureOf('test-mutation', { bogus: 1 }, 'SourceMutationDisabled');
    });

    it('an untrusted workspace is inspection-only whatever the setting', async () => {
      h.setSettings({ operationalMode: 'autonomous-trusted' });
      h.host.trusted = false;
      const failure = await failureOf('test-mutation', {}, 'SourceMutationDisabled');
      assert.match(failure.error.message, /not trusted/);
      await failureOf('test-approval', {}, 'SourceMutationDisabled');
      expectOk(await h.call('test-echo', { text: 'ok' }));
      const status = expectOk<{ effectiveMode: string; operationalMode: string; trusted: boolean; tools: { refusedInMode: string[] } }>(
        await h.call('server-status', {}),
      );
      assert.equal(status.data.effectiveMode, 'inspection-only');
      assert.equal(status.data.operationalMode, 'autonomous-trusted');
      assert.equal(status.data.trusted, false);
      const refused = status.data.tools.refusedInMode;
      for (const name of ['test-mutation', 'test-approval', 'test-approval-slow', 'test-approval-plain', 'edit-text', 'transaction-commit']) {
        assert.ok(refused.includes(name), name);
      }
      for (const name of ['test-echo', 'workspace-list', 'transaction-preview']) assert.ok(!refused.includes(name), name);
      assert.equal(probe.runs, 1);
    });

    it('refuses a tool whose requiredPermission is not granted', async () => {
      const failure = await failureOf('test-permission', {}, 'PermissionDenied');
      assert.match(failure.error.message, /special\.permission/);
      assert.equal(failure.continuation?.kind, 'ResolveExternally');
      assert.equal(probe.runs, 0);
      h.setSettings({ grantedPermissions: ['workspace.read', 'special.permission'] });
      expectOk(await h.call('test-permission', {}));
      h.setSettings({ grantedPermissions: [] });
      await failureOf('workspace-list', {}, 'PermissionDenied');
    });
  });

  describe('timeout and cancellation', () => {
    it('answers Timeout after the tool timeout and cancels the tool token', async () => {
      const started = Date.now();
      const failure = await failureOf('test-hang', {}, 'Timeout');
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 950 && elapsed < 5000, `took ${elapsed} ms`);
      assert.match(failure.error.message, /1 s/);
      assert.equal(failure.continuation?.kind, 'RetryRequest');
      assert.equal(probe.lastToken?.isCancellationRequested, true);
    });

    it('uses the defaultTimeoutSeconds setting when the tool declares 0', async () => {
      h.setSettings({ defaultTimeoutSeconds: 1 });
      const started = Date.now();
      await failureOf('test-hang-default', {}, 'Timeout');
      assert.ok(Date.now() - started < 5000);
      assert.equal(probe.lastToken?.isCancellationRequested, true);
    });

    it('answers Cancelled when the caller cancels, and cancels the tool token', async () => {
      const source = new LinkedCancellation();
      const started = new Promise<void>((resolve) => (probe.started = resolve));
      const pending = h.call('test-wait', {}, { token: source });
      await started;
      assert.equal(probe.lastToken?.isCancellationRequested, false);
      source.cancel();
      const failure = expectError(await pending, 'Cancelled');
      assert.equal(failure.continuation?.kind, 'RetryRequest');
      assert.equal(probe.lastToken?.isCancellationRequested, true);
    });
  });

  describe('approval', () => {
    it('approval-required answers notApprovedCode with ResolveExternally and does not run the tool', async () => {
      h.setSettings({ operationalMode: 'approval-required' });
      const failure = await failureOf('test-approval', {}, 'TransactionCommitNotApproved');
      assert.equal(failure.continuation?.kind, 'ResolveExternally');
      assert.equal(h.confirmations.length, 0);
      assert.equal(probe.runs, 0);
      await failureOf('test-approval-plain', {}, 'ApprovalDenied');
      assert.equal(probe.runs, 0);
      // A confirmation in VS Code's UI does not override the mode.
      await failureOf('test-approval', {}, 'TransactionCommitNotApproved', { confirmed: true });
      assert.equal(probe.runs, 0);
    });

    it('transactional asks the person with the prepared summary, then runs', async () => {
      const envelope = expectOk(await h.call('test-approval', { text: 'the rename' }));
      assert.deepEqual(envelope.data, { committed: true });
      assert.deepEqual(h.confirmations, [{ tool: 'test-approval', summary: { title: 'Commit?', message: 'Commit the rename: 2 files, +3 -1.' } }]);
      assert.equal(probe.runs, 1);
    });

    it('transactional does not ask again when the call was already confirmed', async () => {
      expectOk(await h.call('test-approval', {}, { confirmed: true }));
      assert.equal(h.confirmations.length, 0);
      assert.equal(probe.runs, 1);
    });

    it('a denial answers ApprovalDenied (or the tool notApprovedCode) and does not run the tool', async () => {
      h.confirm = () => false;
      const plain = await failureOf('test-approval-plain', {}, 'ApprovalDenied');
      assert.equal(plain.continuation?.kind, 'ResolveExternally');
      await failureOf('test-approval', {}, 'TransactionCommitNotApproved');
      assert.equal(h.confirmations.length, 2);
      assert.equal(probe.runs, 0);
    });

    it('when no person can be asked (no dialog can show), the refusal says so and the change stays for the person', async () => {
      h.confirm = () => ({ unasked: 'VS Code could not show the dialog' });
      const refused = await failureOf('test-approval', {}, 'TransactionCommitNotApproved');
      assert.match(refused.error.message, /^No person could be asked to approve test-approval \(VS Code could not show the dialog\)\. Nothing was applied\.$/);
      assert.equal(refused.continuation?.kind, 'ResolveExternally');
      assert.match(refused.continuation?.instruction ?? '', /review panel/);
      assert.equal(probe.runs, 0);
    });

    it('a tool without prepareApproval is confirmed with a default summary', async () => {
      expectOk(await h.call('test-approval-plain', {}));
      assert.equal(h.confirmations.length, 1);
      assert.equal(h.confirmations[0].summary.title, 'test-approval-plain');
      assert.match(h.confirmations[0].summary.message, /test-approval-plain/);
    });

    it('does not run a tool the person approves after the call already timed out', async () => {
      h.confirm = () => new Promise((resolve) => setTimeout(() => resolve(true), 1500));
      await failureOf('test-approval-slow', {}, 'Timeout');
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.equal(h.confirmations.length, 1);
      assert.equal(probe.runs, 0, 'the late approval must not apply anything');
    });

    it('does not run a tool whose caller had already cancelled', async () => {
      const source = new LinkedCancellation();
      source.cancel();
      await failureOf('test-echo', { text: 'x' }, 'Cancelled', { token: source });
      await failureOf('test-approval-plain', {}, 'Cancelled', { token: source, confirmed: true });
      assert.equal(probe.runs, 0);
    });

    it('autonomous-trusted runs without asking', async () => {
      h.setSettings({ operationalMode: 'autonomous-trusted' });
      h.confirm = () => assert.fail('must not ask');
      expectOk(await h.call('test-approval', {}));
      expectOk(await h.call('test-approval-plain', {}));
      assert.equal(probe.runs, 2);
    });

    it('prepare() gives the tool summary in transactional mode, a generic one for invalid input, none in other modes', async () => {
      assert.deepEqual(await h.runner.prepare('test-approval', { text: 'x' }), { title: 'Commit?', message: 'Commit x: 2 files, +3 -1.' });
      for (const [name, input] of [
        ['test-approval', { text: 7 }],
        ['test-approval-plain', {}],
      ] as const) {
        const generic = await h.runner.prepare(name, input);
        assert.ok(generic, name);
        assert.equal(generic.title, name);
        assert.match(generic.message, new RegExp(name));
      }
      assert.equal(await h.runner.prepare('test-echo', {}), undefined);
      assert.equal(await h.runner.prepare('no-such-tool', {}), undefined);
      for (const operationalMode of ['autonomous-trusted', 'approval-required', 'inspection-only'] as const) {
        h.setSettings({ operationalMode });
        assert.equal(await h.runner.prepare('test-approval', {}), undefined, operationalMode);
      }
      assert.equal(probe.runs, 0);
    });
  });

  describe('output bounding', () => {
    it('shortens a big collection to fit maxOutputBytes and sets hasMore', async () => {
      const result = await h.call('test-big', { count: 200 });
      const envelope = expectOk<{ head: string; list: { items: { index: number }[]; hasMore: boolean; totalCount: number } }>(result);
      assert.ok(utf8Bytes(result.text) <= 2048, `${utf8Bytes(result.text)} bytes`);
      assert.equal(envelope.data.head, 'kept');
      assert.equal(envelope.data.list.hasMore, true);
      assert.equal(envelope.data.list.totalCount, 200);
      assert.ok(envelope.data.list.items.length > 10 && envelope.data.list.items.length < 200);
      assert.deepEqual(
        envelope.data.list.items.map((i) => i.index),
        envelope.data.list.items.map((_, i) => i),
      );
      assert.equal(h.logs.at(-1)?.truncated, true);
    });

    it('leaves a result that fits alone', async () => {
      const envelope = expectOk<{ list: { items: unknown[]; hasMore: boolean } }>(await h.call('test-big', { count: 3 }));
      assert.equal(envelope.data.list.items.length, 3);
      assert.equal(envelope.data.list.hasMore, false);
      assert.equal(h.logs.at(-1)?.truncated, false);
    });

    it('honours a token budget with countTokens', async () => {
      const countTokens = async (text: string) => Math.ceil(text.length / 4);
      const result = await h.call('test-big', { count: 200 }, { tokenBudget: 200, countTokens });
      const envelope = expectOk<{ list: { items: unknown[]; hasMore: boolean } }>(result);
      assert.ok((await countTokens(result.text)) <= 200);
      assert.ok(utf8Bytes(result.text) < 900, 'the token budget is tighter than the byte limit here');
      assert.equal(envelope.data.list.hasMore, true);
      assert.ok(envelope.data.list.items.length > 0);
    });

    it('answers OutputTooLarge when nothing can be dropped', async () => {
      const failure = await failureOf('test-unbounded-scalar', {}, 'OutputTooLarge');
      assert.match(failure.error.message, /1024 bytes/);
      assert.equal(failure.continuation?.kind, 'ReviseRequest');
      const withBudget = await failureOf('test-big', { count: 5 }, 'OutputTooLarge', { tokenBudget: 3, countTokens: async (t) => t.length });
      assert.match(withBudget.error.message, /3 tokens/);
    });

    it('uses defaultMaxOutputBytes when the tool declares 0', async () => {
      h.setSettings({ defaultMaxOutputBytes: 1024 });
      const result = await h.call('workspace-status', {});
      expectOk(result);
      h.setSettings({ defaultMaxOutputBytes: 100 });
      await failureOf('workspace-status', {}, 'OutputTooLarge');
    });
  });

  describe('logging', () => {
    it('logs every call exactly once with its outcome, bytes and correlationId', async () => {
      const results = [
        await h.call('test-echo', { text: 'a' }),
        await h.call('test-throws', {}),
        await h.call('test-echo', { bogus: true }),
        await h.runner.invoke('no-such-tool', {}),
        await h.call('test-big', { count: 200 }),
      ];
      assert.equal(h.logs.length, results.length);
      assert.deepEqual(
        h.logs.map((l) => [l.tool, l.outcome]),
        [
          ['test-echo', 'ok'],
          ['test-throws', 'UnhandledException'],
          ['test-echo', 'InvalidRequest'],
          ['no-such-tool', 'InvalidRequest'],
          ['test-big', 'ok'],
        ],
      );
      results.forEach((r, i) => {
        assert.equal(h.logs[i].bytes, utf8Bytes(r.text));
        assert.ok(h.logs[i].durationMs >= 0);
        if (!r.envelope.ok) assert.equal(h.logs[i].correlationId, r.envelope.error.correlationId);
      });
      assert.equal(new Set(h.logs.map((l) => l.correlationId)).size, results.length);
    });

    it('still answers when writing the log fails', async () => {
      const runner = new ToolRunner(testTools, {
        services: h.services,
        log: () => {
          throw new Error('log channel disposed');
        },
        confirm: async () => true,
      });
      const result = await runner.invoke('test-echo', { text: 'still here' });
      assert.deepEqual(expectOk(result).data, { echo: 'still here' });
    });
  });

  it('rejects two definitions with the same name', async () => {
    await assert.rejects(createHarness({ tools: [...ALL_TOOLS, ALL_TOOLS[0]] }), /Duplicate tool name/);
  });
});
