/**
 * A real OTLP/HTTP receiver on 127.0.0.1 for the observability tests (docs/spec/observability.md
 * §5): it accepts `POST /v1/traces` and `/v1/metrics`, answers as a collector does, and decodes
 * both encodings into flat spans and metric data points: `http/protobuf` (the default) with the
 * request messages of otlp-request-messages.ts through protobufjs, `http/json` as the OTLP/JSON
 * mapping that `@opentelemetry/otlp-transformer`'s JSON serializers write.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, type Type } from 'protobufjs';
import { OTLP_REQUEST_MESSAGES } from './otlp-request-messages';

/** The two request messages, parsed once. */
function otlpTypes(): { traces: Type; metrics: Type } {
  const { root } = parse(OTLP_REQUEST_MESSAGES, { keepCase: false });
  return {
    traces: root.lookupType('otlp.ExportTraceServiceRequest'),
    metrics: root.lookupType('otlp.ExportMetricsServiceRequest'),
  };
}

let types: { traces: Type; metrics: Type } | null = null;

/** Trace and span ids are `bytes` in protobuf and lower-case hex in OTLP/JSON. */
const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** A protobuf body as the OTLP/JSON object it stands for (ids hex, 64-bit numbers strings). */
function decodeProtobuf(type: Type, body: Buffer): unknown {
  const object = type.toObject(type.decode(body), { longs: String, bytes: String, enums: Number });
  return JSON.parse(JSON.stringify(object), (key, value: unknown) =>
    ID_FIELDS.has(key) && typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : value,
  );
}

export type OtlpValue = string | number | boolean | OtlpValue[] | undefined;

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, OtlpValue>;
  status: { code?: number };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  resource: Record<string, OtlpValue>;
}

export interface ReceivedBody {
  path: string;
  contentType: string;
  bytes: number;
}

function valueOf(value: OtlpAnyValue): OtlpValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, OtlpValue> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts)));
    request.on('error', reject);
  });
}

interface TracesBody {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
  }>;
}

interface MetricsBody {
  resourceMetrics?: Array<{
    scopeMetrics?: Array<{ metrics?: Array<{ name: string } & Record<string, unknown>> }>;
  }>;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Metric data points by metric name, every export appended. */
  readonly metrics = new Map<string, Array<Record<string, unknown>>>();
  readonly bodies: ReceivedBody[] = [];

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | null = null;
    const server = createServer((request, response) => {
      void readBody(request).then((body) => {
        receiver?.accept(request.url ?? '/', String(request.headers['content-type'] ?? ''), body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  private decode(path: string, contentType: string, body: Buffer): unknown {
    if (contentType.includes('json')) return JSON.parse(body.toString('utf8'));
    types ??= otlpTypes();
    return decodeProtobuf(path === '/v1/traces' ? types.traces : types.metrics, body);
  }

  private accept(path: string, contentType: string, body: Buffer): void {
    this.bodies.push({ path, contentType, bytes: body.length });
    if (path !== '/v1/traces' && path !== '/v1/metrics') return;
    const decoded = this.decode(path, contentType, body);
    if (path === '/v1/traces') {
      for (const resourceSpans of (decoded as TracesBody).resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            this.spans.push({
              traceId: String(span.traceId),
              spanId: String(span.spanId),
              parentSpanId: String(span.parentSpanId ?? ''),
              name: String(span.name),
              kind: Number(span.kind),
              attributes: attributesOf(span.attributes as OtlpKeyValue[] | undefined),
              status: (span.status as { code?: number } | undefined) ?? {},
              startTimeUnixNano: String(span.startTimeUnixNano),
              endTimeUnixNano: String(span.endTimeUnixNano),
              resource,
            });
      }
    } else {
      for (const resourceMetrics of (decoded as MetricsBody).resourceMetrics ?? [])
        for (const scope of resourceMetrics.scopeMetrics ?? [])
          for (const metric of scope.metrics ?? []) {
            const data = (metric.histogram ?? metric.sum ?? metric.gauge) as
              { dataPoints?: Array<Record<string, unknown>> } | undefined;
            const points = (data?.dataPoints ?? []).map((point) => ({
              ...point,
              attributes: attributesOf(point.attributes as OtlpKeyValue[] | undefined),
            }));
            this.metrics.set(metric.name, [...(this.metrics.get(metric.name) ?? []), ...points]);
          }
    }
  }

  named(name: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.name === name);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
