/** A run's events → spans and metrics (docs/spec/observability.md §2, §3). */
import { installTelemetry, resetTelemetry } from '../../../../src/runtime/telemetry/current-telemetry';
import { RunSpans, serverAddressOf } from '../../../../src/runtime/telemetry/run-spans';
import {
  NOOP_SPAN,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetrySpan,
  type TelemetrySpanKind,
} from '../../../../src/runtime/telemetry/telemetry';
import type { RunEventPayload } from '../../../../src/runtime/events/types';
import { missingUsage } from '../../../../src/runtime/usage/normalize';

interface RecordedSpan {
  name: string;
  kind: TelemetrySpanKind;
  parent: string | null;
  attributes: Record<string, unknown>;
  errorType?: string;
  ended: boolean;
}

class RecordingTelemetry implements Telemetry {
  readonly enabled = true;
  readonly tracing = true;
  readonly transport = 'stdio';
  readonly spans: RecordedSpan[] = [];
  readonly measurements: Array<{ instrument: string; value: number; attributes?: TelemetryAttributes }> = [];

  constructor(readonly captureContent = false) {}

  startSpan(name: string, kind: TelemetrySpanKind, attributes?: TelemetryAttributes): TelemetrySpan {
    return this.span(name, kind, attributes, null);
  }
  activeSpan(): TelemetrySpan {
    return NOOP_SPAN;
  }
  withSpan<T>(_span: TelemetrySpan, fn: () => T): T {
    return fn();
  }
  add(instrument: string, value: number, attributes?: TelemetryAttributes): void {
    this.measurements.push({ instrument, value, attributes });
  }
  record(instrument: string, value: number, attributes?: TelemetryAttributes): void {
    this.measurements.push({ instrument, value, attributes });
  }
  async shutdown(): Promise<void> {}

  private span(
    name: string,
    kind: TelemetrySpanKind,
    attributes: TelemetryAttributes | undefined,
    parent: string | null,
  ): TelemetrySpan {
    const recorded: RecordedSpan = { name, kind, parent, attributes: { ...attributes }, ended: false };
    this.spans.push(recorded);
    return {
      child: (childName, childKind, childAttributes) =>
        this.span(childName, childKind, childAttributes, name),
      setAttributes: (more) => Object.assign(recorded.attributes, more),
      fail: (errorType) => {
        recorded.errorType = errorType;
      },
      end: () => {
        recorded.ended = true;
      },
      carrier: () => ({ traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` }),
      ids: () => undefined,
    };
  }
}

const MODEL = {
  call_id: 'c1',
  operation_id: 'op',
  attempt: 1,
  operation: 'agent_cycle',
  cycle_index: 1,
  backend: 'local',
  model: 'm-1',
} as const;

function usage(input: number, output: number) {
  return { ...missingUsage(), input_tokens: input, output_tokens: output };
}

describe('RunSpans', () => {
  let recording: RecordingTelemetry;

  function spansFor(events: RunEventPayload[], captureContent = false): RunSpans {
    recording = new RecordingTelemetry(captureContent);
    installTelemetry(recording);
    const spans = new RunSpans(
      { parent: recording.startSpan('invoke_agent vv-agent', 'internal') },
      '127.0.0.1',
    );
    for (const event of events) spans.observe(event);
    return spans;
  }

  afterEach(() => resetTelemetry());

  it('makes a chat span per model call with usage, finish reason and the two token histograms', () => {
    recording = new RecordingTelemetry();
    installTelemetry(recording);
    const spans = new RunSpans(
      { parent: recording.startSpan('invoke_agent vv-agent', 'internal') },
      'api.example',
    );
    spans.observe({ type: 'model_call_started', ...MODEL });
    spans.noteModelResponse('c1', { finishReason: 'tool_calls' });
    spans.observe({ type: 'model_call_completed', ...MODEL, usage: usage(100, 7) });
    const chat = recording.spans.find((span) => span.name === 'chat m-1');
    expect(chat).toMatchObject({
      kind: 'client',
      parent: 'invoke_agent vv-agent',
      ended: true,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'local',
        'gen_ai.request.model': 'm-1',
        'gen_ai.response.model': 'm-1',
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 7,
        'server.address': 'api.example',
      },
    });
    const tokens = recording.measurements.filter((m) => m.instrument === 'gen_ai.client.token.usage');
    expect(tokens.map((m) => [m.value, m.attributes?.['gen_ai.token.type']])).toEqual([
      [100, 'input'],
      [7, 'output'],
    ]);
    expect(recording.measurements.some((m) => m.instrument === 'gen_ai.client.operation.duration')).toBe(
      true,
    );
  });

  it('records the messages of a chat span only with the content opt-in', () => {
    for (const capture of [false, true]) {
      const spans = spansFor([{ type: 'model_call_started', ...MODEL }], capture);
      spans.noteModelResponse('c1', {
        content: {
          input: [{ role: 'user', content: 'the prompt' }],
          output: { role: 'assistant', content: 'the answer' },
        },
      });
      spans.observe({ type: 'model_call_completed', ...MODEL, usage: usage(1, 1) });
      const attributes = recording.spans.find((span) => span.name === 'chat m-1')?.attributes ?? {};
      if (capture) {
        expect(attributes['gen_ai.input.messages']).toBe('[{"role":"user","content":"the prompt"}]');
        expect(attributes['gen_ai.output.messages']).toBe('[{"role":"assistant","content":"the answer"}]');
      } else expect(JSON.stringify(attributes)).not.toMatch(/the prompt|the answer/);
    }
  });

  it('marks a failed model call with error.type', () => {
    spansFor([
      { type: 'model_call_started', ...MODEL },
      {
        type: 'model_call_failed',
        ...MODEL,
        usage: missingUsage(),
        outcome: 'definitive',
        error_code: 'model_request_failed',
      },
    ]);
    expect(recording.spans.find((span) => span.name === 'chat m-1')).toMatchObject({
      errorType: 'model_request_failed',
      ended: true,
    });
    expect(
      recording.measurements.find((m) => m.instrument === 'gen_ai.client.operation.duration')?.attributes,
    ).toMatchObject({
      'error.type': 'model_request_failed',
    });
  });

  it('makes execute_tool and approval spans, counts tool calls and pending approvals, and hands out the tool context', () => {
    const spans = spansFor([
      {
        type: 'approval_requested',
        request_id: 'a1',
        tool_call_id: 't1',
        tool_name: 'bash',
        message: 'run?',
      },
      { type: 'approval_resolved', request_id: 'a1', tool_call_id: 't1', tool_name: 'bash', action: 'allow' },
      { type: 'tool_call_started', tool_call_id: 't1', tool_name: 'bash', arguments: { command: 'secret' } },
    ]);
    expect(spans.toolCarrier('t1').traceparent).toMatch(/^00-/);
    expect(spans.toolCarrier('unknown')).toEqual({});
    spans.observe({
      type: 'tool_call_completed',
      tool_call_id: 't1',
      tool_name: 'bash',
      status: 'error',
      directive: 'continue',
      error_code: 'tool_execution_failed',
      execution_started: true,
      duration_ms: 3,
      output_preview: 'secret output',
    });
    expect(recording.spans.find((span) => span.name === 'vv_agent.approval')).toMatchObject({
      ended: true,
      attributes: { 'gen_ai.tool.name': 'bash', 'vv_agent.approval.decision': 'allow' },
    });
    const tool = recording.spans.find((span) => span.name === 'execute_tool bash');
    expect(tool).toMatchObject({
      ended: true,
      errorType: 'tool_execution_failed',
      attributes: { 'gen_ai.tool.call.id': 't1', 'vv_agent.tool.status': 'error' },
    });
    // No content without the opt-in.
    expect(JSON.stringify(recording.spans)).not.toContain('secret');
    expect(
      recording.measurements.filter((m) => m.instrument === 'vv_agent.approvals.pending').map((m) => m.value),
    ).toEqual([1, -1]);
    expect(recording.measurements.find((m) => m.instrument === 'vv_agent.tool.calls')).toMatchObject({
      value: 1,
      attributes: { 'gen_ai.tool.name': 'bash', 'vv_agent.tool.status': 'error' },
    });
  });

  it('records tool arguments and output preview only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', () => {
    const spans = spansFor(
      [{ type: 'tool_call_started', tool_call_id: 't1', tool_name: 'bash', arguments: { command: 'ls' } }],
      true,
    );
    spans.observe({
      type: 'tool_call_completed',
      tool_call_id: 't1',
      tool_name: 'bash',
      status: 'success',
      directive: 'continue',
      error_code: null,
      execution_started: true,
      duration_ms: 1,
      output_preview: 'a.txt',
    });
    expect(recording.spans.find((span) => span.name === 'execute_tool bash')?.attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"command":"ls"}',
      'gen_ai.tool.call.result': 'a.txt',
    });
  });

  it('ends what is still open when the run ends', () => {
    spansFor([
      { type: 'model_call_started', ...MODEL },
      {
        type: 'approval_requested',
        request_id: 'a1',
        tool_call_id: 't1',
        tool_name: 'bash',
        message: 'run?',
      },
      { type: 'run_cancelled', reason: 'stop' },
    ]);
    expect(
      recording.spans.filter((span) => span.name !== 'invoke_agent vv-agent').every((span) => span.ended),
    ).toBe(true);
    expect(
      recording.measurements.filter((m) => m.instrument === 'vv_agent.approvals.pending').map((m) => m.value),
    ).toEqual([1, -1]);
  });

  it('serverAddressOf takes the host of a base URL', () => {
    expect(serverAddressOf('https://api.example.com:8443/v1')).toBe('api.example.com');
    expect(serverAddressOf('not a url')).toBeUndefined();
    expect(serverAddressOf(undefined)).toBeUndefined();
  });
});
