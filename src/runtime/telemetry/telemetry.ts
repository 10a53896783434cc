/**
 * The telemetry port (docs/spec/observability.md): spans and the §3 instruments, in the runtime's own
 * small vocabulary so that nothing here — nor any caller — imports OpenTelemetry. The process
 * installs an implementation only when telemetry is switched on (§1 "nothing loaded when off");
 * until then every call goes to the no-op below, which costs a property read and a call.
 */
import type { CounterName, HistogramName } from './instruments';

export type TelemetryAttributeValue = string | number | boolean | readonly string[];
/** `undefined` members are left out, so callers can write optional attributes inline. */
export type TelemetryAttributes = Readonly<Record<string, TelemetryAttributeValue | undefined>>;
export type TelemetrySpanKind = 'internal' | 'server' | 'client';

/** A W3C trace-context carrier (`traceparent`, `tracestate`), as MCP's `_meta` convention spells it. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export interface TelemetrySpan {
  /** A span started now under this one. */
  child(name: string, kind: TelemetrySpanKind, attributes?: TelemetryAttributes): TelemetrySpan;
  setAttributes(attributes: TelemetryAttributes): void;
  /** Marks the span failed: `error.type` and an error status. */
  fail(errorType: string): void;
  /** Idempotent: the first call ends the span. */
  end(): void;
  /** This span as a carrier for another process (`{}` when not recording). */
  carrier(): TraceCarrier;
  /** For log lines; undefined when not recording. */
  ids(): { traceId: string; spanId: string } | undefined;
}

export interface Telemetry {
  /** False only for the no-op: something records spans or metrics. */
  readonly enabled: boolean;
  /** Whether spans are recorded (false for the no-op; metrics may still be on). */
  readonly tracing: boolean;
  /** `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` (docs/spec/observability.md §2). */
  readonly captureContent: boolean;
  /** The process's transport, for `vv_agent.transport` (one server process serves one). */
  readonly transport: string;
  /** A span under `parent` (a remote context), or a root span when it carries none. */
  startSpan(
    name: string,
    kind: TelemetrySpanKind,
    attributes?: TelemetryAttributes,
    parent?: TraceCarrier,
  ): TelemetrySpan;
  /** The span `withSpan` made current for this async flow (NOOP_SPAN when none). */
  activeSpan(): TelemetrySpan;
  /** Runs `fn` with `span` current, for code far from the span's creator (a forwarded request). */
  withSpan<T>(span: TelemetrySpan, fn: () => T): T;
  add(instrument: CounterName, value: number, attributes?: TelemetryAttributes): void;
  record(instrument: HistogramName, value: number, attributes?: TelemetryAttributes): void;
  /** Flushes and stops the exporters; bounded, never throws. */
  shutdown(): Promise<void>;
}

class NoopSpan implements TelemetrySpan {
  child(): TelemetrySpan {
    return this;
  }
  setAttributes(): void {}
  fail(): void {}
  end(): void {}
  carrier(): TraceCarrier {
    return {};
  }
  ids(): undefined {
    return undefined;
  }
}

export const NOOP_SPAN: TelemetrySpan = new NoopSpan();

export const NOOP_TELEMETRY: Telemetry = {
  enabled: false,
  tracing: false,
  captureContent: false,
  transport: 'in-process',
  startSpan: () => NOOP_SPAN,
  activeSpan: () => NOOP_SPAN,
  withSpan: (_span, fn) => fn(),
  add: () => undefined,
  record: () => undefined,
  shutdown: async () => undefined,
};
