/**
 * Where the SDK's own complaints go (docs/spec/observability.md §1): "export failures never affect
 * turns: a dead collector costs at most one stderr line a minute". Errors and warnings of the
 * OpenTelemetry diagnostics become at most one stderr line per minute; stdout is never touched
 * (it is the protocol in stdio modes).
 */
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';

const INTERVAL_MS = 60_000;

export class RateLimitedDiagLogger implements DiagLogger {
  private lastLineAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
    /** Values never to print (the `OTEL_EXPORTER_OTLP_*HEADERS` values: API keys, tokens). */
    private readonly secrets: readonly string[] = [],
  ) {}

  error(message: string): void {
    this.report(message);
  }
  warn(message: string): void {
    this.report(message);
  }
  info(): void {}
  debug(): void {}
  verbose(): void {}

  private report(message: string): void {
    const at = this.now();
    if (at - this.lastLineAt < INTERVAL_MS) {
      this.suppressed += 1;
      return;
    }
    this.lastLineAt = at;
    const more = this.suppressed > 0 ? ` (${this.suppressed} more since the last report)` : '';
    this.suppressed = 0;
    // One line, and a header value that an error quotes (a collector echoing a request) is masked.
    let text = message;
    for (const secret of this.secrets) text = text.split(secret).join('***');
    this.write(`telemetry export: ${text.replace(/\s+/g, ' ').slice(0, 300)}${more}`);
  }
}

/** The values of `OTEL_EXPORTER_OTLP_HEADERS` and its per-signal variants (`k1=v1,k2=v2`). */
export function headerSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return [
    'OTEL_EXPORTER_OTLP_HEADERS',
    'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    'OTEL_EXPORTER_OTLP_METRICS_HEADERS',
  ]
    .flatMap((name) => (env[name] ?? '').split(','))
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .flatMap((value) => {
      let decoded = value;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        // Not percent-encoded: the value as written.
      }
      return [value, decoded];
    })
    .filter((value) => value.length >= 4);
}

export function installDiagnostics(write: (line: string) => void, secrets: readonly string[] = []): void {
  diag.setLogger(new RateLimitedDiagLogger(write, Date.now, secrets), {
    logLevel: DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
}
