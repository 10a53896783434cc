/**
 * The spans and metrics of one run, read off its events (docs/spec/observability.md §2, §3): a
 * `chat <model>` span per model call, `execute_tool <tool>` per executed tool call and
 * `vv_agent.approval` from request to resolution, all under the turn's span. Driven by the
 * event sink — the one place every event passes at the moment it happens — so the model call,
 * the tool pipeline and the approval flow need no telemetry code of their own.
 */
import type { RunEventPayload } from '../events/types';
import type { TokenUsage } from '../usage/types';
import { telemetry } from './current-telemetry';
import type { Telemetry, TelemetryAttributes, TelemetrySpan, TraceCarrier } from './telemetry';

/** What a run's caller hands the runtime: the span its spans go under. */
export interface RunTrace {
  readonly parent: TelemetrySpan;
}

/** What the model call knows after a response that its events do not carry. */
export interface ModelResponseFacts {
  finishReason?: string;
  responseModel?: string;
  /**
   * The call's messages and answer, by reference: serialized only with the content opt-in
   * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`, docs/spec/observability.md §2).
   */
  content?: { input: readonly unknown[]; output: unknown };
}

interface OpenModelCall {
  span: TelemetrySpan;
  startedAt: number;
  attributes: TelemetryAttributes;
  facts?: ModelResponseFacts;
}

function seconds(since: number): number {
  return (performance.now() - since) / 1000;
}

/** `host[:port]` of an endpoint's base URL, for `server.address`; undefined when it does not parse. */
export function serverAddressOf(apiBase: string | undefined): string | undefined {
  if (apiBase === undefined) return undefined;
  try {
    return new URL(apiBase).hostname;
  } catch {
    return undefined;
  }
}

export class RunSpans {
  private readonly modelCalls = new Map<string, OpenModelCall>();
  private readonly tools = new Map<string, TelemetrySpan>();
  private readonly approvals = new Map<string, TelemetrySpan>();
  private readonly telemetry: Telemetry = telemetry();

  constructor(
    private readonly trace: RunTrace,
    private readonly serverAddress: string | undefined,
  ) {}

  /** The W3C context of a running tool call, for a tool that calls out (MCP `_meta`, §2). */
  toolCarrier(toolCallId: string): TraceCarrier {
    return this.tools.get(toolCallId)?.carrier() ?? {};
  }

  /** Called by the model call before it emits `model_call_completed`. */
  noteModelResponse(callId: string, facts: ModelResponseFacts): void {
    const open = this.modelCalls.get(callId);
    if (open !== undefined) open.facts = facts;
  }

  observe(event: RunEventPayload): void {
    switch (event.type) {
      case 'model_call_started': {
        const attributes = { 'gen_ai.request.model': event.model, 'gen_ai.provider.name': event.backend };
        const span = this.trace.parent.child(`chat ${event.model}`, 'client', {
          'gen_ai.operation.name': 'chat',
          ...attributes,
          'server.address': this.serverAddress,
          'vv_agent.model_call.operation': event.operation,
        });
        this.modelCalls.set(event.call_id, { span, startedAt: performance.now(), attributes });
        return;
      }
      case 'model_call_completed':
        return this.endModelCall(event.call_id, event.usage, undefined);
      case 'model_call_failed':
        return this.endModelCall(event.call_id, undefined, event.error_code);
      case 'tool_call_started':
        this.tools.set(
          event.tool_call_id,
          this.trace.parent.child(`execute_tool ${event.tool_name}`, 'internal', {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': event.tool_name,
            'gen_ai.tool.call.id': event.tool_call_id,
            'gen_ai.tool.call.arguments': this.telemetry.captureContent
              ? JSON.stringify(event.arguments)
              : undefined,
          }),
        );
        return;
      case 'tool_call_completed': {
        this.telemetry.add('vv_agent.tool.calls', 1, {
          'gen_ai.tool.name': event.tool_name,
          'vv_agent.tool.status': event.status,
        });
        const span = this.tools.get(event.tool_call_id);
        if (span === undefined) return;
        this.tools.delete(event.tool_call_id);
        span.setAttributes({
          'vv_agent.tool.status': event.status,
          'gen_ai.tool.call.result': this.telemetry.captureContent ? event.output_preview : undefined,
        });
        if (event.error_code !== null) span.fail(event.error_code);
        span.end();
        return;
      }
      case 'approval_requested':
        this.telemetry.add('vv_agent.approvals.pending', 1);
        this.approvals.set(
          event.request_id,
          this.trace.parent.child('vv_agent.approval', 'internal', { 'gen_ai.tool.name': event.tool_name }),
        );
        return;
      case 'approval_resolved': {
        const span = this.approvals.get(event.request_id);
        if (span === undefined) return;
        this.telemetry.add('vv_agent.approvals.pending', -1);
        this.approvals.delete(event.request_id);
        span.setAttributes({ 'vv_agent.approval.decision': event.action });
        span.end();
        return;
      }
      case 'run_completed':
      case 'run_failed':
      case 'run_cancelled':
        return this.closeAll();
      default:
        return;
    }
  }

  private endModelCall(callId: string, usage: TokenUsage | undefined, errorType: string | undefined): void {
    const open = this.modelCalls.get(callId);
    if (open === undefined) return;
    this.modelCalls.delete(callId);
    const { span, facts } = open;
    if (this.telemetry.captureContent && facts?.content !== undefined) {
      span.setAttributes({
        'gen_ai.input.messages': JSON.stringify(facts.content.input),
        'gen_ai.output.messages': JSON.stringify([facts.content.output]),
      });
    }
    span.setAttributes({
      'gen_ai.response.model':
        facts?.responseModel ??
        (errorType === undefined ? open.attributes['gen_ai.request.model'] : undefined),
      'gen_ai.response.finish_reasons': facts?.finishReason !== undefined ? [facts.finishReason] : undefined,
      'gen_ai.usage.input_tokens': usage?.input_tokens ?? undefined,
      'gen_ai.usage.output_tokens': usage?.output_tokens ?? undefined,
    });
    if (errorType !== undefined) span.fail(errorType);
    span.end();
    this.telemetry.record('gen_ai.client.operation.duration', seconds(open.startedAt), {
      'gen_ai.request.model': open.attributes['gen_ai.request.model'],
      'error.type': errorType,
    });
    for (const [type, count] of [
      ['input', usage?.input_tokens],
      ['output', usage?.output_tokens],
    ] as const) {
      if (typeof count === 'number')
        this.telemetry.record('gen_ai.client.token.usage', count, {
          ...open.attributes,
          'gen_ai.token.type': type,
        });
    }
  }

  /** A run that ends with calls still open (cancelled mid-call) ends their spans too. */
  private closeAll(): void {
    for (const open of this.modelCalls.values()) open.span.end();
    for (const span of this.tools.values()) span.end();
    for (const span of this.approvals.values()) span.end();
    if (this.approvals.size > 0) this.telemetry.add('vv_agent.approvals.pending', -this.approvals.size);
    this.modelCalls.clear();
    this.tools.clear();
    this.approvals.clear();
  }
}
