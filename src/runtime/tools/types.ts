/** Tool definitions, results and typed metadata (docs/spec/runtime.md §9). */
import type { RunSandbox } from '../sandbox/run-sandbox';
import type { SandboxReport } from '../sandbox/sandbox-mode';
import type { TraceCarrier } from '../telemetry/telemetry';
import type { ToolDirective, ToolStatus } from '../events/types';
import type { ToolMetadataInput } from '../tool-metadata/types';

/*
 * Part of the tool contract, declared lower down because the RunEvent wire and the approval policy
 * carry them too; re-exported so the contract stays one import.
 */
export type { ToolDirective, ToolStatus } from '../events/types';
export type {
  ToolIdempotency,
  ToolMetadata,
  ToolMetadataInput,
  ToolSideEffect,
} from '../tool-metadata/types';

export interface ToolArtifact {
  path: string;
  media_type: string;
  encoding: string;
  size_bytes: number;
  sha256: string;
}

export interface ReadCursor {
  kind: 'read_file';
  path: string;
  offset_chars: number;
  sha256: string;
}

/** docs/spec/runtime.md §9.7. */
export interface ToolExecutionResult {
  tool_call_id: string;
  content: string;
  status: ToolStatus;
  directive: ToolDirective;
  error_code: string | null;
  metadata: Record<string, unknown>;
  truncated?: boolean;
  truncation_reason?: 'output_limit' | 'read_limit';
  artifact?: ToolArtifact;
  cursor?: ReadCursor;
  original_bytes?: number;
  visible_bytes?: number;
  /** docs/spec/sandbox.md §4: set by a call that ran inside the OS sandbox. */
  sandbox?: SandboxReport;
}

export type ToolOutput =
  | { type: 'text'; text: string }
  | { type: 'json'; value: unknown }
  | { type: 'error'; message: string; code?: string; retryable?: boolean }
  | { type: 'result'; result: Omit<ToolExecutionResult, 'tool_call_id'> };
export interface ToolContext {
  runId: string;
  agentName: string;
  toolCallId: string;
  toolName: string;
  /** Absolute workspace root. */
  workspace: string;
  metadata: Record<string, unknown>;
  /** Per run, mutable: `todo_list`, file baselines. */
  sharedState: Record<string, unknown>;
  /** Aborted on run cancellation. */
  signal: AbortSignal;
  /** docs/spec/sandbox.md §1: the run's sandbox; absent = none configured (no restriction). */
  sandbox?: RunSandbox;
  /**
   * The W3C trace context of this call's `execute_tool` span, for a tool that calls another process
   * (MCP `_meta`, docs/spec/observability.md §2); absent when tracing is off.
   */
  traceContext?: TraceCarrier;
}

export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema draft 2020-12; default `{"type":"object","properties":{},"required":[]}`. */
  parameters?: JsonSchema;
  toolMetadata?: ToolMetadataInput;
  needsApproval?: boolean | ((args: Record<string, unknown>, ctx: ToolContext) => boolean);
  /**
   * Decides approval regardless of the run's policy, `never` included: `always` asks, `never` does
   * not (an MCP server's `"approval"` setting, docs/spec/mcp.md §4). Absent: the §8.1 rule.
   */
  approvalOverride?: 'always' | 'never';
  /** > 0 */
  timeoutMs?: number;
  /** Generic metadata; never promoted to toolMetadata. */
  metadata?: Record<string, unknown>;
  /**
   * `false`: `parameters` is shown to the model but arguments are not validated against it (a
   * schema from elsewhere, e.g. an MCP server's, that the runtime's validator cannot compile).
   */
  validateArguments?: boolean;
  /**
   * The handler runs its work inside the run's command sandbox (`bash`): its approval request
   * carries the sandbox report (docs/spec/sandbox.md §4).
   */
  sandboxed?: boolean;
  handler(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput>;
}

export const BUILTIN_TOOL_NAMES = [
  'find_files',
  'file_info',
  'read_file',
  'write_file',
  'edit_file',
  'search_files',
  'todo_write',
  'bash',
] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export interface ToolPolicy {
  allowedTools?: string[];
  disallowedTools?: string[];
}
