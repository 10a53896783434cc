/** What the OTEL_* variables and --metrics-listen switch on (docs/spec/observability.md §1). */
import {
  observabilitySettings,
  observabilityWanted,
} from '../../../../src/cli/observability/observability-settings';
import { samplerFromEnv } from '../../../../src/cli/observability/otel-sdk';

describe('observabilitySettings', () => {
  it('is off without an endpoint or a metrics listener', () => {
    const settings = observabilitySettings({}, null);
    expect(settings).toMatchObject({ traces: false, otlpMetrics: false, protocol: 'http/protobuf' });
    expect(observabilityWanted(settings)).toBe(false);
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT switches both signals on; a signal endpoint only its own', () => {
    expect(observabilitySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }, null)).toMatchObject({
      traces: true,
      otlpMetrics: true,
    });
    expect(
      observabilitySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces' }, null),
    ).toMatchObject({
      traces: true,
      otlpMetrics: false,
    });
    expect(
      observabilitySettings({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://c/v1/metrics' }, null),
    ).toMatchObject({
      traces: false,
      otlpMetrics: true,
    });
  });

  it('OTEL_SDK_DISABLED and OTEL_*_EXPORTER=none turn OTLP off, not the metrics listener', () => {
    const listen = { host: '127.0.0.1', port: 0 };
    const disabled = observabilitySettings(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_SDK_DISABLED: 'true' },
      listen,
    );
    expect(disabled).toMatchObject({ traces: false, otlpMetrics: false, metricsListen: listen });
    expect(observabilityWanted(disabled)).toBe(true);
    expect(
      observabilitySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'none' }, null),
    ).toMatchObject({ traces: false, otlpMetrics: true });
  });

  it('reads the protocol and the content opt-in', () => {
    expect(
      observabilitySettings(
        {
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
        },
        null,
      ),
    ).toMatchObject({ protocol: 'http/json', captureContent: true });
    expect(observabilitySettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, null).protocol).toBe(
      'http/protobuf',
    );
  });
});

describe('samplerFromEnv', () => {
  it.each([
    [undefined, 'ParentBased{root=AlwaysOnSampler'],
    ['always_off', 'AlwaysOffSampler'],
    ['traceidratio', 'TraceIdRatioBased{0.25}'],
    ['parentbased_traceidratio', 'ParentBased{root=TraceIdRatioBased{0.25}'],
  ])('OTEL_TRACES_SAMPLER=%s', (name, description) => {
    expect(
      samplerFromEnv({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString(),
    ).toContain(description);
  });
});
