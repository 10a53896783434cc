/**
 * JSON-RPC 2.0 errors every protocol shares: the error object on the wire, `RpcError`, and the rows
 * of docs/spec/protocol.md §6 that the peer itself answers before any method is looked up (a line that is
 * not JSON, not an envelope, or too large). Protocol tables spread these rows into their own.
 */

/** Code and exact message of the JSON-RPC rows the peer answers by itself. */
export const JSON_RPC_ERROR_TABLE = {
  ParseError: { code: -32700, message: 'Parse error' },
  InvalidRequest: { code: -32600, message: 'Invalid Request' },
} as const;

/** The wire `error` member of an error response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error that becomes a JSON-RPC error response with exactly this code, message and data. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  /** The wire `error` member; `data` is omitted when there is none (§1.4). */
  toErrorObject(): RpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

type JsonRpcErrorName = keyof typeof JSON_RPC_ERROR_TABLE;

function fromJsonRpcTable(name: JsonRpcErrorName, data?: unknown): RpcError {
  const row = JSON_RPC_ERROR_TABLE[name];
  return new RpcError(row.code, row.message, data);
}

/** Constructors for the errors the peer answers before dispatch. */
export const JsonRpcErrors = {
  parseError: (): RpcError => fromJsonRpcTable('ParseError'),
  invalidRequest: (): RpcError => fromJsonRpcTable('InvalidRequest'),
  inputTooLarge: (limitBytes: number): RpcError =>
    fromJsonRpcTable('InvalidRequest', { reason: 'input_too_large', limitBytes }),
} as const;
