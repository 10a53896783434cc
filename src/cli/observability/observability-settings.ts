/**
 * What docs/spec/observability.md §1 switches on, read from the standard `OTEL_*` variables and the
 * `--metrics-listen` option. Pure and free of OpenTelemetry: the CLI decides with it whether to load
 * any OpenTelemetry module at all.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface MetricsListen {
  host: string;
  port: number;
}

export interface ObservabilitySettings {
  /** OTLP span export (an endpoint for traces is set). */
  traces: boolean;
  /** OTLP metric export (an endpoint for metrics is set). */
  otlpMetrics: boolean;
  protocol: OtlpProtocol;
  captureContent: boolean;
  /** `--metrics-listen`: Prometheus text on `GET /metrics`, independent of OTLP. */
  metricsListen: MetricsListen | null;
}

type Environment = Readonly<Record<string, string | undefined>>;

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** `OTEL_TRACES_EXPORTER=none` (and the metrics one) turns one signal off, as in the SDK spec. */
function exporterOff(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'none';
}

export function observabilitySettings(
  env: Environment,
  metricsListen: MetricsListen | null,
): ObservabilitySettings {
  const disabled = isTrue(env.OTEL_SDK_DISABLED);
  const anyEndpoint = isSet(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const traces =
    !disabled &&
    !exporterOff(env.OTEL_TRACES_EXPORTER) &&
    (anyEndpoint || isSet(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
  const otlpMetrics =
    !disabled &&
    !exporterOff(env.OTEL_METRICS_EXPORTER) &&
    (anyEndpoint || isSet(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT));
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() === 'http/json' ? 'http/json' : 'http/protobuf';
  return {
    traces,
    otlpMetrics,
    protocol,
    captureContent: isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
    metricsListen,
  };
}

/** Whether anything needs OpenTelemetry loaded (docs/spec/observability.md §1: off → nothing loaded). */
export function observabilityWanted(settings: ObservabilitySettings): boolean {
  return settings.traces || settings.otlpMetrics || settings.metricsListen !== null;
}
