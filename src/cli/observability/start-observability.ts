/**
 * Switches observability on for a server process when docs/spec/observability.md §1 says so, and
 * otherwise loads nothing: the OpenTelemetry modules are imported only from here, only then. The
 * bundle keeps `@opentelemetry/*` external (scripts/bundle-cli.ts), so they are not even parsed
 * on a start without them.
 */
import { installTelemetry, resetTelemetry } from '../../runtime/telemetry/current-telemetry';
import type { ObservabilityOptions } from '../observability-options';
import { observabilitySettings, observabilityWanted } from './observability-settings';

export interface RunningObservability {
  /** Flushes (bounded) and stops the exporters and the metrics listener. */
  stop(): Promise<void>;
}

const NOTHING: RunningObservability = { stop: async () => undefined };

export async function startObservability(
  options: ObservabilityOptions | undefined,
  env: Readonly<Record<string, string | undefined>>,
  context: { transport: string; version: string },
): Promise<RunningObservability> {
  const settings = observabilitySettings(env, options?.metricsListen ?? null);
  if (!observabilityWanted(settings)) return NOTHING;
  const stderr = (line: string): void => void process.stderr.write(`${line}\n`);
  const { headerSecrets, installDiagnostics } = await import('./export-diagnostics');
  installDiagnostics(stderr, headerSecrets(env));
  const { startOtelSdk } = await import('./otel-sdk');
  const sdk = startOtelSdk(settings, env, context);
  installTelemetry(sdk.telemetry);
  let closeListener = (): void => undefined;
  if (settings.metricsListen !== null && sdk.prometheus !== null) {
    const { listenMetrics } = await import('./metrics-listener');
    const { server, url } = await listenMetrics(settings.metricsListen, sdk.prometheus);
    stderr(`metrics listening on ${url}`);
    closeListener = () => void server.close();
  }
  return {
    stop: async () => {
      closeListener();
      await sdk.telemetry.shutdown();
      resetTelemetry();
    },
  };
}
