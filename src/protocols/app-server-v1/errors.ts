/**
 * The error table of protocol.md §6 — the only place that states codes and fixed messages — plus
 * `RpcError` and the constructors every module throws.
 */

/**
 * One entry per §6 row: its code and exact message. `MethodNotFound` and `InvalidParams` hold the
 * message prefix (the rest is the method / the first violation); `InternalError` carries the cause's
 * message, so its fixed message is empty.
 */
export const RPC_ERROR_TABLE = {
  ParseError: { code: -32700, message: 'Parse error' },
  InvalidRequest: { code: -32600, message: 'Invalid Request' },
  MethodNotFound: { code: -32601, message: 'Method not found: ' },
  InvalidParams: { code: -32602, message: 'Invalid params: ' },
  MissingParams: { code: -32602, message: 'Missing params' },
  InputNotObjectList: { code: -32602, message: 'input must be a list of objects' },
  ClientNameRequired: { code: -32602, message: 'clientInfo.name is required' },
  ParamsMustBeEmptyObject: { code: -32602, message: 'params must be an empty object' },
  ThreadAlreadyHasActiveTurn: { code: -32602, message: 'Thread already has an active turn' },
  // history.md §2 (thread/fork)
  ForkTurnNotFound: { code: -32602, message: 'Turn not found in thread' },
  ForkNoFinishedTurn: { code: -32602, message: 'Thread has no finished turn' },
  UnknownApprovalRequest: { code: -32602, message: 'Unknown approval request' },
  FollowUpQueueFull: { code: -32602, message: 'Follow-up queue is full' },
  RuntimeNotConfigured: { code: -32603, message: 'App Server runtime is not configured' },
  InternalError: { code: -32603, message: '' },
  ServerOverloaded: { code: -32001, message: 'Server overloaded; retry later.' },
  NotInitialized: { code: -32010, message: 'Not initialized' },
  AlreadyInitialized: { code: -32011, message: 'Already initialized' },
  ThreadNotFound: { code: -32020, message: 'Thread not found' },
  ThreadArchived: { code: -32021, message: 'Thread archived' },
  ActiveTurnNotFound: { code: -32030, message: 'Active turn not found' },
  TurnIdMismatch: { code: -32031, message: 'Turn id mismatch' },
} as const;

export type RpcErrorName = keyof typeof RPC_ERROR_TABLE;

/** The wire `error` member of an error response. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One params validation violation (§3.0): a JSON Pointer relative to params and a fixed text. */
export interface ParamsIssue {
  path: string;
  message: string;
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

/** The message of a thrown value: `error.message`, else `String(value)` (§10.1). */
export function causeMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** `Invalid params: <P> <message>` with the two special cases of §3.0. */
export function invalidParamsMessage(errors: readonly ParamsIssue[]): string {
  const [first] = errors;
  if (first === undefined) return RPC_ERROR_TABLE.InvalidParams.message.trimEnd();
  if (first.path.startsWith('/input')) return RPC_ERROR_TABLE.InputNotObjectList.message;
  if (
    first.path === '/clientInfo/name' &&
    (first.message === 'is required' || first.message === 'must not be blank')
  ) {
    return RPC_ERROR_TABLE.ClientNameRequired.message;
  }
  const subject = first.path === '' ? 'params' : first.path;
  return `${RPC_ERROR_TABLE.InvalidParams.message}${subject} ${first.message}`;
}

function fromTable(name: RpcErrorName, data?: unknown): RpcError {
  const row = RPC_ERROR_TABLE[name];
  return new RpcError(row.code, row.message, data);
}

/** Constructors for every error of §6. */
export const RpcErrors = {
  parseError: (): RpcError => fromTable('ParseError'),
  invalidRequest: (): RpcError => fromTable('InvalidRequest'),
  inputTooLarge: (limitBytes: number): RpcError =>
    fromTable('InvalidRequest', { reason: 'input_too_large', limitBytes }),
  methodNotFound: (method: string): RpcError =>
    new RpcError(RPC_ERROR_TABLE.MethodNotFound.code, `${RPC_ERROR_TABLE.MethodNotFound.message}${method}`, {
      method,
    }),
  missingParams: (): RpcError => fromTable('MissingParams'),
  /** -32602 with `data.errors`; the message follows the §3.0 rules (special cases included). */
  invalidParams: (errors: readonly ParamsIssue[]): RpcError =>
    new RpcError(RPC_ERROR_TABLE.InvalidParams.code, invalidParamsMessage(errors), {
      errors: errors.map((e) => ({ path: e.path, message: e.message })),
    }),
  paramsMustBeEmptyObject: (): RpcError =>
    fromTable('ParamsMustBeEmptyObject', { errors: [{ path: '', message: 'must be an empty object' }] }),
  threadAlreadyHasActiveTurn: (): RpcError => fromTable('ThreadAlreadyHasActiveTurn'),
  forkTurnNotFound: (): RpcError => fromTable('ForkTurnNotFound'),
  forkNoFinishedTurn: (): RpcError => fromTable('ForkNoFinishedTurn'),
  unknownApprovalRequest: (): RpcError => fromTable('UnknownApprovalRequest'),
  /** `turn/followUp` beyond the per-thread bound (issue 12: unbounded queues ran on for hundreds of turns). */
  followUpQueueFull: (limit: number): RpcError => fromTable('FollowUpQueueFull', { limit }),
  runtimeNotConfigured: (): RpcError => fromTable('RuntimeNotConfigured'),
  /** -32603 carrying a cause's message (store, host, runner failures). */
  internal: (cause: unknown): RpcError =>
    new RpcError(RPC_ERROR_TABLE.InternalError.code, causeMessage(cause)),
  serverOverloaded: (): RpcError => fromTable('ServerOverloaded'),
  notInitialized: (): RpcError => fromTable('NotInitialized'),
  alreadyInitialized: (): RpcError => fromTable('AlreadyInitialized'),
  threadNotFound: (): RpcError => fromTable('ThreadNotFound'),
  threadArchived: (): RpcError => fromTable('ThreadArchived'),
  activeTurnNotFound: (): RpcError => fromTable('ActiveTurnNotFound'),
  turnIdMismatch: (): RpcError => fromTable('TurnIdMismatch'),
} as const;

/** Maps anything a handler threw to the error it answers with: RpcError as is, else -32603 (§3.0). */
export function toRpcError(thrown: unknown): RpcError {
  return thrown instanceof RpcError ? thrown : RpcErrors.internal(thrown);
}
