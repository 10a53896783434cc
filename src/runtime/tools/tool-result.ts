/** Building tool results, previews and tool messages (docs/spec/runtime.md §9.1, §9.6, §9.7). */
import type { ToolMessage } from '../messages';
import type { ToolExecutionResult, ToolOutput } from './types';

export const OUTPUT_PREVIEW_MAX_BYTES = 4096;
export const OPERATION_CANCELLED = 'Operation was cancelled';

/** `{"ok":false,"error":<message>,"error_code":<code>, …extra}` as compact JSON. */
export function errorContent(message: string, code: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ok: false, error: message, error_code: code, ...extra });
}

/** A failed call that continues the run (`status: error`, `directive: continue`). */
export function failureResult(
  toolCallId: string,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): ToolExecutionResult {
  return {
    tool_call_id: toolCallId,
    content: errorContent(message, code, extra),
    status: 'error',
    directive: 'continue',
    error_code: code,
    metadata: {},
  };
}

function success(toolCallId: string, content: string): ToolExecutionResult {
  return {
    tool_call_id: toolCallId,
    content,
    status: 'success',
    directive: 'continue',
    error_code: null,
    metadata: {},
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const STATUSES: readonly string[] = ['success', 'error', 'wait_response', 'running', 'pending_compress'];
const DIRECTIVES: readonly string[] = ['continue', 'finish', 'wait_user'];

function isWellFormedResult(result: unknown): boolean {
  return (
    isPlainObject(result) &&
    typeof result.content === 'string' &&
    STATUSES.includes(result.status as string) &&
    DIRECTIVES.includes(result.directive as string)
  );
}

/** Maps a handler's ToolOutput to the result the model sees; null when the output is malformed. */
export function resultFromOutput(toolCallId: string, output: ToolOutput): ToolExecutionResult | null {
  if (!isPlainObject(output)) return null;
  switch (output.type) {
    case 'text':
      return typeof output.text === 'string' ? success(toolCallId, output.text) : null;
    case 'json':
      return success(toolCallId, JSON.stringify(output.value) ?? 'null');
    case 'error': {
      const code = output.code ?? 'tool_error';
      const content = JSON.stringify({
        ok: false,
        error: String(output.message),
        error_code: code,
        retryable: output.retryable ?? false,
      });
      return {
        tool_call_id: toolCallId,
        content,
        status: 'error',
        directive: 'continue',
        error_code: code,
        metadata: {},
      };
    }
    case 'result':
      if (!isWellFormedResult(output.result)) return null;
      return {
        ...output.result,
        tool_call_id: toolCallId,
        error_code: output.result.error_code ?? null,
        metadata: output.result.metadata ?? {},
      };
    default:
      return null;
  }
}

/** The content cut to at most 4 096 UTF-8 bytes at a code point boundary. */
export function outputPreview(content: string): { preview: string; truncated: boolean } {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length <= OUTPUT_PREVIEW_MAX_BYTES) return { preview: content, truncated: false };
  let end = OUTPUT_PREVIEW_MAX_BYTES;
  // Back off continuation bytes (10xxxxxx) so the cut never splits a code point.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return { preview: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const members = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The recovery line appended to a truncated result's tool message. */
export function recoveryLine(result: ToolExecutionResult): string {
  const recovery: Record<string, unknown> = {
    original_bytes: result.original_bytes ?? null,
    truncated: true,
    truncation_reason: result.truncation_reason ?? null,
    visible_bytes: result.visible_bytes ?? null,
  };
  if (result.artifact) recovery.artifact = result.artifact;
  if (result.cursor) recovery.cursor = result.cursor;
  return canonicalJson({ vv_agent_recovery: recovery });
}

export function toolMessage(result: ToolExecutionResult): ToolMessage {
  const content = result.truncated ? `${result.content}\n${recoveryLine(result)}` : result.content;
  return { role: 'tool', tool_call_id: result.tool_call_id, content };
}
