import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatedFiles } from '../../../../scripts/generated';
import { registeredToolName } from '../../../../src/core/chain/definition';
import { DoorNaming } from '../../../../src/core/chain/doors';
import { languageModelToolContribution, modelInputSchema, toolReference } from '../../../../src/core/chain/manifest';
import { envelopeOutputSchema, expectedSnapshotInput } from '../../../../src/core/chain/schemas';
import type { JsonSchema } from '../../../../src/core/chain/schemas';
import { compileInputValidator, compileSchema } from '../../../../src/core/chain/validation';
import { ALL_TOOLS } from '../../../../src/tools';

/** The repository root: this file runs from out/test/unit/. */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');

/** Top-level keys of roslyn-workbench-mcp's tool reference pages (roslyn-workbench-tool-reference/v1), in their order. */
const ROSLYN_REFERENCE_KEYS = [
  '$schema',
  'formatVersion',
  'productVersion',
  'sourceTag',
  'commit',
  'name',
  'title',
  'area',
  'category',
  'operationKind',
  'summary',
  'availability',
  'documentationUrl',
  'tool',
  'examples',
] as const;
/** Every page carries all of those fields. */
const REQUIRED_REFERENCE_KEYS = ROSLYN_REFERENCE_KEYS;
const ROSLYN_TOOL_KEYS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'];
const ROSLYN_ANNOTATION_KEYS = ['title', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint'];
/** Keys of an example on a roslyn-workbench-mcp reference page. */
const ROSLYN_EXAMPLE_KEYS = ['workflowId', 'workflowTitle', 'step', 'id', 'title', 'purpose', 'expectedOutcome', 'representativeResponse', 'request'];

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

/** Every place in an input schema that is an open object or an unbounded string, as JSON pointers. */
function schemaLeaks(schema: unknown, pointer = '#'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => schemaLeaks(s, `${pointer}/${i}`));
  const node = schema as JsonSchema;
  const leaks: string[] = [];
  const types = typesOf(node);
  if ((types.includes('object') || node.properties !== undefined) && node.additionalProperties !== false) {
    leaks.push(`${pointer}: object without additionalProperties: false`);
  }
  if (types.includes('string') && typeof node.maxLength !== 'number' && node.format !== 'uuid' && node.enum === undefined && node.const === undefined) {
    leaks.push(`${pointer}: string without maxLength`);
  }
  if (
    node.type === undefined &&
    node.const === undefined &&
    node.enum === undefined &&
    node.$ref === undefined &&
    node.properties === undefined &&
    !['oneOf', 'anyOf', 'allOf', 'required', 'minProperties'].some((k) => k in node)
  ) {
    leaks.push(`${pointer}: schema without a type accepts anything`);
  }
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties']) {
    const children = node[key];
    if (children && typeof children === 'object') {
      for (const [name, child] of Object.entries(children)) leaks.push(...schemaLeaks(child, `${pointer}/${key}/${name}`));
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else']) {
    if (typeof node[key] === 'object') leaks.push(...schemaLeaks(node[key], `${pointer}/${key}`));
  }
  for (const key of ['oneOf', 'anyOf', 'allOf', 'prefixItems']) if (Array.isArray(node[key])) leaks.push(...schemaLeaks(node[key], `${pointer}/${key}`));
  return leaks;
}

describe('manifest: generated files do not drift from the definitions', () => {
  const expected = generatedFiles(ROOT);

  it('package.json, every docs/reference file and the language table of docs/languages.md equal what npm run gen would write', () => {
    assert.ok(expected.has('package.json'));
    assert.ok(expected.has('docs/reference/index.md'));
    assert.ok(expected.has('docs/reference/tool-detail.schema.json'));
    assert.ok(expected.has('docs/languages.md'), 'the language table of docs/languages.md (from docs/languages.json)');
    assert.equal(expected.size, ALL_TOOLS.length + 4);
    const stale: string[] = [];
    for (const [relative, content] of expected) {
      const file = path.join(ROOT, relative);
      const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      if (current !== content) stale.push(relative);
    }
    assert.deepEqual(stale, [], 'Generated files are out of date; run npm run gen');
  });

  it('has no reference page for a tool that does not exist', () => {
    const pages = fs.readdirSync(path.join(ROOT, 'docs', 'reference', 'tools')).map((f) => `docs/reference/tools/${f}`);
    assert.deepEqual(
      pages.filter((p) => !expected.has(p)),
      [],
    );
  });

  it('package.json contributes exactly the listed tools, in order, with their input schemas', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { contributes: { languageModelTools: JsonSchema[] } };
    const contributed = pkg.contributes.languageModelTools;
    assert.deepEqual(
      contributed.map((t) => t.toolReferenceName),
      ALL_TOOLS.map((t) => t.name),
    );
    const naming = new DoorNaming(
      'vscode.lm',
      ALL_TOOLS.map((t) => t.name),
    );
    ALL_TOOLS.forEach((tool, i) => {
      const entry = contributed[i];
      assert.equal(entry.name, registeredToolName(tool.name));
      assert.equal(entry.modelDescription, naming.forDoor(tool.description));
      assert.deepEqual(entry.inputSchema, naming.schema(modelInputSchema(tool.inputSchema)));
      assert.deepEqual(entry, JSON.parse(JSON.stringify(languageModelToolContribution(tool, naming))));
      // Query tools are visible in every mode; anything else is hidden when it would be refused.
      assert.equal(!String(entry.when).includes('isWorkspaceTrusted'), tool.effect === 'Read' && tool.operationKind === 'Query', tool.name);
      // Every tool can be left out by the tool profile (a context key the host sets).
      assert.ok(String(entry.when).endsWith(`!agentWorkbench.profileHides.${registeredToolName(tool.name)}`), tool.name);
    });
  });

  it("the model's input schema is the validated one without closures, string lengths and zero minimums, nothing else", () => {
    /** Keys of `validated` missing from `model`, as pointers; throws when anything else differs. */
    const dropped = (validated: unknown, model: unknown, pointer: string, names = false): string[] => {
      if (typeof validated !== 'object' || validated === null) {
        assert.deepEqual(model, validated, pointer);
        return [];
      }
      assert.equal(typeof model, 'object', pointer);
      const v = validated as Record<string, unknown>;
      const m = model as Record<string, unknown>;
      const out: string[] = [];
      for (const key of Object.keys(v)) {
        if (!(key in m)) out.push(`${key}=${JSON.stringify(v[key])}`);
        else out.push(...dropped(v[key], m[key], `${pointer}/${key}`, !names && key === 'properties'));
      }
      assert.deepEqual(
        Object.keys(m).filter((k) => !(k in v)),
        [],
        pointer,
      );
      return out;
    };
    const withoutSnapshot = (schema: JsonSchema): JsonSchema => {
      const { expectedSnapshot: _copied, ...properties } = schema.properties as Record<string, unknown>;
      return { ...schema, properties };
    };
    for (const tool of ALL_TOOLS) {
      const model = modelInputSchema(tool.inputSchema);
      // What a model copies from an answer is shown as its description and type; the chain validates its fields.
      const copied = (tool.inputSchema.properties as Record<string, unknown>).expectedSnapshot;
      assert.deepEqual(
        (model.properties as Record<string, unknown>).expectedSnapshot,
        copied === undefined ? undefined : { description: expectedSnapshotInput.description, type: expectedSnapshotInput.type, properties: {} },
        tool.name,
      );
      const removed = new Set(dropped(withoutSnapshot(tool.inputSchema), withoutSnapshot(model), tool.name));
      for (const k of removed) {
        assert.ok(['additionalProperties=false', 'minLength=1', 'minimum=0'].includes(k) || /^maxLength=\d+$/.test(k), `${tool.name} loses ${k}`);
      }
    }
    // A field named like a keyword is a field, and is kept.
    assert.deepEqual(modelInputSchema({ type: 'object', properties: { maxLength: { type: 'integer' } }, additionalProperties: false }), {
      type: 'object',
      properties: { maxLength: { type: 'integer' } },
    });
    // Only the bounds no value of its kind crosses: a minimum of 1 or a minLength of 2 stays.
    assert.deepEqual(
      modelInputSchema({
        type: 'object',
        properties: { a: { type: 'integer', minimum: 1 }, b: { type: 'integer', minimum: 0 }, c: { type: 'string', minLength: 2 } },
      }),
      { type: 'object', properties: { a: { type: 'integer', minimum: 1 }, b: { type: 'integer' }, c: { type: 'string', minLength: 2 } } },
    );
  });

  it('hides a mutation tool in untrusted workspaces and in inspection-only mode', () => {
    const base = ALL_TOOLS[0];
    for (const marks of [
      { operationKind: 'Mutation' as const, effect: 'Write' as const },
      { operationKind: 'Query' as const, effect: 'External' as const },
    ]) {
      const entry = languageModelToolContribution({ ...base, ...marks }, new DoorNaming('vscode.lm', [base.name]));
      assert.equal(
        entry.when,
        `isWorkspaceTrusted && config.agentWorkbench.operationalMode != 'inspection-only' && !agentWorkbench.profileHides.${registeredToolName(base.name)}`,
      );
    }
  });
});

describe('manifest: tool definitions', () => {
  it('have unique kebab-case names and registrable names (^[\\w-]+$, at most 64 characters)', () => {
    const names = ALL_TOOLS.map((t) => t.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) {
      assert.match(name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      const registered = registeredToolName(name);
      assert.match(registered, /^[\w-]+$/);
      assert.ok(registered.length <= 64, registered);
    }
    assert.equal(new Set(names.map(registeredToolName)).size, names.length);
  });

  it('registeredToolName refuses names it cannot register', () => {
    assert.throws(() => registeredToolName('x'.repeat(60)), /cannot be registered/);
    assert.throws(() => registeredToolName('bad.name'), /cannot be registered/);
    assert.throws(() => registeredToolName('bad name'), /cannot be registered/);
  });

  it('declare consistent marks: operation kind, effect and annotations agree', () => {
    for (const tool of ALL_TOOLS) {
      assert.ok(tool.description.length >= 40, `${tool.name}: description tells the model when to call it`);
      assert.equal(tool.annotations.title, tool.title, tool.name);
      assert.equal(tool.annotations.readOnlyHint, tool.effect === 'Read', tool.name);
      assert.equal(tool.annotations.destructiveHint, tool.effect === 'Destructive', tool.name);
      if (tool.operationKind === 'Query') assert.equal(tool.effect, 'Read', `${tool.name}: a query only reads`);
      assert.ok(Number.isInteger(tool.timeoutSeconds) && tool.timeoutSeconds >= 0, tool.name);
      assert.ok(Number.isInteger(tool.maxOutputBytes) && tool.maxOutputBytes >= 0, tool.name);
    }
  });

  for (const tool of ALL_TOOLS) {
    describe(tool.name, () => {
      it('input schema compiles, is closed on every object and bounds every string', () => {
        assert.equal(tool.inputSchema.type, 'object');
        assert.doesNotThrow(() => compileInputValidator(tool.inputSchema));
        assert.deepEqual(schemaLeaks(tool.inputSchema), []);
      });

      it('output schema (envelope around dataSchema) compiles', () => {
        assert.doesNotThrow(() => compileSchema(envelopeOutputSchema(tool.dataSchema)));
      });

      it('every example request validates against the input schema', () => {
        assert.ok(tool.examples.length > 0, 'has at least one example');
        const validate = compileInputValidator(tool.inputSchema);
        for (const example of tool.examples) {
          assert.deepEqual(validate(example.request), { valid: true, problems: [] }, `${tool.name} example ${example.id}`);
        }
      });

      it("reference page has roslyn-workbench-mcp's fields, in its order", () => {
        const page = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'reference', 'tools', `${tool.name}.json`), 'utf8')) as JsonSchema;
        const keys = Object.keys(page);
        for (const key of REQUIRED_REFERENCE_KEYS) assert.ok(keys.includes(key), `${tool.name} reference lacks ${key}`);
        const roslynOrder: readonly string[] = ROSLYN_REFERENCE_KEYS;
        assert.deepEqual(
          keys.filter((k) => roslynOrder.includes(k)),
          roslynOrder.filter((k) => keys.includes(k)),
          "roslyn-workbench-mcp's fields appear in its order",
        );
        assert.equal(page.name, tool.name);
        assert.equal(page.title, tool.title);
        assert.equal(page.category, tool.category);
        assert.equal(page.operationKind, tool.operationKind);
        assert.equal(page.summary, tool.description);
        assert.match(String(page.formatVersion), /^[a-z-]+-tool-reference\/v1$/);
        assert.ok(typeof page.area === 'string' && page.area.length > 0);
        assert.ok(typeof page.availability === 'string' && page.availability.length > 0);

        const toolPart = page.tool as JsonSchema;
        assert.deepEqual(Object.keys(toolPart), ROSLYN_TOOL_KEYS);
        assert.equal(toolPart.name, tool.name);
        assert.equal(toolPart.description, tool.description);
        assert.deepEqual(toolPart.inputSchema, tool.inputSchema);
        assert.deepEqual(toolPart.outputSchema, JSON.parse(JSON.stringify(envelopeOutputSchema(tool.dataSchema))));
        assert.deepEqual(Object.keys(toolPart.annotations as JsonSchema).sort(), [...ROSLYN_ANNOTATION_KEYS].sort());

        const examples = page.examples as JsonSchema[];
        assert.equal(examples.length, tool.examples.length);
        for (const example of examples) {
          assert.deepEqual(Object.keys(example).sort(), [...ROSLYN_EXAMPLE_KEYS].sort());
          assert.equal(typeof example.workflowId, 'string');
          assert.ok(Number.isInteger(example.step) && (example.step as number) >= 1);
        }
        assert.deepEqual(page, JSON.parse(JSON.stringify(toolReference(tool, String(page.productVersion)))));
        const validatePage = compileSchema(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'reference', 'tool-detail.schema.json'), 'utf8')) as JsonSchema);
        assert.ok(validatePage(page), `${tool.name} page validates against tool-detail.schema.json: ${JSON.stringify(validatePage.errors)}`);
      });
    });
  }

  it('examples number their workflow steps uniquely and have unique ids', () => {
    const steps = new Set<string>();
    const ids = new Set<string>();
    for (const example of ALL_TOOLS.flatMap((t) => t.examples)) {
      const key = `${example.workflowId}#${example.step}`;
      assert.ok(!steps.has(key), `two examples are step ${key}`);
      assert.ok(!ids.has(example.id), `duplicate example id ${example.id}`);
      steps.add(key);
      ids.add(example.id);
    }
  });

  it('the reference index links every tool', () => {
    const index = fs.readFileSync(path.join(ROOT, 'docs', 'reference', 'index.md'), 'utf8');
    for (const tool of ALL_TOOLS) assert.ok(index.includes(`[${tool.name}](tools/${tool.name}.json)`), tool.name);
  });

  it('the schema walker finds open objects and unbounded strings (self-check)', () => {
    assert.deepEqual(schemaLeaks({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } }, additionalProperties: false }), []);
    assert.deepEqual(schemaLeaks({ type: 'object', properties: { a: { type: ['string', 'null'] } }, additionalProperties: false }), [
      '#/properties/a: string without maxLength',
    ]);
    assert.deepEqual(schemaLeaks({ type: 'object', properties: { o: { type: ['object', 'null'], properties: {} } }, additionalProperties: false }), [
      '#/properties/o: object without additionalProperties: false',
    ]);
    assert.deepEqual(schemaLeaks({ type: 'object', properties: { x: {} }, additionalProperties: false }), [
      '#/properties/x: schema without a type accepts anything',
    ]);
    assert.deepEqual(schemaLeaks({ type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }), [
      '#/properties/l/items: string without maxLength',
    ]);
  });
});
