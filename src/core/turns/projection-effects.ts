/** What the run projector asks its caller to do, in order: persist item states, announce thread events. */
import type { ItemVersion } from '../store/records';
import type { ThreadEventDetail } from '../events/thread-event-bus';
import type { Message } from '../../runtime/messages';
import type {
  AgentMessageDeltaParams,
  AppItem,
  ApprovalRequestParams,
  ErrorWarningParams,
  ToolCallDeltaParams,
} from '../model/types';

export type { AgentMessageDeltaParams, ToolCallDeltaParams };

/** A thread event the projector produces (a subset of ThreadEventKind, with its params' type). */
export type ProjectedNotification =
  | { kind: 'itemStarted'; params: AppItem }
  | { kind: 'itemCompleted'; params: AppItem; detail?: ThreadEventDetail }
  | { kind: 'agentMessageTextDelta'; params: AgentMessageDeltaParams }
  | { kind: 'toolCallArgumentsDelta'; params: ToolCallDeltaParams }
  | { kind: 'approvalRequested'; params: ApprovalRequestParams }
  | { kind: 'warning'; params: ErrorWarningParams };

export type ProjectedNotificationKind = ProjectedNotification['kind'];

/**
 * A new item state with its change counter values. `persist` is true at creation and at the
 * final status (§8.5 minimum); delta-only updates may stay in memory.
 */
export interface ItemEffect {
  kind: 'item';
  version: ItemVersion;
  persist: boolean;
  /**
   * docs/spec/history.md §1: a completed `contextCompaction` item's compacted conversation; it replaces the
   * stored one in the same transaction that writes this item state.
   */
  compactedHistory?: Message[];
}

export interface NotificationEffect {
  kind: 'notification';
  notification: ProjectedNotification;
}

export type ProjectionEffect = ItemEffect | NotificationEffect;

export function notificationsOf(effects: readonly ProjectionEffect[]): ProjectedNotification[] {
  return effects.flatMap((effect) => (effect.kind === 'notification' ? [effect.notification] : []));
}

export function itemVersionsOf(effects: readonly ProjectionEffect[], persistedOnly = false): ItemVersion[] {
  return effects.flatMap((effect) =>
    effect.kind === 'item' && (!persistedOnly || effect.persist) ? [effect.version] : [],
  );
}
