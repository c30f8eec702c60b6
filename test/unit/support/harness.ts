/**
 * Builds what the extension builds at activation (Services, WorkspaceRegistry, ToolRunner with
 * the real tools) over a FakeHost, with settable settings and a scripted confirmation dialog.
 * Every envelope a call returns is validated against its tool's output schema.
 */
import { dirtyBuffers, StagedChecks } from '../../../src/core/transactions/check';
import { readCalls } from '../../../src/tools/calls';
import type { CallsData, ReadCallItem } from '../../../src/tools/calls';
import type { Collection } from '../../../src/tools/shared/common';
import type { StagedChecker } from '../../../src/core/transactions/check';
import * as assert from 'node:assert/strict';
import { ToolRunner } from '../../../src/core/chain/chain';
import type { ApprovalAnswer, CallLog, CallOptions, CallResult } from '../../../src/core/chain/chain';
import type { Services } from '../../../src/core/documents/context';
import type { AnyToolDefinition } from '../../../src/core/chain/definition';
import type { ApprovalSummary } from '../../../src/core/chain/toolInfo';
import type { Envelope, FailureEnvelope, SuccessEnvelope } from '../../../src/core/chain/envelope';
import type { ErrorCode } from '../../../src/core/chain/errors';
import { ErrorStore } from '../../../src/core/chain/errorStore';
import { TransactionManager } from '../../../src/core/transactions/manager';
import { CommitJournal } from '../../../src/core/transactions/journal';
import type { LastCommitStore } from '../../../src/core/transactions/journal';
import { DEFAULT_SETTINGS, effectiveSettings } from '../../../src/core/chain/modes';
import type { EffectiveSettings, Settings } from '../../../src/core/chain/modes';
import { WorkspaceRegistry } from '../../../src/core/documents/workspaces';
import type { KeyValueStore } from '../../../src/core/documents/workspaces';
import { ALL_TOOLS } from '../../../src/tools';
import { FakeHost } from './fakeHost';
import { assertValidEnvelope, expectError as sharedError, expectOk as sharedOk } from '../../shared/envelopes';
import { LanguageServiceCaches } from '../../../src/core/documents/caches';
import { ProjectReadiness } from '../../../src/core/symbols/readiness';

/** A KeyValueStore (VS Code's globalState) kept in memory. */
export class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, unknown>();

  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

export { assertValidEnvelope, envelopeValidator } from '../../shared/envelopes';

/** The envelope of a harness call or an envelope itself. */
const envelopeOf = (result: CallResult | Envelope): Envelope => ('envelope' in result ? result.envelope : result);

export function expectOk<T = Record<string, unknown>>(result: CallResult | Envelope): SuccessEnvelope<T> {
  return sharedOk<T>(envelopeOf(result));
}

export function expectError(result: CallResult | Envelope, code: ErrorCode): FailureEnvelope {
  return sharedError(envelopeOf(result), code);
}

export type ConfirmHandler = (tool: AnyToolDefinition, summary: ApprovalSummary) => ApprovalAnswer | Promise<ApprovalAnswer>;

/** The last commits as a window keeps them, in memory. */
function memoryLastCommits(): LastCommitStore {
  const files = new Map<string, string>();
  return { read: async (folder) => files.get(folder), write: async (folder, text) => void files.set(folder, text) };
}

export interface HarnessOptions {
  host?: FakeHost;
  /** The tool definitions the runner serves (default: the real ALL_TOOLS). */
  tools?: readonly AnyToolDefinition[];
  settings?: Partial<Settings>;
  store?: MemoryStore;
  /** The person's answer to confirmation dialogs (default: approve). */
  confirm?: ConfirmHandler;
  transactionRevision?: (workspaceId: string) => number | null;
  /** The staged-program checker (default: none, so checks answer unavailable). */
  checker?: StagedChecker;
  /** How long after a staging the check is run ahead of time (default: the product's PREPARE_AFTER_MS). */
  prepareAfterMs?: number;
  /** Validate every envelope against its tool's output schema (default true). */
  validateEnvelopes?: boolean;
}

export class Harness {
  readonly logs: CallLog[] = [];
  readonly confirmations: { tool: string; summary: ApprovalSummary }[] = [];
  settings: Settings;
  confirm: ConfirmHandler;
  validateEnvelopes: boolean;
  readonly services: Services;
  readonly runner: ToolRunner;
  readonly registry: WorkspaceRegistry;
  readonly errors = new ErrorStore();
  readonly transactions: TransactionManager;

  private constructor(
    readonly host: FakeHost,
    readonly tools: readonly AnyToolDefinition[],
    readonly store: MemoryStore,
    options: HarnessOptions,
  ) {
    this.settings = { ...DEFAULT_SETTINGS, grantedPermissions: [...DEFAULT_SETTINGS.grantedPermissions], ...options.settings };
    this.confirm = options.confirm ?? (() => true);
    this.validateEnvelopes = options.validateEnvelopes ?? true;
    this.transactions = new TransactionManager({
      editor: host,
      maxRevisions: () => this.effectiveSettings().maxRevisions,
      mode: () => this.effectiveSettings().effectiveMode,
      journal: new CommitJournal({ read: async () => undefined, write: async () => undefined }, memoryLastCommits()),
    });
    this.registry = new WorkspaceRegistry(host, store, options.transactionRevision ?? ((id) => this.transactions.revision(id)));
    host.onDidChange((absPath, kind) => this.registry.recordChange(absPath, kind));
    this.services = {
      editor: host,
      registry: this.registry,
      errors: this.errors,
      tools: () => this.tools,
      settings: () => this.effectiveSettings(),
      startedAt: Date.now(),
      transactions: this.transactions,
      readiness: new ProjectReadiness(),
      caches: new LanguageServiceCaches(),
      checks: new StagedChecks(options.checker, 'No staged-program checker in this harness.'),
    };
    this.services.checks.follow(this.transactions, {
      transaction: (id) => {
        const tx = this.transactions.active(id);
        const ws = this.registry.byId(id);
        return tx && ws ? { ws, tx } : undefined;
      },
      buffers: (ws) => dirtyBuffers(host, ws),
      delayMs: options.prepareAfterMs,
    });
    this.runner = new ToolRunner(tools, {
      services: this.services,
      log: (entry) => this.logs.push(entry),
      confirm: async (tool, summary) => {
        this.confirmations.push({ tool: tool.name, summary });
        return this.confirm(tool, summary);
      },
    });
  }

  static async create(options: HarnessOptions = {}): Promise<Harness> {
    const harness = new Harness(options.host ?? new FakeHost(), options.tools ?? ALL_TOOLS, options.store ?? new MemoryStore(), options);
    await harness.registry.sync();
    return harness;
  }

  effectiveSettings(): EffectiveSettings {
    return effectiveSettings(this.settings, this.host.isTrusted());
  }

  setSettings(patch: Partial<Settings>): void {
    this.settings = { ...this.settings, ...patch };
  }

  /** Re-reads the host's folders, as the extension does when folders change. */
  sync(): Promise<void> {
    return this.registry.sync();
  }

  tool(name: string): AnyToolDefinition {
    const tool = this.runner.tool(name);
    assert.ok(tool, `no tool named ${name}`);
    return tool;
  }

  /** Invokes a tool through the chain; the envelope is checked against the tool's output schema and its text. */
  async call(name: string, input: unknown, options?: CallOptions): Promise<CallResult> {
    const result = await this.runner.invoke(name, input, options);
    assert.deepEqual(JSON.parse(result.text), result.envelope, 'the returned text is not the serialized envelope');
    const tool = this.runner.tool(name);
    if (this.validateEnvelopes && tool) assertValidEnvelope(tool, result.envelope);
    return result;
  }

  async ok<T = Record<string, unknown>>(name: string, input: unknown = {}, options?: CallOptions): Promise<SuccessEnvelope<T>> {
    return expectOk<T>(await this.call(name, input, options));
  }

  /** A find-callers or find-callees answer's data with its call items read back (readCalls: every symbol an object). */
  async calls<T = Omit<CallsData, 'calls'> & { calls: Collection<ReadCallItem> }>(name: string, input: unknown = {}): Promise<T> {
    const data = (await this.ok<CallsData>(name, input)).data;
    return { ...data, calls: readCalls(data) } as T;
  }

  async fail(name: string, input: unknown, code: ErrorCode, options?: CallOptions): Promise<FailureEnvelope> {
    return expectError(await this.call(name, input, options), code);
  }
}

export function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  return Harness.create(options);
}
