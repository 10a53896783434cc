/** Strict reader for RunEvent wire v2 (docs/spec/runtime.md §6.6). */
import { normalizeToolMetadata, TOOL_METADATA_FIELDS } from '../tool-metadata/tool-metadata';
import { COMPLETION_REASONS, type RunEvent, type RunEventType } from './types';
import {
  ENVELOPE_OPTIONAL,
  ENVELOPE_REQUIRED,
  EVENT_SHAPES,
  type FieldKind,
  type FieldTable,
} from './run-event-catalog';

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isInteger(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

function isToolMetadata(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (!TOOL_METADATA_FIELDS.every((field) => field in value)) return false;
  try {
    normalizeToolMetadata(value);
    return true;
  } catch {
    return false;
  }
}

const MESSAGE_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function isMessageList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (message) =>
        isPlainObject(message) && typeof message.role === 'string' && MESSAGE_ROLES.has(message.role),
    )
  );
}

/** Returns what the value should have been, or null when it is valid. */
function violation(kind: FieldKind, value: unknown): string | null {
  if (typeof kind === 'object') {
    return typeof value === 'string' && kind.oneOf.includes(value) ? null : `one of ${kind.oneOf.join(', ')}`;
  }
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? null : 'a string';
    case 'nonBlankString':
      return typeof value === 'string' && value.trim() !== '' ? null : 'a non-blank string';
    case 'positiveInteger':
      return isInteger(value, 1) ? null : 'a positive integer';
    case 'nonNegativeInteger':
      return isInteger(value, 0) ? null : 'a non-negative integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'a boolean';
    case 'object':
      return isPlainObject(value) ? null : 'an object';
    case 'stringOrNull':
      return value === null || typeof value === 'string' ? null : 'a string or null';
    case 'durationOrNull':
      return value === null || isInteger(value, 0) ? null : 'a non-negative integer or null';
    case 'createdAt':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0
        ? null
        : 'a finite number >= 0';
    case 'completionReason':
      return typeof value === 'string' && (COMPLETION_REASONS as readonly string[]).includes(value)
        ? null
        : 'a known completion reason';
    case 'toolMetadata':
      return isToolMetadata(value) ? null : 'a valid tool metadata object';
    case 'messageList':
      return isMessageList(value) ? null : 'an array of conversation messages';
  }
}

function checkFields(type: string, event: Json, table: FieldTable): void {
  for (const [field, kind] of Object.entries(table)) {
    if (!(field in event)) continue;
    const expected = violation(kind, event[field]);
    if (expected !== null) throw new Error(`run event ${type} has an invalid ${field}: expected ${expected}`);
  }
}

function checkCrossFieldRules(type: RunEventType, event: Json): void {
  if (type === 'tool_call_completed' && event.execution_started === false && event.duration_ms !== null) {
    throw new Error('run event tool_call_completed has a duration_ms although execution_started is false');
  }
  if (type === 'budget_exhausted') {
    const exhaustion = event.budget_exhaustion as Json;
    if (exhaustion.enforcement_boundary !== event.enforcement_boundary) {
      throw new Error('run event budget_exhausted has differing enforcement boundaries');
    }
  }
}

/** Validates one decoded JSON value as a RunEvent v2; throws with the reader's exact messages. */
export function parseRunEvent(json: unknown): RunEvent {
  if (!isPlainObject(json)) throw new Error('run event must be a JSON object');
  const type = json.type;
  if (typeof type !== 'string' || type.trim() === '') throw new Error('run event is missing type');
  if (!Object.prototype.hasOwnProperty.call(EVENT_SHAPES, type)) {
    throw new Error(`unsupported run event type \`${type}\``);
  }
  const eventType = type as RunEventType;
  if (json.version !== 'v2') throw new Error(`unsupported run event version \`${String(json.version)}\``);

  if (eventType === 'approval_resolved' && 'approved' in json) {
    throw new Error('run event approval_resolved contains the legacy field approved');
  }

  const shape = EVENT_SHAPES[eventType];
  const required = { ...ENVELOPE_REQUIRED, ...shape.required };
  const missing = Object.keys(required).filter((field) => !(field in json));
  if (missing.length > 0)
    throw new Error(`run event ${type} is missing required fields: ${missing.join(', ')}`);

  const allowed = new Set(['version', 'type', ...Object.keys(required), ...Object.keys(ENVELOPE_OPTIONAL)]);
  Object.keys(shape.optional).forEach((field) => allowed.add(field));
  const unknown = Object.keys(json).filter((field) => !allowed.has(field));
  if (unknown.length > 0) throw new Error(`run event ${type} contains unknown fields: ${unknown.join(', ')}`);

  checkFields(type, json, { ...ENVELOPE_OPTIONAL, ...ENVELOPE_REQUIRED });
  checkFields(type, json, shape.required);
  checkFields(type, json, shape.optional);
  checkCrossFieldRules(eventType, json);
  return { ...json } as unknown as RunEvent;
}
