/** One assistant message's tool calls, sequentially in model order (docs/spec/runtime.md §9.6 steps 0 and 10). */
import type { ToolMessage } from '../messages';
import type { DecodedToolCall } from './tool-call-decoder';
import { runToolCall } from './tool-pipeline';
import { failureResult, outputPreview, toolMessage } from './tool-result';
import type { ToolRunScope } from './tool-run-scope';
import type { ToolExecutionResult } from './types';

export interface BatchDirective {
  kind: 'finish' | 'wait_user';
  toolName: string;
  result: ToolExecutionResult;
}

export interface BatchReport {
  /** The first finish / wait_user directive of the batch. */
  directive: BatchDirective | null;
  /** The batch stopped at step 0 because the run was cancelled. */
  cancelled: boolean;
  /** An approval provider error that fails the run. */
  runFailure: string | null;
}

function skippedAfterDirective(call: DecodedToolCall, directive: BatchDirective): ToolExecutionResult {
  return directive.kind === 'finish'
    ? failureResult(
        call.id,
        'skipped_due_to_finish',
        'Tool skipped because a previous tool finished the task.',
      )
    : failureResult(
        call.id,
        'skipped_due_to_wait_user',
        'Tool skipped because a previous tool requested user input.',
      );
}

async function reportResult(
  scope: ToolRunScope,
  call: DecodedToolCall,
  result: ToolExecutionResult,
): Promise<void> {
  await scope.sink.emit({
    type: 'diagnostic',
    level: 'info',
    code: 'tool_result',
    details: {
      tool_name: call.name,
      tool_call_id: call.id,
      status: result.status,
      directive: result.directive,
      error_code: result.error_code,
      content_preview: outputPreview(result.content).preview,
    },
  });
}

export async function runToolBatch(
  scope: ToolRunScope,
  calls: readonly DecodedToolCall[],
  cycleIndex: number,
  appendToolMessage: (message: ToolMessage) => void,
): Promise<BatchReport> {
  let directive: BatchDirective | null = null;
  for (const call of calls) {
    if (directive) {
      const skipped = skippedAfterDirective(call, directive);
      await reportResult(scope, call, skipped);
      appendToolMessage(toolMessage(skipped));
      continue;
    }
    if (scope.isCancelled()) return { directive, cancelled: true, runFailure: null };
    const report = await runToolCall(scope, call, cycleIndex);
    await reportResult(scope, call, report.result);
    appendToolMessage(toolMessage(report.result));
    if (report.runFailure !== null) return { directive, cancelled: false, runFailure: report.runFailure };
    if (report.result.directive === 'finish' || report.result.directive === 'wait_user') {
      directive = { kind: report.result.directive, toolName: call.name, result: report.result };
    }
  }
  return { directive, cancelled: false, runFailure: null };
}
