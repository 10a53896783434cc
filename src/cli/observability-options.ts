/**
 * The observability options of `app-server` (docs/spec/observability.md §1, §4): `--metrics-listen
 * HOST:PORT` (loopback unless `--metrics-allow-remote`), `--log-format text|json`, `--log-level`.
 * Pure value rules for the listen-options parser.
 */
import { isLoopbackAddress, parseWebSocketListenAddress } from '../transports/websocket/listen-address';

export type LogFormat = 'text' | 'json';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export interface ObservabilityOptions {
  /** `host` is what to bind (IPv6 without brackets). */
  metricsListen: { host: string; port: number } | null;
  logFormat: LogFormat;
  /** null: not given, the logger keeps its `VV_AGENT_LOG_LEVEL` threshold (default warn). */
  logLevel: LogLevel | null;
}

export const DEFAULT_OBSERVABILITY_OPTIONS: ObservabilityOptions = {
  metricsListen: null,
  logFormat: 'text',
  logLevel: null,
};

export const INVALID_METRICS_LISTEN = '--metrics-listen must be HOST:PORT';

/** HOST:PORT with the HOST rules of `--listen ws://` (IPv4, `[IPv6]`, `localhost`). */
export function parseMetricsListen(raw: string): { host: string; bindHost: string; port: number } | null {
  return parseWebSocketListenAddress(`ws://${raw}`);
}

export function checkMetricsListen(
  raw: string,
  allowRemote: boolean,
): ObservabilityOptions['metricsListen'] | { error: string } {
  const address = parseMetricsListen(raw);
  if (address === null) return { error: INVALID_METRICS_LISTEN };
  if (!allowRemote && !isLoopbackAddress(address))
    return { error: '--metrics-listen requires a loopback address unless --metrics-allow-remote' };
  return { host: address.bindHost, port: address.port };
}
