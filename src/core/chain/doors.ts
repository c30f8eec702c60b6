import type { CallDoor, CallResult } from './chain';
import { registeredToolName } from './definition';
import type { Continuation, Envelope } from './envelope';
import type { JsonSchema } from './schemas';

/**
 * How each door names a tool: vscode.lm registers `workbench_find_references`, MCP serves the
 * canonical `find-references`. Descriptions, messages and continuations are written once, with
 * canonical names; a door's naming rewrites them to its own names where it hands text to a model.
 */
export const DOOR_TOOL_NAME: Readonly<Record<CallDoor, (canonical: string) => string>> = {
  'vscode.lm': registeredToolName,
  mcp: (canonical) => canonical,
};

/** Strings under these keys of an answer's data are the tools' own prose (notes), never code or a language service's text. */
const PROSE_KEYS = new Set(['note', 'notes']);

/**
 * The tool names one door uses. `forDoor` rewrites every canonical name occurring as a token:
 * not inside a longer name or word (`find-references-x`, `pre-find-references`), a path
 * (`tools/find-references.json`) or a dotted name. Every canonical name has a hyphen, so ordinary
 * words are never touched; longest names first.
 */
export class DoorNaming {
  private readonly byCanonical: ReadonlyMap<string, string>;
  private readonly pattern: RegExp | undefined;

  constructor(
    readonly door: CallDoor,
    canonicalNames: readonly string[],
  ) {
    const nameOf = DOOR_TOOL_NAME[door];
    this.byCanonical = new Map(canonicalNames.map((n) => [n, nameOf(n)]));
    const rewritten = [...this.byCanonical].filter(([canonical, named]) => canonical !== named).map(([canonical]) => canonical);
    this.pattern =
      rewritten.length === 0
        ? undefined
        : new RegExp(
            `(?<![\\w./-])(${rewritten
              .sort((a, b) => b.length - a.length)
              .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
              .join('|')})(?![\\w/-]|\\.\\w)`,
            'g',
          );
  }

  /** The door's name of a listed tool; anything else unchanged. */
  name(canonical: string): string {
    return this.byCanonical.get(canonical) ?? canonical;
  }

  /** The text with every canonical tool name as a token replaced by the door's name. */
  forDoor(text: string): string {
    return this.pattern ? text.replace(this.pattern, (canonical) => this.name(canonical)) : text;
  }

  /** A JSON Schema with every `description` (at any depth) in the door's names; names of properties, enums and examples untouched. */
  schema(schema: JsonSchema): JsonSchema {
    if (!this.pattern) return schema;
    const walk = (node: unknown, names: boolean): unknown => {
      if (Array.isArray(node)) return node.map((n) => walk(n, false));
      if (typeof node !== 'object' || node === null) return node;
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [
          k,
          names
            ? walk(v, false)
            : k === 'description' && typeof v === 'string'
              ? this.forDoor(v)
              : k === 'enum' || k === 'const' || k === 'default' || k === 'examples'
                ? v
                : walk(v, k === 'properties' || k === '$defs' || k === 'patternProperties'),
        ]),
      );
    };
    return walk(schema, false) as JsonSchema;
  }

  /**
   * An answer as this door gives it: a failure's message and continuation (its tool, tools and
   * instruction), and a success's notes, in the door's names. Data (code, paths, a language
   * service's messages) is never rewritten. The text is serialized again only when something changed.
   */
  answer(result: CallResult): CallResult {
    if (!this.pattern) return result;
    let changed = false;
    const rewrite = (text: string): string => {
      const named = this.forDoor(text);
      if (named !== text) changed = true;
      return named;
    };
    const envelope = result.envelope.ok ? this.success(result.envelope, rewrite) : this.failure(result.envelope, rewrite);
    return changed ? { envelope, text: JSON.stringify(envelope) } : result;
  }

  private failure(envelope: Extract<Envelope, { ok: false }>, rewrite: (text: string) => string): Envelope {
    const { continuation } = envelope;
    return {
      ...envelope,
      error: { ...envelope.error, message: rewrite(envelope.error.message) },
      ...(continuation ? { continuation: this.continuation(continuation, rewrite) } : {}),
    };
  }

  private continuation(c: Continuation, rewrite: (text: string) => string): Continuation {
    const instruction = rewrite(c.instruction);
    if (c.kind === 'CallTool') return { ...c, tool: rewrite(c.tool), instruction };
    if (c.kind === 'ChooseTool') return { ...c, tools: c.tools.map(rewrite), instruction };
    return { ...c, instruction };
  }

  private success(envelope: Extract<Envelope, { ok: true }>, rewrite: (text: string) => string): Envelope {
    const walk = (node: unknown, prose: boolean): unknown => {
      if (typeof node === 'string') return prose ? rewrite(node) : node;
      if (Array.isArray(node)) return node.map((n) => walk(n, prose));
      if (typeof node !== 'object' || node === null) return node;
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, PROSE_KEYS.has(k))]));
    };
    return { ...envelope, data: walk(envelope.data, false) };
  }
}
