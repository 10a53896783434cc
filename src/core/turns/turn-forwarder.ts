/**
 * Forwards one turn's RunEvents (docs/spec/protocol.md §8.3): for each event in order, the projector's
 * effects are applied in order — item states written to the store at creation and completion
 * (deltas stay in memory), notifications broadcast, then forwarding paced by the thread's fastest
 * reader so outbound backpressure pauses it (§1.8). A store failure is reported as `warning {code:"store"}` and the turn
 * goes on. The approval route is told about approval requests and consulted before an approval
 * item completes.
 *
 * Events that arrived while the previous ones were being forwarded are forwarded as one batch:
 * their item states are written in one transaction (latest state of each item), and only then
 * are their notifications sent, in order. So an item is durable before any notification of it
 * (§8.11: what a client heard of survives a crash), at one commit per batch instead of one per
 * item state.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RunEvent } from '../../runtime/events/types';
import type { Message } from '../../runtime/messages';
import { ApprovalRouter } from '../approvals/approval-router';
import type { ItemVersion } from '../store/records';
import { EventBatches } from './event-batches';
import { INSTANCE_LEASE, type InstanceLease } from '../lifecycle/instance-lease';
import { coalesceItemVersions } from '../store/item-write-batch';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { causeMessage } from '../../runtime/cause-message';
import type { ErrorWarningParams } from '../model/types';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../events/thread-event-bus';
import type { ProjectedNotification, ProjectionEffect } from './projection-effects';
import type { RunningTurn } from './running-turn';
import type { TurnOutcome } from './turn-completion';

/** Cancel reason when the event stream broke and the turn is finalized without it. */
const BROKEN_STREAM_CANCEL_REASON = 'event stream failed';
/** Most events forwarded as one batch: bounds how long the first of them waits for its commit. */
const MAX_EVENTS_PER_BATCH = 256;

@Injectable()
export class TurnForwarder {
  private readonly logger = new Logger('TurnForwarder');

  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(INSTANCE_LEASE) private readonly lease: InstanceLease,
  ) {}

  /**
   * Forwards every event until the stream ends, then tells how the turn ended; null when shutdown
   * took the turn over (nothing more may be emitted or written for it).
   */
  async forward(turn: RunningTurn): Promise<TurnOutcome | null> {
    let streamError: { message: string } | null = null;
    const batches = new EventBatches(turn.handle.events(), MAX_EVENTS_PER_BATCH);
    try {
      for (;;) {
        const events = await batches.take();
        if (events.length === 0 || turn.abandoned) break;
        await this.forwardBatch(turn, events);
        // §1.8: forwarding pauses while every reader lags; the runtime's events wait in its journal.
        await this.events.paced(turn.threadId);
      }
    } catch (error) {
      streamError = { message: causeMessage(error) };
    } finally {
      batches.stop();
    }
    if (turn.abandoned) return null;
    if (streamError !== null) {
      this.logger.error(`turn ${turn.turnId}: event stream failed: ${streamError.message}`);
      turn.handle.cancel(BROKEN_STREAM_CANCEL_REASON);
      const result = await turn.handle.result().catch(() => null);
      return { kind: 'streamFailed', error: streamError.message, result };
    }
    try {
      return { kind: 'finished', result: await turn.handle.result() };
    } catch (error) {
      return { kind: 'rejected', error: causeMessage(error) };
    }
  }

  /**
   * Applies effects in order: the persisted item states of a run of effects written in one
   * transaction, then that run's notifications. A compaction item is written in its own
   * transaction with the compacted history, after what came before it was applied.
   */
  async applyEffects(turn: RunningTurn, effects: readonly ProjectionEffect[]): Promise<void> {
    let writes: ItemVersion[] = [];
    let notifications: ProjectedNotification[] = [];
    for (const effect of effects) {
      if (effect.kind === 'notification') notifications.push(effect.notification);
      else if (effect.persist && effect.compactedHistory !== undefined) {
        await this.flush(turn, writes, notifications);
        writes = [];
        notifications = [];
        await this.persistCompaction(turn, effect.version, effect.compactedHistory);
      } else if (effect.persist) writes.push(effect.version);
    }
    await this.flush(turn, writes, notifications);
  }

  /** `warning` for the turn (store failures, §4.13). */
  warn(turn: RunningTurn, code: ErrorWarningParams['code'], message: string): Promise<void> {
    const params: ErrorWarningParams = { threadId: turn.threadId, turnId: turn.turnId, code, message };
    return this.events.broadcast(turn.threadId, 'warning', params);
  }

  /**
   * A batch of events in order. An approval resolution is applied only after what came before it.
   * An assistant delta's chunk is projected only once everything before it was sent, and sent at
   * once: its notification carries only the chunk (§4.8), so the projector's text — which
   * reads and resumes replay (§8.5: itemStarted's text plus every delta sent so far)
   * — must never run ahead of the deltas sent. Every other notification carries the full item
   * state, so a snapshot taken while it waits in the batch only shows a state the client is about
   * to get. That includes the `itemStarted` (text `''`) of the message a delta opens: it joins
   * the commit of what came before it, so a new message after a user message or tool calls costs
   * no commit of its own before its first chunk.
   */
  private async forwardBatch(turn: RunningTurn, events: readonly RunEvent[]): Promise<void> {
    let effects: ProjectionEffect[] = [];
    for (const event of events) {
      if (turn.abandoned) return;
      if (event.type === 'assistant_delta')
        for (const effect of turn.projector.openAgentMessage(event)) effects.push(effect);
      if ((event.type === 'approval_resolved' || event.type === 'assistant_delta') && effects.length > 0) {
        await this.applyEffects(turn, effects);
        effects = [];
        if (turn.abandoned) return;
      }
      if (event.type === 'approval_resolved') await this.approvals.beforeResolvedEvent(turn, event);
      if (event.type === 'assistant_delta') {
        await this.applyEffects(turn, turn.projector.project(event));
        continue;
      }
      for (const effect of turn.projector.project(event)) effects.push(effect);
    }
    await this.applyEffects(turn, effects);
  }

  /**
   * Writes the item states, then sends the notifications that follow them; first, when this
   * instance may have been declared lost meanwhile, waits until it knows (instance-lease.ts).
   */
  private async flush(
    turn: RunningTurn,
    versions: readonly ItemVersion[],
    notifications: readonly ProjectedNotification[],
  ): Promise<void> {
    const check = this.lease.check();
    if (check !== null) await check;
    if (turn.abandoned) return;
    // A batch of deltas alone writes nothing: refused states wait for the next item state (or the
    // finish) rather than a store attempt and a warning per chunk.
    if (versions.length > 0) await this.persistItems(turn, coalesceItemVersions(versions));
    for (const notification of notifications) {
      if (turn.abandoned) return;
      await this.send(turn, notification);
    }
  }

  private async send(turn: RunningTurn, notification: ProjectedNotification): Promise<void> {
    const { kind, params } = notification;
    await this.events.broadcast(
      turn.threadId,
      kind,
      params,
      'detail' in notification ? notification.detail : undefined,
    );
    if (kind === 'approvalRequested') this.approvals.open(turn, params);
  }

  /** `versions`, after what the store refused earlier in the turn; refused again, kept for the next try. */
  private async persistItems(turn: RunningTurn, versions: readonly ItemVersion[]): Promise<void> {
    const writes = turn.withRefusedItems(versions);
    try {
      if (writes.length === 1) await this.store.items.upsert(writes[0]);
      else await this.store.items.upsertMany(writes);
      turn.itemsWritten();
    } catch (error) {
      turn.itemsRefused(writes);
      await this.warn(turn, 'store', causeMessage(error));
    }
  }

  private async persistCompaction(
    turn: RunningTurn,
    version: ItemVersion,
    history: Message[],
  ): Promise<void> {
    const { threadId, turnId } = turn;
    try {
      await this.store.completeCompaction({ threadId, turnId, version, history });
    } catch (error) {
      await this.warn(turn, 'store', causeMessage(error));
    }
  }
}
