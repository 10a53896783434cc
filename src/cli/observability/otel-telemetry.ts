/**
 * The telemetry port over the OpenTelemetry API (docs/spec/observability.md §2, §3). Parenting is
 * explicit — every span names its parent span or remote carrier — so no global context manager is
 * registered; `withSpan` keeps one span current across an async flow with its own
 * AsyncLocalStorage. Loaded only when observability is on (load-observability.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type Span,
  type Tracer,
  type UpDownCounter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  INSTRUMENTS,
  type CounterName,
  type HistogramName,
  type InstrumentName,
} from '../../runtime/telemetry/instruments';
import {
  NOOP_SPAN,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetrySpan,
  type TelemetrySpanKind,
  type TraceCarrier,
} from '../../runtime/telemetry/telemetry';

const KINDS: Record<TelemetrySpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
};

const propagator = new W3CTraceContextPropagator();

/**
 * The port's attributes without their undefined members (the API would drop them with a warning).
 * Without any, the object itself: hot paths (the queue depth, once per queued message) pass one
 * constant object, which then costs no copy.
 */
function attributesOf(attributes: TelemetryAttributes | undefined): Attributes | undefined {
  if (attributes === undefined) return undefined;
  let complete = true;
  for (const key in attributes) if (attributes[key] === undefined) complete = false;
  if (complete) return attributes as Attributes;
  const out: Attributes = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value as Attributes[string];
  }
  return out;
}

class OtelSpan implements TelemetrySpan {
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
  ) {}

  child(name: string, kind: TelemetrySpanKind, attributes?: TelemetryAttributes): TelemetrySpan {
    return startOtelSpan(this.tracer, name, kind, attributes, trace.setSpan(ROOT_CONTEXT, this.span));
  }

  setAttributes(attributes: TelemetryAttributes): void {
    const clean = attributesOf(attributes);
    if (clean !== undefined) this.span.setAttributes(clean);
  }

  fail(errorType: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end();
  }

  carrier(): TraceCarrier {
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, this.span), carrier, defaultTextMapSetter);
    return carrier;
  }

  ids(): { traceId: string; spanId: string } | undefined {
    const { traceId, spanId } = this.span.spanContext();
    return { traceId, spanId };
  }
}

function startOtelSpan(
  tracer: Tracer,
  name: string,
  kind: TelemetrySpanKind,
  attributes: TelemetryAttributes | undefined,
  parent: Context,
): OtelSpan {
  return new OtelSpan(
    tracer,
    tracer.startSpan(name, { kind: KINDS[kind], attributes: attributesOf(attributes) }, parent),
  );
}

type AnyInstrument = Histogram | Counter | UpDownCounter;

function createInstruments(meter: Meter): Map<InstrumentName, AnyInstrument> {
  const instruments = new Map<InstrumentName, AnyInstrument>();
  for (const [name, spec] of Object.entries(INSTRUMENTS) as Array<
    [InstrumentName, (typeof INSTRUMENTS)[InstrumentName]]
  >) {
    const options = { unit: spec.unit, description: spec.description };
    if (spec.type === 'histogram') {
      instruments.set(
        name,
        meter.createHistogram(name, {
          ...options,
          advice: 'boundaries' in spec ? { explicitBucketBoundaries: [...spec.boundaries] } : undefined,
        }),
      );
    } else if (spec.type === 'counter') instruments.set(name, meter.createCounter(name, options));
    else instruments.set(name, meter.createUpDownCounter(name, options));
  }
  return instruments;
}

export interface OtelTelemetryInit {
  tracer: Tracer | null;
  meter: Meter;
  captureContent: boolean;
  transport: string;
  shutdown: () => Promise<void>;
}

export class OtelTelemetry implements Telemetry {
  readonly enabled = true;
  readonly tracing: boolean;
  readonly captureContent: boolean;
  readonly transport: string;
  private readonly tracer: Tracer | null;
  private readonly instruments: Map<InstrumentName, AnyInstrument>;
  private readonly active = new AsyncLocalStorage<TelemetrySpan>();
  private readonly stop: () => Promise<void>;

  constructor(init: OtelTelemetryInit) {
    this.tracer = init.tracer;
    this.tracing = init.tracer !== null;
    this.captureContent = init.captureContent;
    this.transport = init.transport;
    this.instruments = createInstruments(init.meter);
    this.stop = init.shutdown;
  }

  startSpan(
    name: string,
    kind: TelemetrySpanKind,
    attributes?: TelemetryAttributes,
    parent?: TraceCarrier,
  ): TelemetrySpan {
    if (this.tracer === null) return NOOP_SPAN;
    const context =
      parent?.traceparent === undefined
        ? ROOT_CONTEXT
        : propagator.extract(ROOT_CONTEXT, parent, defaultTextMapGetter);
    return startOtelSpan(this.tracer, name, kind, attributes, context);
  }

  activeSpan(): TelemetrySpan {
    return this.active.getStore() ?? NOOP_SPAN;
  }

  withSpan<T>(span: TelemetrySpan, fn: () => T): T {
    return this.active.run(span, fn);
  }

  add(instrument: CounterName, value: number, attributes?: TelemetryAttributes): void {
    (this.instruments.get(instrument) as Counter | undefined)?.add(value, attributesOf(attributes));
  }

  record(instrument: HistogramName, value: number, attributes?: TelemetryAttributes): void {
    (this.instruments.get(instrument) as Histogram | undefined)?.record(value, attributesOf(attributes));
  }

  shutdown(): Promise<void> {
    return this.stop();
  }
}
