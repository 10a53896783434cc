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
    // The SDK's message may hold a URL but never the headers (OTEL_EXPORTER_OTLP_HEADERS); one line.
    this.write(`telemetry export: ${message.replace(/\s+/g, ' ').slice(0, 300)}${more}`);
  }
}

export function installDiagnostics(write: (line: string) => void): void {
  diag.setLogger(new RateLimitedDiagLogger(write), {
    logLevel: DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
}
