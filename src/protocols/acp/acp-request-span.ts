/**
 * The SERVER span of an ACP request (docs/spec/observability.md §2, "each JSON-RPC request"): ACP
 * is JSON-RPC too, and its requests carry `_meta` like MCP's, so a client's `traceparent` there
 * parents the span, and a `session/prompt`'s turn goes under it. The span covers the handler,
 * which for `session/prompt` is the whole turn.
 */
import { RequestError } from '@agentclientprotocol/sdk';
import { traceCarrierOf } from '../../rpc/trace-carrier';
import { telemetry } from '../../runtime/telemetry/current-telemetry';
import type { TelemetrySpan } from '../../runtime/telemetry/telemetry';

export async function tracedAcpRequest<T>(
  method: string,
  params: unknown,
  handle: (span: TelemetrySpan) => Promise<T> | T,
): Promise<T> {
  const span = telemetry().startSpan(
    method,
    'server',
    { 'rpc.system': 'jsonrpc', 'rpc.method': method },
    traceCarrierOf(params),
  );
  const started = performance.now();
  let errorCode: number | undefined;
  try {
    return await handle(span);
  } catch (error) {
    errorCode = error instanceof RequestError ? error.code : -32603;
    span.setAttributes({ 'rpc.jsonrpc.error_code': errorCode });
    span.fail(String(errorCode));
    throw error;
  } finally {
    span.end();
    telemetry().record('vv_agent.rpc.server.duration', (performance.now() - started) / 1000, {
      'rpc.method': method,
      'rpc.jsonrpc.error_code': errorCode,
    });
  }
}
