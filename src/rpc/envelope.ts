/**
 * Inbound classification of one parsed JSON value (docs/spec/protocol.md §1.3) and the `-32600` id echo rule
 * (§1.4). Pure: no I/O, no connection state.
 */
import type { RpcErrorObject } from './rpc-error';
import type { RequestId } from './request-id';

export type InboundEnvelope =
  /** `params` is `undefined` when absent or `null` (§1.3: null means absent). */
  | { kind: 'request'; id: RequestId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: RequestId; result: unknown }
  | { kind: 'error-response'; id: RequestId | null; error: RpcErrorObject }
  /** `echoId` is the id the `-32600` answer carries (§1.4). */
  | { kind: 'invalid'; echoId: RequestId | null };

type JsonRecord = Record<string, unknown>;

const ALLOWED_MEMBERS = {
  request: new Set(['jsonrpc', 'id', 'method', 'params']),
  notification: new Set(['jsonrpc', 'method', 'params']),
  response: new Set(['jsonrpc', 'id', 'result']),
  'error-response': new Set(['jsonrpc', 'id', 'error']),
} as const;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "the member k is present", whatever its value (null included). */
function has(value: JsonRecord, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** A valid request/response id: any string, or an integral number with |n| ≤ 2^53 − 1. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** The `-32600` id echo rule: the object's `id` when it is a valid id, else null. */
export function echoIdOf(value: unknown): RequestId | null {
  if (!isRecord(value) || !has(value, 'id')) return null;
  const id = value.id;
  return isRequestId(id) ? id : null;
}

function onlyAllowedMembers(value: JsonRecord, allowed: ReadonlySet<string>): boolean {
  return Object.keys(value).every((key) => allowed.has(key));
}

function isValidErrorObject(value: unknown): value is RpcErrorObject {
  return (
    isRecord(value) &&
    typeof value.code === 'number' &&
    Number.isInteger(value.code) &&
    typeof value.message === 'string'
  );
}

function shapeOf(value: JsonRecord): keyof typeof ALLOWED_MEMBERS | null {
  const method = has(value, 'method');
  const id = has(value, 'id');
  const result = has(value, 'result');
  const error = has(value, 'error');
  if (method && !result && !error) return id ? 'request' : 'notification';
  if (!method && id && result && !error) return 'response';
  if (!method && id && error && !result) return 'error-response';
  return null;
}

/** Classifies one parsed inbound JSON value (§1.3). Arrays (batches) and primitives are invalid. */
export function classifyEnvelope(value: unknown): InboundEnvelope {
  const invalid: InboundEnvelope = { kind: 'invalid', echoId: echoIdOf(value) };
  if (!isRecord(value)) return invalid;
  const shape = shapeOf(value);
  if (shape === null || !onlyAllowedMembers(value, ALLOWED_MEMBERS[shape])) return invalid;
  if (has(value, 'jsonrpc') && value.jsonrpc !== '2.0') return invalid;

  const params = value.params ?? undefined;
  switch (shape) {
    case 'request':
      if (!isRequestId(value.id) || !isNonEmptyString(value.method)) return invalid;
      return { kind: 'request', id: value.id, method: value.method, params };
    case 'notification':
      if (!isNonEmptyString(value.method)) return invalid;
      return { kind: 'notification', method: value.method, params };
    case 'response':
      if (!isRequestId(value.id)) return invalid;
      return { kind: 'response', id: value.id, result: value.result };
    case 'error-response':
      if (!(value.id === null || isRequestId(value.id)) || !isValidErrorObject(value.error)) return invalid;
      return { kind: 'error-response', id: value.id, error: errorObjectOf(value.error) };
  }
}

/** Keeps code, message and data; other members of a client's error object are tolerated, not kept. */
function errorObjectOf(error: RpcErrorObject): RpcErrorObject {
  return has(error as unknown as JsonRecord, 'data')
    ? { code: error.code, message: error.message, data: error.data }
    : { code: error.code, message: error.message };
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}
