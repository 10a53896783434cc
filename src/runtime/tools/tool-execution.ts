/** Running a tool handler: timeout, abort signal, output mapping and duration (§9.1, §9.6 step 8). */
import { performance } from 'node:perf_hooks';
import type { RegisteredTool } from './tool-registry';
import { failureResult, OPERATION_CANCELLED, resultFromOutput } from './tool-result';
import type { ToolContext, ToolExecutionResult, ToolOutput } from './types';
import { causeMessage } from '../cause-message';

export interface ToolExecution {
  result: ToolExecutionResult;
  durationMs: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Runs the handler with a signal that aborts on run cancellation and on timeout. A handler that
 * ignores the signal is still awaited after cancellation (the run waits until it stops).
 */
export async function executeTool(
  tool: RegisteredTool,
  ctx: Omit<ToolContext, 'signal'>,
  args: Record<string, unknown>,
  runSignal: AbortSignal,
): Promise<ToolExecution> {
  const controller = new AbortController();
  const abortFromRun = (): void => controller.abort(runSignal.reason);
  if (runSignal.aborted) controller.abort(runSignal.reason);
  else runSignal.addEventListener('abort', abortFromRun, { once: true });

  const { definition } = tool;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const running = Promise.resolve().then(() =>
    definition.handler({ ...ctx, signal: controller.signal }, args),
  );
  const timeoutMs = definition.timeoutMs ?? 0;
  const timedOut =
    timeoutMs > 0
      ? new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
        })
      : null;

  let result: ToolExecutionResult;
  try {
    const output: ToolOutput | typeof TIMED_OUT = await (timedOut
      ? Promise.race([running, timedOut])
      : running);
    if (output === TIMED_OUT) {
      controller.abort(new Error('tool timed out'));
      running.catch(() => undefined);
      const message = `Tool ${definition.name} timed out after ${timeoutMs / 1000} seconds.`;
      result = failureResult(ctx.toolCallId, 'tool_timeout', message);
    } else {
      result =
        resultFromOutput(ctx.toolCallId, output) ??
        failureResult(
          ctx.toolCallId,
          'tool_execution_failed',
          `Tool execution failed (${definition.name}): invalid tool output`,
        );
    }
  } catch (error) {
    result = runSignal.aborted
      ? failureResult(ctx.toolCallId, 'tool_execution_cancelled', OPERATION_CANCELLED)
      : failureResult(
          ctx.toolCallId,
          'tool_execution_failed',
          `Tool execution failed (${definition.name}): ${causeMessage(error)}`,
        );
  } finally {
    if (timer) clearTimeout(timer);
    runSignal.removeEventListener('abort', abortFromRun);
  }
  return { result, durationMs: Math.max(0, Math.round(performance.now() - started)) };
}
