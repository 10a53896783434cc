/**
 * Forwards one turn's RunEvents (protocol.md §8.3): for each event in order, the projector's
 * effects are applied in order — item states written to the store at creation and completion
 * (deltas stay in memory), notifications broadcast and awaited so outbound backpressure pauses
 * forwarding (§1.8). A store failure is reported as `error/warning {code:"store"}` and the turn
 * goes on. The approval route is told about approval requests and consulted before an approval
 * item completes.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RunEvent } from '../../runtime/events/types';
import type { Message } from '../../runtime/messages';
import { ApprovalRouter } from '../approvals/approval-router';
import type { ItemVersion } from '../store/records';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { causeMessage } from '../../runtime/cause-message';
import type { ErrorWarningParams } from '../model/types';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../events/thread-event-bus';
import type { ProjectionEffect } from './projection-effects';
import type { RunningTurn } from './running-turn';
import type { TurnOutcome } from './turn-completion';

/** Cancel reason when the event stream broke and the turn is finalized without it. */
const BROKEN_STREAM_CANCEL_REASON = 'event stream failed';

@Injectable()
export class TurnForwarder {
  private readonly logger = new Logger('TurnForwarder');

  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
  ) {}

  /**
   * Forwards every event until the stream ends, then tells how the turn ended; null when shutdown
   * took the turn over (nothing more may be emitted or written for it).
   */
  async forward(turn: RunningTurn): Promise<TurnOutcome | null> {
    let streamError: { message: string } | null = null;
    try {
      for await (const event of turn.handle.events()) {
        if (turn.abandoned) return null;
        await this.forwardEvent(turn, event);
      }
    } catch (error) {
      streamError = { message: causeMessage(error) };
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

  /** Applies effects in order: persisted item states to the store, notifications to the subscribers. */
  async applyEffects(turn: RunningTurn, effects: readonly ProjectionEffect[]): Promise<void> {
    for (const effect of effects) {
      if (turn.abandoned) return;
      if (effect.kind === 'item') {
        if (effect.persist) await this.persistItem(turn, effect.version, effect.compactedHistory);
        continue;
      }
      const { method, params } = effect.notification;
      await this.events.broadcast(turn.threadId, method, params);
      if (method === 'approval/requested') this.approvals.open(turn, params);
    }
  }

  /** `error/warning` for the turn (store failures, §4.13). */
  warn(turn: RunningTurn, code: ErrorWarningParams['code'], message: string): Promise<void> {
    const params: ErrorWarningParams = { threadId: turn.threadId, turnId: turn.turnId, code, message };
    return this.events.broadcast(turn.threadId, 'error/warning', params);
  }

  private async forwardEvent(turn: RunningTurn, event: RunEvent): Promise<void> {
    if (event.type === 'approval_resolved') await this.approvals.beforeResolvedEvent(turn, event);
    await this.applyEffects(turn, turn.projector.project(event));
  }

  private async persistItem(
    turn: RunningTurn,
    version: ItemVersion,
    compactedHistory: Message[] | undefined,
  ): Promise<void> {
    const { threadId, turnId } = turn;
    try {
      if (compactedHistory === undefined) await this.store.items.upsert(version);
      else await this.store.completeCompaction({ threadId, turnId, version, history: compactedHistory });
    } catch (error) {
      await this.warn(turn, 'store', causeMessage(error));
    }
  }
}
