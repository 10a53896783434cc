/** A dead collector costs at most one stderr line a minute (docs/spec/observability.md §1). */
import { headerSecrets, RateLimitedDiagLogger } from '../../../../src/cli/observability/export-diagnostics';

describe('RateLimitedDiagLogger', () => {
  it('writes the first error, then at most one line a minute, counting what it held back', () => {
    const lines: string[] = [];
    let now = 1_000;
    const logger = new RateLimitedDiagLogger(
      (line) => lines.push(line),
      () => now,
    );
    logger.error('export failed: connect ECONNREFUSED 127.0.0.1:4318');
    logger.warn('again');
    now += 59_999;
    logger.error('still');
    expect(lines).toEqual(['telemetry export: export failed: connect ECONNREFUSED 127.0.0.1:4318']);
    now += 1;
    logger.error('multi\nline   message');
    expect(lines[1]).toBe('telemetry export: multi line message (2 more since the last report)');
  });

  it('ignores info, debug and verbose', () => {
    const lines: string[] = [];
    const logger = new RateLimitedDiagLogger((line) => lines.push(line));
    logger.info();
    logger.debug();
    logger.verbose();
    expect(lines).toEqual([]);
  });
});

describe('header values are never printed', () => {
  it('masks the OTEL_EXPORTER_OTLP_*HEADERS values in a diagnostic line', () => {
    const secrets = headerSecrets({
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20s3cr3t-token,x-tenant=acme',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=k-123456',
    });
    expect(secrets).toEqual(expect.arrayContaining(['Bearer s3cr3t-token', 'acme', 'k-123456']));
    const lines: string[] = [];
    new RateLimitedDiagLogger((line) => lines.push(line), Date.now, secrets).error(
      'export failed: 401 for Bearer s3cr3t-token and k-123456',
    );
    expect(lines).toEqual(['telemetry export: export failed: 401 for *** and ***']);
  });
});
