/**
 * The approval step of one tool call (docs/spec/runtime.md §8.5; pipeline step 7 of §9.6): the tool
 * pipeline asks approvals (policy, broker, provider) and turns the answer into a tool result.
 */
import { newId } from '../ids';
import type { RegisteredTool } from './tool-registry';
import type { DecodedToolCall } from './tool-call-decoder';
import { failureResult, OPERATION_CANCELLED } from './tool-result';
import type { ToolRunScope } from './tool-run-scope';
import type { ToolContext, ToolExecutionResult } from './types';
import { APPROVAL_TIMEOUT_REASON } from '../approvals/approval-broker';
import { requiresApproval } from '../approvals/approval-policy';
import type { ApprovalDecision, ApprovalRequest } from '../approvals/types';
import { causeMessage } from '../cause-message';
import { untilAborted } from '../until-aborted';
import { sandboxReport } from '../sandbox/run-sandbox';

export type ApprovalVerdict =
  | { kind: 'execute' }
  /** The call ends without running; `runFailure` fails the whole run (provider error). */
  | { kind: 'rejected'; result: ToolExecutionResult; runFailure: string | null };

function buildRequest(
  scope: ToolRunScope,
  tool: RegisteredTool,
  call: DecodedToolCall,
  cycleIndex: number,
): ApprovalRequest {
  return {
    requestId: newId('approval_'),
    runId: scope.runId,
    traceId: scope.traceId,
    agentName: scope.agentName,
    cycleIndex,
    toolCallId: call.id,
    toolName: call.name,
    arguments: call.arguments,
    preview: `${call.name} ${JSON.stringify(call.arguments)}`,
    metadata: { ...scope.metadata },
    // docs/spec/sandbox.md §4: a dialog can say "runs sandboxed, no network".
    ...(tool.definition.sandboxed === true && scope.sandbox !== null
      ? { sandbox: sandboxReport(scope.sandbox) }
      : {}),
  };
}

/** Resolves with the provider's answer, or null once the run is cancelled first. */
function decideUnlessCancelled(
  scope: ToolRunScope,
  request: ApprovalRequest,
): Promise<ApprovalDecision | null> {
  const decision = Promise.resolve().then(() => scope.approval.provider?.decide(request) ?? null);
  return untilAborted(decision, scope.signal);
}

function providerFailure(call: DecodedToolCall, error: unknown): ApprovalVerdict {
  return {
    kind: 'rejected',
    result: failureResult(call.id, 'approval_provider_error', 'Approval provider failed.'),
    runFailure: causeMessage(error),
  };
}

function verdictFor(scope: ToolRunScope, call: DecodedToolCall, decision: ApprovalDecision): ApprovalVerdict {
  if (scope.isCancelled()) {
    return {
      kind: 'rejected',
      result: failureResult(call.id, 'tool_execution_cancelled', OPERATION_CANCELLED),
      runFailure: null,
    };
  }
  const reason = decision.reason ?? '';
  const extra = { tool_name: call.name };
  switch (decision.action) {
    case 'allow':
    case 'allow_session':
      return { kind: 'execute' };
    case 'deny': {
      const message = reason || `Approval denied for tool ${call.name}.`;
      return {
        kind: 'rejected',
        result: failureResult(call.id, 'tool_approval_denied', message, extra),
        runFailure: null,
      };
    }
    default: {
      const message = reason || APPROVAL_TIMEOUT_REASON;
      return {
        kind: 'rejected',
        result: failureResult(call.id, 'tool_approval_timeout', message, extra),
        runFailure: null,
      };
    }
  }
}

export async function approveToolCall(
  scope: ToolRunScope,
  tool: RegisteredTool,
  call: DecodedToolCall,
  ctx: ToolContext,
  cycleIndex: number,
): Promise<ApprovalVerdict> {
  const declaration = {
    needsApproval: tool.definition.needsApproval,
    toolMetadata: tool.toolMetadata ?? undefined,
    approvalOverride: tool.definition.approvalOverride,
  };
  if (!requiresApproval(declaration, call.arguments, scope.approval.policy, ctx)) return { kind: 'execute' };
  const { provider, broker } = scope.approval;
  if (!provider) {
    const message = `Approval required for tool ${call.name}.`;
    return {
      kind: 'rejected',
      result: failureResult(call.id, 'tool_approval_required', message),
      runFailure: null,
    };
  }
  const request = buildRequest(scope, tool, call, cycleIndex);
  try {
    if (broker.allowsToolForSession(call.name) || !provider.shouldRequest(request))
      return { kind: 'execute' };
  } catch (error) {
    return providerFailure(call, error);
  }

  broker.register(request);
  await scope.sink.emit(
    {
      type: 'approval_requested',
      request_id: request.requestId,
      tool_call_id: call.id,
      tool_name: call.name,
      message: `Approval required for tool ${call.name}.`,
      ...(request.sandbox !== undefined ? { sandbox: request.sandbox } : {}),
    },
    { arguments: call.arguments, tool_name: call.name },
  );

  let answer: ApprovalDecision | null;
  try {
    answer = await decideUnlessCancelled(scope, request);
  } catch (error) {
    broker.discard(request.requestId);
    return providerFailure(call, error);
  }
  if (answer && broker.pendingRequest(request.requestId)) broker.resolve(request.requestId, answer);

  const decision = await broker.wait(request.requestId, scope.approval.timeoutMs);
  await scope.sink.emit(
    {
      type: 'approval_resolved',
      request_id: request.requestId,
      tool_call_id: call.id,
      tool_name: call.name,
      action: decision.action,
    },
    { reason: decision.reason ?? '', decision_metadata: decision.metadata ?? {} },
  );
  return verdictFor(scope, call, decision);
}
