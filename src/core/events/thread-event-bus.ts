/**
 * How the domain announces what happens on a thread (docs/spec/protocol.md §7.1 "subscribers of the thread")
 * without knowing who reads it or over which protocol. The protocol layer implements it: each
 * subscriber reads the thread's events through its own cursor, so `broadcast` never waits for a
 * reader; turn forwarding asks `paced` so the backlog of the fastest reader stays bounded.
 * `hold` / `release` bracket a snapshot (resume = snapshot + cursor, atomically).
 */

/**
 * What happens on a thread, as the domain names it. Each protocol maps a kind to its own wire
 * (App Server v1: protocols/app-server-v1/delivery/v1-notification-methods.ts; ACP:
 * protocols/acp/session-updates.ts), so the core never names a protocol's method. A delta kind
 * (`…Delta`) says what a delta adds to its item: a new kind of item content (reasoning text,
 * command output) is one more delta kind here, then one more case in each protocol's mapping.
 */
export type ThreadEventKind =
  /** The thread was archived (params: threadId, archived). */
  | 'threadArchived'
  /** The thread's status changed (params: threadId, status). */
  | 'threadStatusChanged'
  /** The thread's metadata changed (params: the thread as subscribers see it). */
  | 'threadUpdated'
  | 'turnStarted'
  /** The turn ended (params: its completion, TurnCompletedParams). */
  | 'turnCompleted'
  /** An item began (params: the item). */
  | 'itemStarted'
  /** An agent message's text grew (params: the item plus the new chunk). */
  | 'agentMessageTextDelta'
  /** A tool call's arguments are known (params: the item plus its arguments). */
  | 'toolCallArgumentsDelta'
  /** An item reached its final state (params: the item). */
  | 'itemCompleted'
  | 'approvalRequested'
  | 'approvalResolved'
  /** Something went wrong without ending the turn (params: ErrorWarningParams). */
  | 'warning';

/** The kinds that add to an item in progress rather than restate it. */
export type ItemDeltaKind = Extract<ThreadEventKind, `${string}Delta`>;

/**
 * What an event knows beyond its params, for a protocol whose wire shows more than the App
 * Server's. The App Server never sends it: a tool call that never ran has no `arguments` there
 * (docs/spec/protocol.md §4), while ACP shows the call with the model's arguments (docs/spec/acp.md §3 `rawInput`).
 */
export interface ThreadEventDetail {
  /** `itemCompleted` of a toolCall that never started: the arguments the model planned for it. */
  plannedArguments?: Record<string, unknown>;
}

export interface ThreadEventBus {
  /** To every current subscriber of the thread; settled once the event is in the thread's log. */
  broadcast(
    threadId: string,
    kind: ThreadEventKind,
    params: object,
    detail?: ThreadEventDetail,
  ): Promise<void>;
  /** Starts holding `subscriberId`'s share of the thread's events (idempotent). */
  hold(threadId: string, subscriberId: string): void;
  /** Ends the hold: what was held becomes due, before anything produced later. */
  release(threadId: string, subscriberId: string): Promise<void>;
  /** Ends the hold and forgets what it held. */
  discardHold(threadId: string, subscriberId: string): void;
  /** Runs `send` now, or — while `subscriberId` is held — right after what was held before it. */
  inThreadOrder(threadId: string, subscriberId: string, send: () => void): void;
  /**
   * Settles once some reader of the thread keeps up (§1.8 "background turn forwarding pauses"):
   * at once unless every reader has a long backlog of events it has not taken. Only a producer
   * that may wait (turn forwarding) asks; `broadcast` itself never waits.
   */
  paced(threadId: string): Promise<void>;
}

export const THREAD_EVENT_BUS = Symbol('THREAD_EVENT_BUS');
