/**
 * How the domain announces what happens on a thread (docs/spec/protocol.md §7.1 "subscribers of the thread")
 * without knowing who reads it or over which protocol. The protocol layer implements it: each
 * subscriber reads the thread's events through its own cursor, so `broadcast` never waits for a
 * reader; turn forwarding asks `paced` so the backlog of the fastest reader stays bounded.
 * `hold` / `release` bracket a snapshot (resume = snapshot + cursor, atomically).
 */

/** The thread-scoped events the domain produces (named as in docs/spec/protocol.md §4). */
export type ThreadEventName =
  | 'thread/archived'
  | 'thread/status/changed'
  | 'thread/updated'
  | 'turn/started'
  | 'turn/completed'
  | 'item/started'
  | 'item/agentMessage/delta'
  | 'item/toolCall/delta'
  | 'item/completed'
  | 'approval/requested'
  | 'approval/resolved'
  | 'error/warning';

/**
 * What an event knows beyond its params, for a protocol whose wire shows more than the App
 * Server's. The App Server never sends it: a tool call that never ran has no `arguments` there
 * (docs/spec/protocol.md §4), while ACP shows the call with the model's arguments (docs/spec/acp.md §3 `rawInput`).
 */
export interface ThreadEventDetail {
  /** `item/completed` of a toolCall that never started: the arguments the model planned for it. */
  plannedArguments?: Record<string, unknown>;
}

export interface ThreadEventBus {
  /** To every current subscriber of the thread; settled once the event is in the thread's log. */
  broadcast(
    threadId: string,
    name: ThreadEventName,
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
