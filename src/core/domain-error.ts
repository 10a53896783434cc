/**
 * What the core refuses, as typed errors that know nothing of any protocol: each protocol maps a
 * kind to its own error (app-server-v1: errors.ts, the table of docs/spec/protocol.md §6). The messages are
 * the domain's; v1 adopted them verbatim, so its table reads them from here, and a message that
 * reaches a client another way (a `warning` about a follow-up that could not start) stays
 * the same text.
 */
import { causeMessage } from '../runtime/cause-message';

export const DOMAIN_ERROR_MESSAGES = {
  ThreadNotFound: 'Thread not found',
  ThreadArchived: 'Thread archived',
  ThreadAlreadyHasActiveTurn: 'Thread already has an active turn',
  // docs/spec/history.md §2 (fork)
  ForkTurnNotFound: 'Turn not found in thread',
  ForkNoFinishedTurn: 'Thread has no finished turn',
  UnknownApprovalRequest: 'Unknown approval request',
  FollowUpQueueFull: 'Follow-up queue is full',
  ActiveTurnNotFound: 'Active turn not found',
  TurnIdMismatch: 'Turn id mismatch',
  RuntimeNotConfigured: 'App Server runtime is not configured',
} as const;

/** A kind with a fixed message, plus the two whose message comes with the error. */
export type DomainErrorKind =
  | keyof typeof DOMAIN_ERROR_MESSAGES
  /** A list cursor the store did not hand out; the message says what is wrong with it. */
  | 'InvalidCursor'
  /** A failure of the store, the host or the runner; the message is the cause's. */
  | 'InternalError'
  /** docs/spec/sandbox.md §1: a `sandbox` param looser than the server's mode; the message names it. */
  | 'SandboxTooLoose';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Facts a client may act on (e.g. the queue's limit), carried as the error's data. */
    readonly data?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

function fixed(kind: keyof typeof DOMAIN_ERROR_MESSAGES, data?: Record<string, unknown>): DomainError {
  return new DomainError(kind, DOMAIN_ERROR_MESSAGES[kind], data);
}

/** Constructors for everything the core and the store refuse. */
export const DomainErrors = {
  threadNotFound: (): DomainError => fixed('ThreadNotFound'),
  threadArchived: (): DomainError => fixed('ThreadArchived'),
  threadAlreadyHasActiveTurn: (): DomainError => fixed('ThreadAlreadyHasActiveTurn'),
  forkTurnNotFound: (): DomainError => fixed('ForkTurnNotFound'),
  forkNoFinishedTurn: (): DomainError => fixed('ForkNoFinishedTurn'),
  unknownApprovalRequest: (): DomainError => fixed('UnknownApprovalRequest'),
  /** A follow-up beyond the per-thread bound (issue 12: unbounded queues ran on for hundreds of turns). */
  followUpQueueFull: (limit: number): DomainError => fixed('FollowUpQueueFull', { limit }),
  activeTurnNotFound: (): DomainError => fixed('ActiveTurnNotFound'),
  turnIdMismatch: (): DomainError => fixed('TurnIdMismatch'),
  runtimeNotConfigured: (): DomainError => fixed('RuntimeNotConfigured'),
  sandboxTooLoose: (serverMode: string): DomainError =>
    new DomainError('SandboxTooLoose', `is looser than the server allows (${serverMode})`),
  /** Wraps a failure of the store, the host or the runner, keeping only its message. */
  internal: (cause: unknown): DomainError => new DomainError('InternalError', causeMessage(cause)),
} as const;
