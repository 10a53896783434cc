/**
 * The one place where a domain thread event becomes an App Server v1 notification
 * (docs/spec/protocol.md §4): its kind names the method, its params are the notification's params
 * as they are. A constant table, so the delta path looks a method up rather than building anything;
 * `satisfies` makes a new ThreadEventKind fail to compile until it has its v1 method here.
 */
import type { ThreadEventKind } from '../../../core/events/thread-event-bus';
import type { ServerNotificationMethod } from '../registry';

const V1_METHOD_OF = {
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
} as const satisfies Record<ThreadEventKind, ServerNotificationMethod>;

/** The v1 notification method announcing a thread event of this kind. */
export function v1MethodOf<K extends ThreadEventKind>(kind: K): (typeof V1_METHOD_OF)[K] {
  return V1_METHOD_OF[kind];
}
