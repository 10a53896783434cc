/** Normalization of typed tool metadata declarations (docs/spec/runtime.md §9.2). */
import type { ToolIdempotency, ToolMetadata, ToolSideEffect } from './types';

const SIDE_EFFECTS: readonly ToolSideEffect[] = [
  'unknown',
  'none',
  'read',
  'write',
  'execute',
  'network',
  'external',
];
const IDEMPOTENCY: readonly ToolIdempotency[] = ['unknown', 'supported', 'unsupported'];
const RETENTION: readonly ToolMetadata['result_retention'][] = ['archive', 'preserve'];
const KNOWN_FIELDS = [
  'side_effect',
  'idempotency',
  'terminal',
  'result_retention',
  'capability_tags',
  'cost_dimensions',
] as const;
export const TOOL_METADATA_FIELDS: readonly string[] = KNOWN_FIELDS;

const MAX_LABELS = 32;
const MAX_LABEL_CODE_POINTS = 128;

function invalid(detail: string): Error {
  return new Error(`tool_metadata_invalid: ${detail}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Only TAB, LF, CR and SPACE are trimmed: other Unicode spaces are part of an opaque label. */
function trimLabel(label: string): string {
  return label.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

function enumField<T extends string>(
  raw: Record<string, unknown>,
  field: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = raw[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalid(`${field} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

function labelList(raw: Record<string, unknown>, field: string): string[] {
  const value = raw[field];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be an array of strings`);
  const labels = new Set<string>();
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'string') throw invalid(`${field}[${index}] must be a string`);
    const label = trimLabel(item);
    if (label === '') throw invalid(`${field}[${index}] must not be blank`);
    if ([...label].length > MAX_LABEL_CODE_POINTS) {
      throw invalid(`${field}[${index}] must be at most ${MAX_LABEL_CODE_POINTS} characters`);
    }
    labels.add(label);
  });
  if (labels.size > MAX_LABELS) throw invalid(`${field} must have at most ${MAX_LABELS} labels`);
  // Default sort compares UTF-16 code units, as the spec requires.
  return [...labels].sort();
}

/** Validates a declaration and fills in defaults; throws `tool_metadata_invalid: <detail>`. */
export function normalizeToolMetadata(input: unknown): ToolMetadata {
  if (!isPlainObject(input)) throw invalid('tool metadata must be an object');
  const unknownFields = Object.keys(input).filter((key) => !TOOL_METADATA_FIELDS.includes(key));
  if (unknownFields.length > 0) throw invalid(`unknown fields: ${unknownFields.sort().join(', ')}`);
  const terminal = input.terminal;
  if (terminal !== undefined && typeof terminal !== 'boolean') throw invalid('terminal must be a boolean');
  return {
    side_effect: enumField(input, 'side_effect', SIDE_EFFECTS, 'unknown'),
    idempotency: enumField(input, 'idempotency', IDEMPOTENCY, 'unknown'),
    terminal: terminal ?? false,
    result_retention: enumField(input, 'result_retention', RETENTION, 'archive'),
    capability_tags: labelList(input, 'capability_tags'),
    cost_dimensions: labelList(input, 'cost_dimensions'),
  };
}
