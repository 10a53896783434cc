/** The cycle loop (docs/spec/runtime.md §11): one model call plus its tool batch per cycle. */
import { firstCodePoints } from './code-points';
import type { AutoCompaction } from './compaction/auto-compaction';
import type { Conversation } from './conversation';
import type { RunEventSink } from './events/run-event-sink';
import type { AssistantMessage } from './messages';
import { performModelCall, type ModelCallSetup } from './model/model-call';
import type { LlmResponse } from './model/types';
import type { NoToolPolicy } from './run-config';
import {
  cancelledOutcome,
  failedOutcome,
  maxCyclesOutcome,
  noToolFinishOutcome,
  noToolWaitUserOutcome,
  toolFinishOutcome,
  toolWaitUserOutcome,
  type RunOutcome,
} from './run-outcome';
import type { SteeringQueue } from './steering-queue';
import { runToolBatch, type BatchDirective } from './tools/tool-batch';
import { decodeToolCall, type DecodedToolCall } from './tools/tool-call-decoder';
import type { ToolRunScope } from './tools/tool-run-scope';

export const CONTINUE_HINT = 'Continue. If the task is complete, call task_finish.';
const ASSISTANT_PREVIEW_CHARS = 200;

export interface CycleRun {
  maxCycles: number;
  noToolPolicy: NoToolPolicy;
  conversation: Conversation;
  sink: RunEventSink;
  model: ModelCallSetup;
  tools: ToolRunScope;
  /** Adopts a changed dynamic tool list (docs/spec/mcp.md §2 `tools/list_changed`) before a model call. */
  refreshTools(): Promise<void>;
  steering: SteeringQueue;
  /** Compacts the conversation before a model call when it nears the context length. */
  compaction: AutoCompaction;
  /** The accepted cancel reason, or null while the run is not cancelled. */
  cancelReason(): string | null;
}

function assistantMessage(response: LlmResponse, calls: DecodedToolCall[]): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: response.content ?? '' };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      // docs/spec/runtime.md §14.1: compact JSON of the decoded arguments — `{}` for undecodable ones (§9.5),
      // so a provider that parses the history never meets the model's broken text again.
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  if (response.reasoningContent) message.reasoning_content = response.reasoningContent;
  return message;
}

function jsonMessage(content: string): string | null {
  try {
    const parsed: unknown = JSON.parse(content);
    const message = (parsed as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : null;
  } catch {
    return null;
  }
}

function directiveOutcome(directive: BatchDirective, run: CycleRun): RunOutcome {
  const { result, toolName } = directive;
  if (directive.kind === 'finish') {
    const finalMessage = result.metadata.final_message;
    const answer =
      typeof finalMessage === 'string' ? finalMessage : (jsonMessage(result.content) ?? result.content);
    return toolFinishOutcome(toolName, answer);
  }
  const question = result.metadata.question;
  const reason = typeof question === 'string' ? question : result.content;
  return toolWaitUserOutcome(toolName, reason, run.conversation.lastAssistantText());
}

class CycleLoop {
  constructor(private readonly run: CycleRun) {}

  async execute(): Promise<RunOutcome> {
    const { run } = this;
    for (let cycle = 1; cycle <= run.maxCycles; cycle += 1) {
      const outcome = await this.cycle(cycle);
      if (outcome) return outcome;
    }
    return this.maxCycles();
  }

  /** One cycle; null means "go on with the next cycle". */
  private async cycle(cycle: number): Promise<RunOutcome | null> {
    const { run } = this;
    if (run.cancelReason() !== null) return this.cancelled();
    run.sink.cycleIndex = cycle;
    await run.sink.emit({ type: 'cycle_started', cycle_index: cycle });
    await this.deliverSteering(cycle);
    await run.refreshTools();
    // A cancel while the tools got ready (an MCP server still starting) ends the run here.
    if (run.cancelReason() !== null) return this.cancelled();
    if ((await run.compaction.beforeModelCall(cycle)) === 'cancelled') return this.cancelled();

    const input = run.conversation.modelInput();
    const call = await performModelCall(run.model, cycle, input);
    if (!call.ok) {
      if (call.cancelled && run.cancelReason() !== null) return this.cancelled();
      return failedOutcome(call.error, run.conversation.lastAssistantText());
    }
    run.compaction.afterModelCall(input.length, call.response.usage);
    const calls = (call.response.toolCalls ?? []).map(decodeToolCall);
    const message = assistantMessage(call.response, calls);
    run.conversation.append(message);
    await this.reportResponse(message, calls, call.response.finishReason);
    if (run.cancelReason() !== null) return this.cancelled();

    if (calls.length === 0) return this.withoutToolCalls(cycle, message.content);

    // The response's last deltas are on their way to the host in queued callbacks; tool work (a
    // schema's first compile alone can take 20 ms) would hold them back if it ran first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const batch = await runToolBatch(run.tools, calls, cycle, (toolMessage) =>
      run.conversation.append(toolMessage),
    );
    if (batch.directive) return directiveOutcome(batch.directive, run);
    if (batch.runFailure !== null)
      return failedOutcome(batch.runFailure, run.conversation.lastAssistantText());
    if (batch.cancelled) return this.cancelled();
    return cycle >= run.maxCycles ? this.maxCycles() : null;
  }

  private async deliverSteering(cycle: number): Promise<void> {
    for (const entry of this.run.steering.drain()) {
      this.run.conversation.append({ role: 'user', content: entry.text }, { turnInput: true });
      await this.run.sink.emit({
        type: 'steer_applied',
        steer_id: entry.steerId,
        input: entry.text,
        cycle_index: cycle,
      });
    }
  }

  private async withoutToolCalls(cycle: number, content: string): Promise<RunOutcome | null> {
    const { run } = this;
    const isLastCycle = cycle >= run.maxCycles;
    if (run.steering.size > 0) return isLastCycle ? this.maxCycles() : null;
    switch (run.noToolPolicy) {
      case 'finish':
        return noToolFinishOutcome(content);
      case 'wait_user':
        return noToolWaitUserOutcome(content);
      default:
        if (isLastCycle) return this.maxCycles();
        run.conversation.append({ role: 'user', content: CONTINUE_HINT });
        return null;
    }
  }

  private async reportResponse(
    message: AssistantMessage,
    calls: DecodedToolCall[],
    finishReason: string | undefined,
  ): Promise<void> {
    await this.run.sink.emit({
      type: 'diagnostic',
      level: 'info',
      code: 'cycle_llm_response',
      details: {
        assistant_preview: firstCodePoints(message.content, ASSISTANT_PREVIEW_CHARS),
        tool_call_names: calls.map((call) => call.name),
        tool_call_count: calls.length,
        // Not part of model_call_completed's strict field set (§6.2); diagnostics' details are free.
        finish_reason: finishReason ?? null,
      },
    });
  }

  private async maxCycles(): Promise<RunOutcome> {
    await this.run.sink.emit({
      type: 'diagnostic',
      level: 'warning',
      code: 'run_max_cycles',
      details: { max_cycles: this.run.maxCycles },
    });
    return maxCyclesOutcome(this.run.conversation.lastAssistantText());
  }

  private cancelled(): RunOutcome {
    return cancelledOutcome(this.run.cancelReason() ?? '', this.run.conversation.lastAssistantText());
  }
}

export function runCycles(run: CycleRun): Promise<RunOutcome> {
  return new CycleLoop(run).execute();
}
