/**
 * Types from one source: a tool's input type is computed from the JSON Schema object the chain
 * validates its input with (json-schema-to-ts's FromSchema, types only, nothing at run time), so
 * the schema and the code reading the input cannot drift: change a property's type, enum or the
 * required list and the code that disagrees no longer compiles. For that, input schemas and the
 * fragments they are built from keep their literal types (`as const`, no `JsonSchema` annotation).
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type { JSONSchema as TypedSchema } from 'json-schema-to-ts';

/**
 * The value a schema accepts. A property with a default stays optional: the chain validates
 * without filling defaults in (ajv's useDefaults is off), so the tool sees it missing.
 */
export type SchemaType<S extends JSONSchema> = FromSchema<S, { keepDefaultedPropertiesOptional: true }>;

/**
 * A tool's input: what its input schema accepts. Deliberately unconstrained (never for a
 * non-schema): while defineTool infers S, a constraint would make TypeScript expand FromSchema
 * over every possible schema, which is "excessively deep".
 */
export type ToolInput<S> = S extends JSONSchema ? SchemaType<S> : never;

/** True when A and B are assignable to each other. */
export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compiles only when its argument is true: `export type X = Check<MutuallyAssignable<Domain, SchemaType<typeof fragment>>>`
 * ties a domain type that core code uses (and documents field by field) to the schema fragment that accepts it.
 */
export type Check<T extends true> = T;
