/**
 * The one place where a domain thread event becomes an App Server v1 notification
 * (docs/spec/protocol.md §4): its kind names the method, its params are the notification's params
 * as they are. A switch over constant strings, so the delta path (one call per delta) compares
 * and returns a literal rather than building or looking anything up; the `never` default makes
 * a new ThreadEventKind fail to compile until it has its v1 method here.
 */
import type { ThreadEventKind } from '../../../core/events/thread-event-bus';
import type { ServerNotificationMethod } from '../registry';

/** The v1 notification method announcing a thread event of this kind. */
export function v1MethodOf(kind: ThreadEventKind): ServerNotificationMethod {
  switch (kind) {
    case 'agentMessageTextDelta':
      return 'item/agentMessage/delta';
    case 'itemStarted':
      return 'item/started';
    case 'itemCompleted':
      return 'item/completed';
    case 'toolCallArgumentsDelta':
      return 'item/toolCall/delta';
    case 'turnStarted':
      return 'turn/started';
    case 'turnCompleted':
      return 'turn/completed';
    case 'threadStatusChanged':
      return 'thread/status/changed';
    case 'threadArchived':
      return 'thread/archived';
    case 'threadUpdated':
      return 'thread/updated';
    case 'approvalRequested':
      return 'approval/requested';
    case 'approvalResolved':
      return 'approval/resolved';
    case 'warning':
      return 'error/warning';
    default:
      return unmapped(kind);
  }
}

function unmapped(kind: never): never {
  throw new Error(`no v1 notification for thread event ${String(kind)}`);
}
