/**
 * The OpenTelemetry SDK as docs/spec/observability.md §1 configures it: a resource from
 * `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES`, the sampler from `OTEL_TRACES_SAMPLER`(`_ARG`),
 * batched OTLP/HTTP span export, periodic OTLP/HTTP metric export and the Prometheus reader for
 * `--metrics-listen` — all from the official packages; the exporters read their own
 * `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers, timeout).
 */
import { diag } from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { ObservabilitySettings } from './observability-settings';
import { OtelTelemetry } from './otel-telemetry';

const SERVICE_NAME = 'vv-agent-app-server';
const SCOPE = 'vv-agent-app-server';
/** Bounded so that a dead collector cannot hold up the exit of a stopping server. */
const SHUTDOWN_BUDGET_MS = 2_000;

type Environment = Readonly<Record<string, string | undefined>>;

function ratio(arg: string | undefined): number {
  const value = Number(arg);
  return arg !== undefined && Number.isFinite(value) && value >= 0 && value <= 1 ? value : 1;
}

/** The SDK environment spec's sampler names; an unknown name falls back to its default. */
export function samplerFromEnv(env: Environment): Sampler {
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  switch (env.OTEL_TRACES_SAMPLER?.trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio(arg));
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio(arg)) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

async function withinBudget(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SHUTDOWN_BUDGET_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

export interface OtelSdk {
  telemetry: OtelTelemetry;
  /** The reader behind `GET /metrics`; null without `--metrics-listen`. */
  prometheus: PrometheusExporter | null;
}

export function startOtelSdk(
  settings: ObservabilitySettings,
  env: Environment,
  context: { transport: string; version: string },
): OtelSdk {
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME, [ATTR_SERVICE_VERSION]: context.version }),
    )
    .merge(detectResources({ detectors: [envDetector] }));

  const json = settings.protocol === 'http/json';
  const tracerProvider = settings.traces
    ? new TracerProvider({
        resource,
        sampler: samplerFromEnv(env),
        spanProcessors: [
          new BatchSpanProcessor({
            exporter: json ? new JsonTraceExporter() : new ProtoTraceExporter(),
            ...(Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0
              ? { scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) }
              : {}),
          }),
        ],
      })
    : null;

  const readers: IMetricReader[] = [];
  if (settings.otlpMetrics) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: json ? new JsonMetricExporter() : new ProtoMetricExporter(),
        exportIntervalMillis:
          Number(env.OTEL_METRIC_EXPORT_INTERVAL) > 0 ? Number(env.OTEL_METRIC_EXPORT_INTERVAL) : 60_000,
      }),
    );
  }
  const prometheus =
    settings.metricsListen === null ? null : new PrometheusExporter({ preventServerStart: true });
  if (prometheus !== null) readers.push(prometheus);
  const meterProvider = new MeterProvider({ resource, readers });

  const shutdown = async (): Promise<void> => {
    await withinBudget(Promise.all([tracerProvider?.shutdown(), meterProvider.shutdown()]));
    diag.disable();
  };
  const telemetry = new OtelTelemetry({
    tracer: tracerProvider?.getTracer(SCOPE, context.version) ?? null,
    meter: meterProvider.getMeter(SCOPE, context.version),
    captureContent: settings.captureContent,
    transport: context.transport,
    shutdown,
  });
  return { telemetry, prometheus };
}
