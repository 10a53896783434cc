/**
 * How thread events and forwarded control operations are named on the cluster channel
 * (docs/spec/postgres.md §2). The channel is internal between instances, but instances of the
 * previous version may share the database during a rolling upgrade: its names are the ones that
 * version sent (they happen to be the App Server v1 method names), kept as they are
 * (docs/spec-interpretations.md "cluster channel names"). A name this version does not know (a
 * later version's new kind) is skipped by the receiver.
 */
import type { ThreadEventKind } from '../../../core/events/thread-event-bus';
import type { ForwardedControlOperation } from '../../../core/turns/turn-control-forwarding';

const EVENT_WIRE_NAME = {
  threadArchived: 'thread/archived',
  threadStatusChanged: 'thread/status/changed',
  threadUpdated: 'thread/updated',
  turnStarted: 'turn/started',
  turnCompleted: 'turn/completed',
  itemStarted: 'item/started',
  agentMessageTextDelta: 'item/agentMessage/delta',
  toolCallArgumentsDelta: 'item/toolCall/delta',
  itemCompleted: 'item/completed',
  approvalRequested: 'approval/requested',
  approvalResolved: 'approval/resolved',
  warning: 'error/warning',
} as const satisfies Record<ThreadEventKind, string>;

const OPERATION_WIRE_NAME = {
  steerTurn: 'turn/steer',
  followUpTurn: 'turn/followUp',
  interruptTurn: 'turn/interrupt',
  resolveApproval: 'approval/resolve',
  readLiveState: 'thread/liveState',
} as const satisfies Record<ForwardedControlOperation, string>;

function reverse<K extends string>(table: Record<K, string>): ReadonlyMap<string, K> {
  return new Map(Object.entries(table).map(([key, name]) => [name as string, key as K]));
}

const EVENT_KIND_OF = reverse<ThreadEventKind>(EVENT_WIRE_NAME);
const OPERATION_OF = reverse<ForwardedControlOperation>(OPERATION_WIRE_NAME);

export function eventWireName(kind: ThreadEventKind): string {
  return EVENT_WIRE_NAME[kind];
}

/** The kind a received event name stands for; undefined for a name this version does not know. */
export function eventKindOf(name: unknown): ThreadEventKind | undefined {
  return typeof name === 'string' ? EVENT_KIND_OF.get(name) : undefined;
}

export function operationWireName(operation: ForwardedControlOperation): string {
  return OPERATION_WIRE_NAME[operation];
}

/** The operation a received request names; undefined for one this version does not know. */
export function operationOf(name: unknown): ForwardedControlOperation | undefined {
  return typeof name === 'string' ? OPERATION_OF.get(name) : undefined;
}
