/**
 * Validates results against the schemas generated from the message definitions (the same source as
 * the committed files, docs/spec/protocol.md §11.1); compiled once per type and shared by every client.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { findMessageDefinition, schemaDocument } from '../protocols/app-server-v1/messages';

let ajv: Ajv2020 | null = null;
const validators = new Map<string, ValidateFunction | null>();

function validatorFor(typeName: string): ValidateFunction | null {
  if (!validators.has(typeName)) {
    const definition = findMessageDefinition(typeName);
    ajv ??= new Ajv2020({ strict: true, allowUnionTypes: true });
    validators.set(
      typeName,
      definition === undefined ? null : ajv.compile(schemaDocument(typeName, definition)),
    );
  }
  return validators.get(typeName) ?? null;
}

function describe(error: ErrorObject): string {
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `result${error.instancePath} ${error.message ?? 'is invalid'}${extra}`;
}

/** Null when `value` is a valid `typeName` (or no definition exists), else a one-line reason. */
export function resultDecodingProblem(typeName: string, value: unknown): string | null {
  const validate = validatorFor(typeName);
  if (validate === null || validate(value)) return null;
  return validate.errors?.[0] ? describe(validate.errors[0]) : 'result is invalid';
}
