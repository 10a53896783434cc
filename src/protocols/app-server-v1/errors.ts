/**
 * The error table of docs/spec/protocol.md §6 — the only place that states codes (the JSON-RPC rows come
 * from the peer, the domain's fixed messages from the core) — the constructors the v1 handlers
 * throw, and the mapping of the core's DomainErrors onto the table.
 */
import { DOMAIN_ERROR_MESSAGES, DomainError } from '../../core/domain-error';
import { causeMessage } from '../../runtime/cause-message';
import { JSON_RPC_ERROR_TABLE, RpcError } from '../../rpc/rpc-error';

const DOMAIN = DOMAIN_ERROR_MESSAGES;

/**
 * One entry per §6 row: its code and exact message. `MethodNotFound` and `InvalidParams` hold the
 * message prefix (the rest is the method / the first violation); `InternalError` carries the cause's
 * message, so its fixed message is empty.
 */
export const RPC_ERROR_TABLE = {
  ...JSON_RPC_ERROR_TABLE,
  MethodNotFound: { code: -32601, message: 'Method not found: ' },
  InvalidParams: { code: -32602, message: 'Invalid params: ' },
  MissingParams: { code: -32602, message: 'Missing params' },
  InputNotObjectList: { code: -32602, message: 'input must be a list of objects' },
  ClientNameRequired: { code: -32602, message: 'clientInfo.name is required' },
  ParamsMustBeEmptyObject: { code: -32602, message: 'params must be an empty object' },
  ThreadAlreadyHasActiveTurn: { code: -32602, message: DOMAIN.ThreadAlreadyHasActiveTurn },
  // docs/spec/history.md §2 (thread/fork)
  ForkTurnNotFound: { code: -32602, message: DOMAIN.ForkTurnNotFound },
  ForkNoFinishedTurn: { code: -32602, message: DOMAIN.ForkNoFinishedTurn },
  UnknownApprovalRequest: { code: -32602, message: DOMAIN.UnknownApprovalRequest },
  FollowUpQueueFull: { code: -32602, message: DOMAIN.FollowUpQueueFull },
  RuntimeNotConfigured: { code: -32603, message: DOMAIN.RuntimeNotConfigured },
  InternalError: { code: -32603, message: '' },
  ServerOverloaded: { code: -32001, message: 'Server overloaded; retry later.' },
  NotInitialized: { code: -32010, message: 'Not initialized' },
  AlreadyInitialized: { code: -32011, message: 'Already initialized' },
  ThreadNotFound: { code: -32020, message: DOMAIN.ThreadNotFound },
  ThreadArchived: { code: -32021, message: DOMAIN.ThreadArchived },
  ActiveTurnNotFound: { code: -32030, message: DOMAIN.ActiveTurnNotFound },
  TurnIdMismatch: { code: -32031, message: DOMAIN.TurnIdMismatch },
} as const;

export type RpcErrorName = keyof typeof RPC_ERROR_TABLE;

export { RpcError, type RpcErrorObject } from '../../rpc/rpc-error';

/** One params validation violation (§3.0): a JSON Pointer relative to params and a fixed text. */
export interface ParamsIssue {
  path: string;
  message: string;
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

const SERVER_OVERLOADED = fromTable('ServerOverloaded');

/** Constructors for the §6 errors the v1 layer raises itself (the core raises DomainErrors). */
export const RpcErrors = {
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
  runtimeNotConfigured: (): RpcError => fromTable('RuntimeNotConfigured'),
  /** -32603 carrying a cause's message (store, host, runner failures). */
  internal: (cause: unknown): RpcError =>
    new RpcError(RPC_ERROR_TABLE.InternalError.code, causeMessage(cause)),
  /** One shared instance: under a flood every rejection would otherwise capture a stack trace. */
  serverOverloaded: (): RpcError => SERVER_OVERLOADED,
  notInitialized: (): RpcError => fromTable('NotInitialized'),
  alreadyInitialized: (): RpcError => fromTable('AlreadyInitialized'),
} as const;

/**
 * A DomainError's §6 answer: a fixed-message kind is the table row of the same name; a bad cursor
 * is an ordinary params violation of `/cursor` (§3.6); an internal error keeps its message.
 */
function answerDomainError(error: DomainError): RpcError {
  switch (error.kind) {
    case 'InvalidCursor':
      return RpcErrors.invalidParams([{ path: '/cursor', message: error.message }]);
    case 'SandboxTooLoose':
      return RpcErrors.invalidParams([{ path: '/sandbox', message: error.message }]);
    case 'InternalError':
      return RpcErrors.internal(error);
    default:
      return fromTable(error.kind, error.data);
  }
}

/**
 * Maps anything a handler threw to the error it answers with: RpcError as is, a DomainError by its
 * kind, else -32603 with the cause's message (§3.0).
 */
export function toRpcError(thrown: unknown): RpcError {
  if (thrown instanceof RpcError) return thrown;
  if (thrown instanceof DomainError) return answerDomainError(thrown);
  return RpcErrors.internal(thrown);
}
