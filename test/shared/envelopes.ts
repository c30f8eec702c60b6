/**
 * The envelope assertions every test uses, in the unit harness and in the real VS Code alike:
 * an answer matches its tool's output schema, succeeded, or failed with a given code.
 */
import * as assert from 'node:assert/strict';
import type { ValidateFunction } from 'ajv';
import type { AnyToolDefinition } from '../../src/core/chain/definition';
import type { Envelope, FailureEnvelope, SuccessEnvelope } from '../../src/core/chain/envelope';
import { envelopeOutputSchema } from '../../src/core/chain/schemas';
import { compileSchema } from '../../src/core/chain/validation';
import { ALL_TOOLS } from '../../src/tools';

const validators = new WeakMap<AnyToolDefinition, ValidateFunction>();

function definitionOf(tool: string | AnyToolDefinition): AnyToolDefinition {
  if (typeof tool !== 'string') return tool;
  const definition = ALL_TOOLS.find((t) => t.name === tool);
  assert.ok(definition, `no definition for ${tool}`);
  return definition;
}

/** The compiled envelopeOutputSchema(tool.dataSchema), compiled once per tool. */
export function envelopeValidator(tool: string | AnyToolDefinition): ValidateFunction {
  const definition = definitionOf(tool);
  let validate = validators.get(definition);
  if (!validate) {
    validate = compileSchema(envelopeOutputSchema(definition.dataSchema));
    validators.set(definition, validate);
  }
  return validate;
}

/** Fails with ajv's errors when an envelope does not match its tool's output schema. */
export function assertValidEnvelope(tool: string | AnyToolDefinition, envelope: unknown): void {
  const validate = envelopeValidator(tool);
  assert.ok(
    validate(envelope),
    `${definitionOf(tool).name} answered an envelope outside its output schema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(envelope).slice(0, 2000)}`,
  );
}

export function expectOk<T = Record<string, unknown>>(envelope: Envelope): SuccessEnvelope<T> {
  assert.ok(envelope.ok, `expected success, got ${JSON.stringify(envelope).slice(0, 2000)}`);
  return envelope as SuccessEnvelope<T>;
}

/** A failure with the given code, and a correlation id get-error-details can look up. */
export function expectError(envelope: Envelope, code: string): FailureEnvelope {
  assert.equal(envelope.ok, false, `expected ${code}, got success ${JSON.stringify(envelope).slice(0, 1000)}`);
  const failure = envelope as FailureEnvelope;
  assert.equal(failure.error.code, code, `expected ${code}, got ${failure.error.code}: ${failure.error.message}`);
  assert.match(failure.error.correlationId, /^[0-9a-f-]{36}$/);
  return failure;
}
