/** One model call of a cycle: events, stream deltas and the ledger record (docs/spec/runtime.md §6.2, §11.1, §12.3). */
import type { RunEventSink } from '../events/run-event-sink';
import type { Message } from '../messages';
import type { UsageLedger } from '../usage/usage-ledger';
import { missingUsage } from '../usage/normalize';
import type { ModelCallIdentity, ModelCallOperation, ModelCallStatus } from '../usage/types';
import {
  LlmError,
  type LlmClient,
  type LlmResponse,
  type ModelSettings,
  type ResolvedModelConfig,
  type StreamCallbacks,
  type ToolSpec,
} from './types';
import { isPromptTooLong } from './prompt-too-long';
import { codePointLength } from '../code-points';
import type { RunSpans } from '../telemetry/run-spans';

export interface ModelCallSetup {
  sink: RunEventSink;
  client: LlmClient;
  resolved: ResolvedModelConfig;
  settings: ModelSettings;
  tools: ToolSpec[];
  ledger: UsageLedger;
  signal: AbortSignal;
  /** The run's spans (docs/spec/observability.md §2); absent when telemetry is off. */
  spans?: RunSpans;
}

export type ModelCallOutcome =
  { ok: true; response: LlmResponse } | { ok: false; error: string; cancelled: boolean };

type ModelErrorCode = 'model_request_cancelled' | 'prompt_too_long' | 'model_request_failed';

/** Labels a failed call: error code, event outcome and ledger status. */
export function classifyModelError(
  error: unknown,
  aborted: boolean,
): { code: ModelErrorCode; outcome: 'definitive' | 'ambiguous'; status: ModelCallStatus; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const llmError = error instanceof LlmError ? error : null;
  if (aborted || llmError?.code === 'model_request_cancelled') {
    return { code: 'model_request_cancelled', outcome: 'ambiguous', status: 'ambiguous', message };
  }
  if (llmError?.code === 'prompt_too_long' || isPromptTooLong(message)) {
    return { code: 'prompt_too_long', outcome: 'definitive', status: 'failed', message };
  }
  const definitive = llmError?.definitive === true;
  return {
    code: 'model_request_failed',
    outcome: definitive ? 'definitive' : 'ambiguous',
    status: definitive ? 'failed' : 'ambiguous',
    message,
  };
}

/** Stream callbacks → delta events; silenced once the call has settled. */
function streamCallbacks(sink: RunEventSink, cycleIndex: number, isOpen: () => boolean): StreamCallbacks {
  let contentChars = 0;
  let reasoningChars = 0;
  return {
    onContent(fragment) {
      if (!isOpen() || fragment === '') return;
      contentChars += codePointLength(fragment);
      void sink.emit({
        type: 'assistant_delta',
        delta: fragment,
        cycle_index: cycleIndex,
        content_chars: contentChars,
        estimated_tokens: Math.ceil(contentChars / 4),
      });
    },
    onReasoning(fragment) {
      if (!isOpen() || fragment === '') return;
      reasoningChars += codePointLength(fragment);
      void sink.emit({
        type: 'reasoning_delta',
        delta: fragment,
        cycle_index: cycleIndex,
        reasoning_chars: reasoningChars,
        estimated_tokens: Math.ceil(reasoningChars / 4),
      });
    },
    onToolCallNamed(call) {
      if (!isOpen()) return;
      void sink.emit({
        type: 'model_tool_call_started',
        tool_call_id: call.toolCallId,
        tool_name: call.toolName,
        cycle_index: cycleIndex,
        tool_call_index: call.index,
      });
    },
    onToolCallArguments(call) {
      if (!isOpen()) return;
      void sink.emit({
        type: 'model_tool_call_progress',
        tool_call_id: call.toolCallId,
        tool_name: call.toolName,
        cycle_index: cycleIndex,
        tool_call_index: call.index,
        arguments_chars: call.argumentsChars,
        estimated_tokens: Math.ceil(call.argumentsChars / 4),
      });
    },
  };
}

/** Silent callbacks: a compaction summary is not assistant output, so it streams no delta events. */
const SILENT_CALLBACKS: StreamCallbacks = {
  onContent: () => undefined,
  onReasoning: () => undefined,
  onToolCallNamed: () => undefined,
  onToolCallArguments: () => undefined,
};

export interface ModelCallOptions {
  /** Default `agent_cycle`. */
  operation?: ModelCallOperation;
  /** > 1 only for extra agent calls in the same cycle (`_main_2`, …). */
  callNumber?: number;
}

function operationIdOf(cycleIndex: number, options: ModelCallOptions): string {
  if (options.operation === 'context_compaction') return `op_model_cycle_${cycleIndex}_compaction`;
  const callNumber = options.callNumber ?? 1;
  return `op_model_cycle_${cycleIndex}_main${callNumber > 1 ? `_${callNumber}` : ''}`;
}

/** Performs one model call of the cycle: the cycle's own call, or a compaction summary call. */
export async function performModelCall(
  setup: ModelCallSetup,
  cycleIndex: number,
  messages: Message[],
  options: ModelCallOptions = {},
): Promise<ModelCallOutcome> {
  const operationId = operationIdOf(cycleIndex, options);
  const fields: ModelCallIdentity = {
    call_id: `${operationId}:attempt:1`,
    operation_id: operationId,
    attempt: 1,
    operation: options.operation ?? 'agent_cycle',
    cycle_index: cycleIndex,
    backend: setup.resolved.backend,
    model: setup.resolved.model_id,
  };
  await setup.sink.emit({ type: 'model_call_started', ...fields });
  let open = true;
  const callbacks =
    options.operation === 'context_compaction'
      ? SILENT_CALLBACKS
      : streamCallbacks(setup.sink, cycleIndex, () => open);
  const request = { model: setup.resolved, messages, tools: setup.tools, settings: setup.settings };
  try {
    if (setup.signal.aborted) throw new LlmError('llm request cancelled', 'model_request_cancelled');
    const response = await setup.client.complete(request, callbacks, setup.signal);
    open = false;
    setup.spans?.noteModelResponse(fields.call_id, {
      finishReason: response.finishReason,
      content: {
        input: messages,
        output: { role: 'assistant', content: response.content, tool_calls: response.toolCalls },
      },
    });
    setup.ledger.record({ ...fields, status: 'completed', usage: response.usage, error_code: null });
    await setup.sink.emit({ type: 'model_call_completed', ...fields, usage: response.usage });
    return { ok: true, response };
  } catch (error) {
    open = false;
    const failure = classifyModelError(error, setup.signal.aborted);
    const usage = missingUsage();
    setup.ledger.record({ ...fields, status: failure.status, usage, error_code: failure.code });
    await setup.sink.emit({
      type: 'model_call_failed',
      ...fields,
      usage,
      outcome: failure.outcome,
      error_code: failure.code,
    });
    return { ok: false, error: failure.message, cancelled: failure.code === 'model_request_cancelled' };
  }
}
