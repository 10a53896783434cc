/** The outbound envelopes of docs/spec/protocol.md §1.4. Every message carries `"jsonrpc":"2.0"`. */
import type { RpcError } from './rpc-error';
import type { RequestId } from './request-id';

export function responseMessage(id: RequestId, result: unknown): object {
  return { jsonrpc: '2.0', id, result };
}

export function errorMessage(id: RequestId | null, error: RpcError): object {
  return { jsonrpc: '2.0', id, error: error.toErrorObject() };
}

export function notificationMessage(method: string, params: object): object {
  return { jsonrpc: '2.0', method, params };
}

export function serverRequestMessage(id: string, method: string, params: object): object {
  return { jsonrpc: '2.0', id, method, params };
}
