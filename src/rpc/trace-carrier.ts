/**
 * The W3C trace context a client sends in a request's `params._meta` (the MCP convention,
 * docs/spec/observability.md §2). Only well-formed strings are taken: the value goes to the
 * tracer's propagator, never into a log or attribute.
 */
import type { TraceCarrier } from '../runtime/telemetry/telemetry';

/** `version-traceid-parentid-flags`, lower-case hex (W3C Trace Context §3.2). */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const MAX_TRACESTATE_LENGTH = 512;

export function traceCarrierOf(params: unknown): TraceCarrier | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  return typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE_LENGTH
    ? { traceparent, tracestate }
    : { traceparent };
}
