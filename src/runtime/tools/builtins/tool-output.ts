/** Success results of built-in tools (docs/spec/runtime.md §9.7). */
import type { ToolExecutionResult, ToolOutput } from '../types';

type BoundedFields = Pick<
  ToolExecutionResult,
  'truncated' | 'truncation_reason' | 'artifact' | 'cursor' | 'original_bytes' | 'visible_bytes'
>;

export function successOutput(
  content: string,
  metadata: Record<string, unknown> = {},
  bounded: BoundedFields = {},
): ToolOutput {
  return {
    type: 'result',
    result: { content, status: 'success', directive: 'continue', error_code: null, metadata, ...bounded },
  };
}

/** Compact JSON content, key order as given. */
export function jsonSuccessOutput(value: unknown, metadata: Record<string, unknown> = {}): ToolOutput {
  return successOutput(JSON.stringify(value), metadata);
}
