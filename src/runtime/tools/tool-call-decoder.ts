/** Decoding of model tool calls into `{id, name, arguments}` (docs/spec/runtime.md §9.5). */
import type { ToolCall } from '../model/types';

export interface RawArgumentError {
  code: 'invalid_arguments_json' | 'invalid_arguments_payload';
  message: string;
}

export interface DecodedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  argumentError: RawArgumentError | null;
}

function decodeArguments(raw: string): { value: Record<string, unknown>; error: RawArgumentError | null } {
  if (raw.trim() === '') return { value: {}, error: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      value: {},
      error: { code: 'invalid_arguments_json', message: `Invalid tool arguments JSON: ${detail}` },
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      value: {},
      error: { code: 'invalid_arguments_payload', message: 'Tool arguments must decode to an object' },
    };
  }
  return { value: parsed as Record<string, unknown>, error: null };
}

/** `index` is the call's 0-based position in the assistant message. */
export function decodeToolCall(call: ToolCall, index: number): DecodedToolCall {
  const id = (call.id ?? '').trim();
  const rawArguments = typeof call.function?.arguments === 'string' ? call.function.arguments : '';
  const { value, error } = decodeArguments(rawArguments);
  return {
    id: id === '' ? `call_generated_${index}` : id,
    name: (call.function?.name ?? '').replace(/\s/g, ''),
    arguments: value,
    argumentError: error,
  };
}
