/**
 * `--metrics-listen HOST:PORT` (docs/spec/observability.md §1): `GET /metrics` in the Prometheus text
 * format, rendered by `@opentelemetry/exporter-prometheus` from the same instruments as the OTLP
 * export, and `GET /healthz`. Its own small server, so the Prometheus exporter never opens one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';

export async function listenMetrics(
  address: { host: string; port: number },
  exporter: PrometheusExporter,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      exporter.getMetricsRequestHandler(request, response);
    } else if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok\n');
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Scrapes must never keep a stopping server alive.
  server.unref();
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { server, url: `http://${host}:${bound.port}/metrics` };
}
