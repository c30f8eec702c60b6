import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './schemas';

export interface ValidationResult {
  valid: boolean;
  /** One line per offending field, e.g. "location.span.range.start: must be >= 0". */
  problems: string[];
}

export type InputValidator = (input: unknown) => ValidationResult;

// verbose: the oneOf message below reads error.parentSchema, which ajv fills in only then.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, verbose: true });
addFormats(ajv);

const fieldOf = (error: ErrorObject): string => {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return base === '' ? 'input' : base;
};

function describe(error: ErrorObject): string {
  const field = fieldOf(error);
  switch (error.keyword) {
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return `${field === 'input' ? extra : `${field}.${extra}`}: unknown field (not in the tool's input schema)`;
    }
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return `${field === 'input' ? missing : `${field}.${missing}`}: required field is missing`;
    }
    case 'oneOf': {
      const alternatives = (error.parentSchema as { oneOf?: { required?: string[] }[] } | undefined)?.oneOf;
      const names = alternatives?.map((a) => a.required?.[0]).filter((n): n is string => n !== undefined);
      if (names && names.length === alternatives?.length) return `${field}: provide exactly one of ${names.join(' or ')}`;
      return `${field}: ${error.message ?? 'is invalid'}`;
    }
    case 'maxProperties': {
      // atMostOne in schemas.ts: a closed object whose fields are alternatives.
      const names = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      if ((error.params as { limit: number }).limit === 1 && names.length > 1) return `${field}: provide exactly one of ${names.join(' or ')}`;
      return `${field}: ${error.message ?? 'is invalid'}`;
    }
    case 'maxLength':
      return `${field}: too long (at most ${(error.params as { limit: number }).limit} characters)`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Compiles a tool's input schema once. Messages name each offending field; the "missing"
 * errors that only explain a failed oneOf are folded into its one line.
 */
export function compileInputValidator(schema: JsonSchema): InputValidator {
  const validate: ValidateFunction = ajv.compile(schema);
  return (input) => {
    if (validate(input)) return { valid: true, problems: [] };
    const errors = validate.errors ?? [];
    const oneOfFields = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
    const problems = errors.filter((e) => !(e.keyword === 'required' && oneOfFields.has(e.instancePath) && e.schemaPath.includes('/oneOf/'))).map(describe);
    return { valid: false, problems: [...new Set(problems)] };
  };
}

/** Validates tool outputs (tests and the contract suite use it). */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}
