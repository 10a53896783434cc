/**
 * Validates wire messages against the COMMITTED JSON Schemas (schema/app-server/json, protocol.md
 * §11). E2E suites call `assertValidServerMessage` on every message they capture from the server and
 * `assertValidClientMessage` on what they send; `ProtocolTranscriptValidator` also checks each
 * response's `result` against its method's result schema by following request ids.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import {
  COMMITTED_SCHEMA_DIR,
  readSchemaDirectory,
} from '../../src/protocols/app-server-v1/schema/committed-schema-files';
import { findClientRequest } from '../../src/protocols/app-server-v1/registry';

type Message = Record<string, unknown>;

let validators: Map<string, ValidateFunction> | null = null;

/** Every committed schema compiled once with ajv (draft 2020-12, strict mode). */
export function committedSchemaValidators(): Map<string, ValidateFunction> {
  if (validators === null) {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    const files = readSchemaDirectory(COMMITTED_SCHEMA_DIR);
    validators = new Map(
      Object.entries(files.jsonSchema).map(([name, text]) => [name, ajv.compile(JSON.parse(text) as object)]),
    );
  }
  return validators;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`).join('; ');
}

/** The schema violations of `value` against the committed schema `name` (empty when valid). */
export function schemaErrors(name: string, value: unknown): string[] {
  const validate = committedSchemaValidators().get(name);
  if (validate === undefined) throw new Error(`no committed schema named ${name}`);
  return validate(value) ? [] : [describeErrors(validate.errors)];
}

export function assertMatchesSchema(name: string, value: unknown): void {
  const errors = schemaErrors(name, value);
  if (errors.length > 0) {
    throw new Error(`${JSON.stringify(value)} does not match ${name}: ${errors.join('; ')}`);
  }
}

function isObject(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a result against the result schema of the client method that was answered. `approval/resolve`
 * answers `{}` and has no committed schema file (§11.2).
 */
export function assertValidResult(method: string, result: unknown): void {
  const spec = findClientRequest(method);
  if (spec === undefined || spec.resultTypeName === null) throw new Error(`no client request ${method}`);
  if (spec.resultTypeName === 'ApprovalResolveResponse') {
    if (!isObject(result) || Object.keys(result).length > 0) {
      throw new Error(`approval/resolve result must be {}: ${JSON.stringify(result)}`);
    }
    return;
  }
  assertMatchesSchema(spec.resultTypeName, result);
}

/**
 * A message the server wrote: a JsonRpcMessage carrying `"jsonrpc":"2.0"`; notifications must match
 * ServerNotification, server requests ServerRequest. Pass `requestMethod` to also check a response's
 * `result` against the method's result schema.
 */
export function assertValidServerMessage(message: unknown, requestMethod?: string): void {
  assertMatchesSchema('JsonRpcMessage', message);
  const envelope = message as Message;
  if (envelope.jsonrpc !== '2.0')
    throw new Error(`server message without "jsonrpc":"2.0": ${JSON.stringify(message)}`);
  if ('method' in envelope) {
    assertMatchesSchema('id' in envelope ? 'ServerRequest' : 'ServerNotification', message);
  } else if ('result' in envelope && requestMethod !== undefined) {
    assertValidResult(requestMethod, envelope.result);
  }
}

/**
 * A message a well-behaved client sends: requests and notifications match ClientRequest; answers to
 * server requests carry an ApprovalResponse (the only server request of v1).
 */
export function assertValidClientMessage(message: unknown): void {
  assertMatchesSchema('JsonRpcMessage', message);
  const envelope = message as Message;
  if ('method' in envelope) assertMatchesSchema('ClientRequest', message);
  else if ('result' in envelope) assertMatchesSchema('ApprovalResponse', envelope.result);
}

/**
 * Validates a conversation in order: remembers the method of every client request so that each
 * server response is checked against that method's result schema.
 */
export class ProtocolTranscriptValidator {
  private readonly methodsById = new Map<string, string>();

  client(message: unknown): void {
    assertValidClientMessage(message);
    const envelope = message as Message;
    if (typeof envelope.method === 'string' && 'id' in envelope) {
      this.methodsById.set(JSON.stringify(envelope.id), envelope.method);
    }
  }

  server(message: unknown): void {
    const envelope = isObject(message) ? message : {};
    const method = 'method' in envelope ? undefined : this.methodsById.get(JSON.stringify(envelope.id));
    assertValidServerMessage(message, method);
  }
}
