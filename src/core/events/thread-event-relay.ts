/**
 * Thread events across server instances on one store (docs/spec/postgres.md §2 "live fan-out"): what this
 * instance broadcasts is handed to the others, and what they broadcast reaches this instance's
 * subscribers as if produced here. The core only sees this port; the store's driver implements it
 * (PostgreSQL: LISTEN/NOTIFY). Absent (SQLite), nothing leaves the process.
 */
import type { ThreadEventDetail, ThreadEventKind } from './thread-event-bus';

export interface RelayedThreadEvent {
  threadId: string;
  kind: ThreadEventKind;
  params: object;
  detail?: ThreadEventDetail;
  /** Where a received event stands in its sender's sequence (absent on state re-read after a gap). */
  mark?: RelayMark;
}

/** A position in one instance's per-thread event sequence: its events 1..seq of the thread. */
export interface RelayMark {
  origin: string;
  seq: number;
}

export interface ThreadEventRelay {
  /** Hands an event produced here to the other instances; they receive a thread's events in this order. */
  publish(event: RelayedThreadEvent): void;
  /** Events produced by other instances, per thread in their production order. */
  onRemoteEvent(listener: (event: RelayedThreadEvent) => void): void;
  /** How far this instance's published events of the thread go (what a snapshot taken now includes). */
  markOf(threadId: string): RelayMark;
  /**
   * Which threads run (or are starting) a turn of this instance: what the relay re-reads from the
   * store after a gap never announces such a turn as another instance's.
   */
  setLocalTurns(isLocalTurn: (threadId: string) => boolean): void;
  /**
   * The text of another instance's agentMessage still streaming, as relayed here (its itemStarted
   * text plus every delta since); undefined when none is known.
   */
  streamedText(itemId: string): string | undefined;
}

export const THREAD_EVENT_RELAY = Symbol('THREAD_EVENT_RELAY');
