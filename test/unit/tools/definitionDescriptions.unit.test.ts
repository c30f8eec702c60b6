import * as assert from 'node:assert/strict';
import { DoorNaming } from '../../../src/core/chain/doors';
import { languageModelToolContribution } from '../../../src/core/chain/manifest';
import type { JsonSchema } from '../../../src/core/chain/schemas';
import { ALL_TOOLS } from '../../../src/tools';

/**
 * The rule: a model given only the definitions must not have to guess what to put in a field it
 * has to fill. So every required property and every object-typed property, at any depth (array
 * items included), is described: by its own description, or by being named (as a word) in the
 * tool's description or in the description of an enclosing property, since the model reads those
 * with it and a selector's fields are best explained once, on the selector. Optional scalars are
 * left to their names, types, enums and defaults (includeDeclaration's default is in its schema;
 * a limit's name says what it counts); the descriptions of those that need more are checked by
 * name below.
 */
interface Gap {
  tool: string;
  pointer: string;
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
const isObject = (schema: JsonSchema): boolean => typesOf(schema).includes('object') || schema.properties !== undefined;
const names = (text: string, word: string): boolean => new RegExp(`(^|[^\\w])${word}([^\\w]|$)`).test(text);

function undescribed(tool: string, schema: JsonSchema, context: string[], pointer: string): Gap[] {
  const gaps: Gap[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    const own = typeof property.description === 'string' ? [property.description] : [];
    const mustSay = required.has(name) || isObject(property) || (property.items !== undefined && isObject(property.items as JsonSchema));
    if (mustSay && own.length === 0 && !context.some((text) => names(text, name))) gaps.push({ tool, pointer: `${pointer}/${name}` });
    const inner = [...context, ...own];
    gaps.push(...undescribed(tool, property, inner, `${pointer}/${name}`));
    if (property.items && typeof property.items === 'object') gaps.push(...undescribed(tool, property.items as JsonSchema, inner, `${pointer}/${name}/items`));
  }
  return gaps;
}

const LM_NAMING = new DoorNaming(
  'vscode.lm',
  ALL_TOOLS.map((t) => t.name),
);

describe('tool definitions: every field a model must fill is described where it reads it', () => {
  it('every required and every object-typed input property, at any depth, has a description (its own, or the tool’s or an enclosing one naming it)', () => {
    const gaps = ALL_TOOLS.flatMap((tool) => {
      const entry = languageModelToolContribution(tool, LM_NAMING);
      return undescribed(tool.name, entry.inputSchema as JsonSchema, [entry.modelDescription as string], '#');
    });
    assert.deepEqual(
      gaps.map((g) => `${g.tool} ${g.pointer}`),
      [],
    );
  });

  it('the rule finds what it should (self-check)', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        plain: { type: 'string' },
        needed: { type: 'string' },
        sel: { type: 'object', description: 'pick by id', properties: { id: { type: 'string' }, other: { type: 'object', properties: {} } }, required: ['id'] },
        list: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } },
      },
      required: ['needed'],
    };
    assert.deepEqual(
      undescribed('t', schema, ['Uses list.'], '#').map((g) => g.pointer),
      ['#/needed', '#/sel/other', '#/list/items/x'],
    );
  });

  it('says what the guessed-at fields mean: includeDeclaration, referencesLimit, a null severity, the symbol edits’ text, which workspace tool to use', () => {
    const tool = (name: string) => {
      const found = ALL_TOOLS.find((t) => t.name === name);
      assert.ok(found, name);
      return { description: found.description, properties: found.inputSchema.properties as Record<string, JsonSchema> };
    };
    const refs = tool('find-references');
    assert.equal(refs.properties.includeDeclaration.default, true);
    // Its name says it counts references; the description, that it counts them across documents (not per document).
    assert.match(String(refs.properties.referencesLimit.description), /across documents/i);
    assert.match(String(tool('get-diagnostics').properties.minimumSeverity.description), /null/);
    for (const name of ['replace-symbol-body', 'insert-before-symbol', 'insert-after-symbol']) {
      assert.match(tool(name).description, /line breaks.*indentation/, name);
    }
    for (const name of ['workspace-list', 'workspace-status', 'get-solution-structure']) {
      const others = ['workspace-list', 'workspace-status', 'get-solution-structure'].filter((n) => n !== name);
      assert.ok(
        others.some((o) => tool(name).description.includes(o)),
        `${name} says when to use the others`,
      );
    }
  });
});
