/** The per-call pipeline, steps 1–9 of docs/spec/runtime.md §9.6 (step 0 and step 10 belong to the batch). */
import { approveToolCall } from './tool-approval';
import type { DecodedToolCall } from './tool-call-decoder';
import { executeTool } from './tool-execution';
import { policyAllows, type RegisteredTool } from './tool-registry';
import { failureResult, outputPreview } from './tool-result';
import { toolContext, type ToolRunScope } from './tool-run-scope';
import type { ToolExecutionResult, ToolMetadata } from './types';

export interface CallReport {
  result: ToolExecutionResult;
  /** Set when the call fails the whole run (approval provider error). */
  runFailure: string | null;
}

const SCHEMA_MISMATCH = 'Tool arguments do not match the declared schema';

function metadataField(metadata: ToolMetadata | null): { tool_metadata?: ToolMetadata } {
  return metadata ? { tool_metadata: metadata } : {};
}

async function emitCompleted(
  scope: ToolRunScope,
  call: DecodedToolCall,
  tool: RegisteredTool | undefined,
  result: ToolExecutionResult,
  durationMs: number | null,
): Promise<void> {
  const { preview, truncated } = outputPreview(result.content);
  await scope.sink.emit({
    type: 'tool_call_completed',
    tool_call_id: call.id,
    tool_name: call.name,
    status: result.status,
    directive: result.directive,
    error_code: result.error_code,
    execution_started: durationMs !== null,
    duration_ms: durationMs,
    ...metadataField(tool?.toolMetadata ?? null),
    output_preview: preview,
    output_truncated: truncated,
    ...(result.sandbox !== undefined ? { sandbox: result.sandbox } : {}),
  });
}

/** A call that ends before execution, after `tool_call_planned`. */
async function rejectPlanned(
  scope: ToolRunScope,
  call: DecodedToolCall,
  tool: RegisteredTool | undefined,
  result: ToolExecutionResult,
  runFailure: string | null = null,
): Promise<CallReport> {
  await emitCompleted(scope, call, tool, result, null);
  return { result, runFailure };
}

function notAllowed(call: DecodedToolCall): ToolExecutionResult {
  const message = `Tool ${call.name} is not allowed for these arguments.`;
  return failureResult(call.id, 'tool_not_allowed', message, { tool_name: call.name });
}

async function emitPlanned(
  scope: ToolRunScope,
  call: DecodedToolCall,
  tool: RegisteredTool | undefined,
): Promise<void> {
  await scope.sink.emit({
    type: 'tool_call_planned',
    tool_call_id: call.id,
    tool_name: call.name,
    arguments: call.arguments,
    ...metadataField(tool?.toolMetadata ?? null),
  });
}

export async function runToolCall(
  scope: ToolRunScope,
  call: DecodedToolCall,
  cycleIndex: number,
): Promise<CallReport> {
  const tool = scope.registry.get(call.name);

  if (scope.hasQueuedSteering()) {
    await emitPlanned(scope, call, tool);
    const skipped = failureResult(
      call.id,
      'skipped_due_to_steering',
      'Tool skipped due to queued steering message.',
    );
    return rejectPlanned(scope, call, tool, skipped);
  }
  if (call.argumentError) {
    // Raw-argument errors have no lifecycle events; the batch reports them as a diagnostic only.
    return {
      result: failureResult(call.id, call.argumentError.code, call.argumentError.message),
      runFailure: null,
    };
  }

  await emitPlanned(scope, call, tool);

  if (tool) {
    const issues = tool.validate(call.arguments);
    if (issues.length > 0) {
      const result = failureResult(call.id, 'invalid_tool_arguments', SCHEMA_MISMATCH, { issues });
      return rejectPlanned(scope, call, tool, result);
    }
  }
  if (!policyAllows(call.name, scope.toolPolicy) || !tool || !scope.visibleTools.has(call.name)) {
    return rejectPlanned(scope, call, tool, notAllowed(call));
  }

  const baseContext = toolContext(scope, call.id, call.name, scope.signal);
  const verdict = await approveToolCall(scope, tool, call, baseContext, cycleIndex);
  if (verdict.kind === 'rejected')
    return rejectPlanned(scope, call, tool, verdict.result, verdict.runFailure);

  await scope.sink.emit({
    type: 'tool_call_started',
    tool_call_id: call.id,
    tool_name: call.name,
    arguments: call.arguments,
    ...metadataField(tool.toolMetadata),
  });
  const { signal: _runSignal, ...base } = baseContext;
  const carrier = scope.spans?.toolCarrier(call.id);
  const ctx = carrier?.traceparent === undefined ? base : { ...base, traceContext: carrier };
  const execution = await executeTool(tool, ctx, call.arguments, scope.signal);
  await emitCompleted(scope, call, tool, execution.result, execution.durationMs);
  return { result: execution.result, runFailure: null };
}
