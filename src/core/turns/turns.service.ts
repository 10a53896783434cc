/**
 * Turn control (docs/spec/protocol.md §3.9–§3.12) and each turn's background life: start (with the
 * one-active-turn rule), begin (status running, `turnStarted`, forwarding), finalization, then the
 * thread's queued follow-ups (§3.11); steer, follow-up and interrupt of the active turn.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApprovalRouter, type ApprovalAnnouncement } from '../approvals/approval-router';
import { APPROVAL_REASONS } from '../approvals/approval-answer';
import { ServerLifecycle } from '../lifecycle/server-lifecycle';
import { DomainError, DomainErrors } from '../domain-error';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import {
  TURN_CONTROL_FORWARDER,
  type ForwardedAnswer,
  type ForwardedControlOperation,
  type TurnControlForwarder,
} from './turn-control-forwarding';
import { causeMessage } from '../../runtime/cause-message';
import type {
  ErrorWarningParams,
  TurnCancellation,
  TurnCompaction,
  TurnQueued,
  TurnStart,
} from '../model/types';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../events/thread-event-bus';
import { ThreadSubscriptions } from '../events/thread-subscriptions';
import { ActiveTurns } from './active-turns';
import { FollowUpQueue } from './follow-up-queue';
import { deriveInputText } from './input-text';
import type { RunningTurn } from './running-turn';
import type { TurnControlRequest, TurnInterruptRequest, TurnStartRequest } from './turn-requests';
import { TurnFinalizer } from './turn-finalizer';
import { TurnForwarder } from './turn-forwarder';
import { TurnLauncher, type TurnLaunch } from './turn-launcher';
import type { StoredThread } from '../store/records';
import type { ModelResponseEnding } from './model-response-ending';
import type { TelemetrySpan } from '../../runtime/telemetry/telemetry';

/** Default cancel reason of an interrupt (§3.12) and of shutdown (§1.9). */
export const TURN_INTERRUPTED_REASON = APPROVAL_REASONS.turnInterrupted;
export const SERVER_SHUTTING_DOWN_REASON = APPROVAL_REASONS.shuttingDown;

/** A started turn plus what the handler runs after its response. */
export interface StartedTurn {
  response: TurnStart;
  begin: () => Promise<void>;
  /** How the turn's latest model response ended so far (for ACP's `max_tokens`, docs/spec/acp.md §2). */
  modelResponseEnding: () => ModelResponseEnding | null;
}

/** A started compaction turn (docs/spec/history.md §1) plus what the handler runs after its response. */
export interface StartedCompaction {
  response: TurnCompaction;
  begin: () => Promise<void>;
}

export interface InterruptedTurn {
  response: TurnCancellation;
  /** `approvalResolved` of the approvals the interrupt resolved, after the response. */
  announcements: ApprovalAnnouncement[];
}

@Injectable()
export class TurnsService {
  private readonly logger = new Logger('TurnsService');

  constructor(
    @Inject(ServerLifecycle) private readonly lifecycle: ServerLifecycle,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(FollowUpQueue) private readonly followUps: FollowUpQueue,
    @Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(ApprovalRouter) private readonly approvals: ApprovalRouter,
    @Inject(TurnLauncher) private readonly launcher: TurnLauncher,
    @Inject(TurnForwarder) private readonly forwarder: TurnForwarder,
    @Inject(TurnFinalizer) private readonly finalizer: TurnFinalizer,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(TURN_CONTROL_FORWARDER) private readonly remote: TurnControlForwarder | null,
  ) {
    remote?.answerWith((operation, params) => this.answerForwarded(operation, params));
  }

  /**
   * docs/spec/postgres.md §2: steer / follow-up / interrupt for this thread's turn, wherever it runs. Here
   * when it runs here; else, when the store says the thread has an active turn (another instance
   * on the store runs it), that instance's answer.
   */
  async control(
    operation: ForwardedControlOperation,
    params: TurnControlRequest | TurnInterruptRequest,
  ): Promise<object> {
    if (this.remote === null || this.runsHere(params.threadId)) return this.here(operation, params);
    const stored = await this.store.threads.get(params.threadId);
    if (stored?.activeTurnId == null) throw DomainErrors.activeTurnNotFound();
    // The owner may have finished it meanwhile and this instance started the next one.
    if (this.runsHere(params.threadId)) return this.here(operation, params);
    const answer = await this.remote.forward(operation, params);
    if ('error' in answer) throw new DomainError(answer.error.kind, answer.error.message, answer.error.data);
    return answer.result;
  }

  /** Whether the thread's active turn runs in this instance. */
  runsHere(threadId: string): boolean {
    return this.activeTurns.running(threadId) !== undefined;
  }

  private here(
    operation: ForwardedControlOperation,
    params: TurnControlRequest | TurnInterruptRequest,
  ): object {
    const { response, announce } = this.controlHere(operation, params);
    void announce();
    return response;
  }

  /** The local operation and, for interrupt, its approval announcements (run after the answer). */
  private controlHere(
    operation: ForwardedControlOperation,
    params: TurnControlRequest | TurnInterruptRequest,
  ): { response: object; announce: () => Promise<void> } {
    if (operation === 'steerTurn')
      return { response: this.steer(params as TurnControlRequest), announce: async () => undefined };
    if (operation === 'followUpTurn')
      return { response: this.followUp(params as TurnControlRequest), announce: async () => undefined };
    const { response, announcements } = this.interrupt(params as TurnInterruptRequest);
    return {
      response,
      announce: async () => {
        for (const announce of announcements) await announce();
      },
    };
  }

  /** Another instance forwarded a request: answered only when the thread's turn runs here. */
  private answerForwarded(
    operation: ForwardedControlOperation,
    params: Record<string, unknown>,
  ): ForwardedAnswer | undefined {
    if (operation !== 'steerTurn' && operation !== 'followUpTurn' && operation !== 'interruptTurn')
      return undefined;
    const threadId = params.threadId;
    if (typeof threadId !== 'string' || this.activeTurns.running(threadId) === undefined) return undefined;
    try {
      const { response, announce } = this.controlHere(operation, params as unknown as TurnInterruptRequest);
      void announce();
      return { result: response };
    } catch (error) {
      if (error instanceof DomainError)
        return { error: { kind: error.kind, message: error.message, data: error.data } };
      return { error: { kind: 'InternalError', message: causeMessage(error) } };
    }
  }

  /** §3.9 steps 2–8; the caller responds, then runs `begin` (step 9). */
  async start(
    params: TurnStartRequest,
    requesterId: string,
    traceParent?: TelemetrySpan,
  ): Promise<StartedTurn> {
    this.launcher.checkSandboxRequest(params.sandbox);
    const turn = await this.launchFor(params.threadId, requesterId, (thread) => ({
      thread,
      input: params.input,
      turnMetadata: params.metadata ?? {},
      ownerConnectionId: requesterId,
      traceParent,
      sandbox: params.sandbox,
    }));
    return {
      response: { threadId: turn.threadId, turnId: turn.turnId, status: 'running' },
      begin: () => this.begin(turn),
      modelResponseEnding: () => turn.projector.modelResponseEnding,
    };
  }

  /**
   * Compaction (docs/spec/history.md §1): a compaction turn — input `[]`, the requester owns it, the
   * same checks and notifications as a turn start; the runtime compacts the stored history.
   */
  async compact(
    threadId: string,
    requesterId: string,
    traceParent?: TelemetrySpan,
  ): Promise<StartedCompaction> {
    const turn = await this.launchFor(threadId, requesterId, (thread) => ({
      thread,
      input: [],
      turnMetadata: {},
      ownerConnectionId: requesterId,
      kind: 'compaction',
      traceParent,
    }));
    return { response: { threadId: turn.threadId, turnId: turn.turnId }, begin: () => this.begin(turn) };
  }

  /** -32020, -32021, then the one-active-turn rule (-32602); the requester is subscribed. */
  private async launchFor(
    threadId: string,
    requesterId: string,
    launchOf: (thread: StoredThread) => TurnLaunch,
  ): Promise<RunningTurn> {
    const thread = await this.launcher.loadStartableThread(threadId);
    if (!this.activeTurns.tryReserve(thread.threadId)) throw DomainErrors.threadAlreadyHasActiveTurn();
    let turn: RunningTurn;
    try {
      turn = await this.launcher.launch(launchOf(thread));
    } catch (error) {
      this.activeTurns.release(thread.threadId);
      throw error;
    }
    this.activeTurns.activate(turn);
    this.subscriptions.subscribe(thread.threadId, requesterId);
    return turn;
  }

  /** §3.10: non-empty derived text is queued on the run; its userMessage carries the steer input. */
  steer(params: TurnControlRequest): TurnQueued {
    const turn = this.requireActiveTurn(params.threadId, params.expectedTurnId);
    const text = deriveInputText(params.input);
    if (text.length > 0) {
      try {
        const steerId = turn.handle.steer(text);
        turn.projector.registerSteer({ steerId, text, input: params.input });
      } catch (error) {
        // The run already ended (or rejects the text): steering that cannot be delivered is dropped.
        this.logger.debug(`steer for turn ${turn.turnId} dropped: ${causeMessage(error)}`);
      }
    }
    return { threadId: turn.threadId, turnId: turn.turnId, queued: true };
  }

  /** §3.11: appends the input to the thread's follow-up FIFO. */
  followUp(params: TurnControlRequest): TurnQueued {
    const turn = this.requireActiveTurn(params.threadId, params.expectedTurnId);
    this.followUps.push(turn.threadId, params.input);
    return { threadId: turn.threadId, turnId: turn.turnId, queued: true };
  }

  /**
   * §3.12, in one synchronous step: with `clearFollowUps` (v1.2) the thread's queued follow-ups
   * dropped — before the cancel, so the end of this turn cannot start one of them — then the
   * turn's pending approvals resolved as timeout "turn interrupted" (their server requests
   * withdrawn), then the run cancelled. A forwarded request (docs/spec/postgres.md §2) arrives
   * here on the owner instance, whose queue holds the thread's follow-ups.
   */
  interrupt(params: TurnInterruptRequest): InterruptedTurn {
    const turn = this.requireActiveTurn(params.threadId, params.expectedTurnId);
    // Strictly `true`: a forwarded request arrives as plain JSON, not as a validated DTO.
    const cleared = params.clearFollowUps === true ? this.followUps.clear(turn.threadId) : undefined;
    const announcements = this.approvals.resolveTurn(turn.turnId, TURN_INTERRUPTED_REASON, 'deferred');
    const reason = params.reason?.trim() ?? '';
    turn.handle.cancel(reason.length > 0 ? reason : TURN_INTERRUPTED_REASON);
    const response: TurnCancellation = { threadId: turn.threadId, turnId: turn.turnId, cancelled: true };
    if (cleared !== undefined) response.clearedFollowUps = cleared;
    return { response, announcements };
  }

  /** §3.9 step 9 (and a follow-up's start): running, `turnStarted`, then background forwarding. */
  private async begin(turn: RunningTurn): Promise<void> {
    const { threadId, turnId } = turn;
    await this.events.broadcast(threadId, 'threadStatusChanged', { threadId, status: 'running' });
    await this.events.broadcast(threadId, 'turnStarted', { threadId, turnId });
    // A follow-up that started while the server began shutting down is cancelled like the others.
    if (this.lifecycle.isShuttingDown) turn.handle.cancel(SERVER_SHUTTING_DOWN_REASON);
    turn.trackForwarding(this.drive(turn));
  }

  private async drive(turn: RunningTurn): Promise<void> {
    try {
      const outcome = await this.forwarder.forward(turn);
      if (outcome === null || !(await this.finalizer.finalize(turn, outcome))) return;
    } catch (error) {
      // Defensive: a broken finalization must not leave the thread busy forever.
      this.logger.error(`turn ${turn.turnId} could not be finalized: ${causeMessage(error)}`);
    } finally {
      // The finalizer ended it with the turn's status; any other end (lost, shut down) ends it here.
      turn.telemetry.end('interrupted');
    }
    await this.startNextFollowUp(turn.threadId, turn.ownerConnectionId, turn.telemetry.span);
  }

  /**
   * §8.5 step 5: the thread's slot passes to the next queued follow-up, owned by the previous
   * turn's owner; a follow-up that cannot start is reported (`warning follow_up`) and dropped,
   * and the next one is tried. During shutdown none is started.
   */
  private async startNextFollowUp(
    threadId: string,
    ownerConnectionId: string,
    traceParent: TelemetrySpan,
  ): Promise<void> {
    for (;;) {
      const input = this.lifecycle.isShuttingDown ? undefined : this.followUps.shift(threadId);
      if (input === undefined) {
        this.activeTurns.release(threadId);
        return;
      }
      this.activeTurns.reserveAgain(threadId);
      try {
        const thread = await this.launcher.loadStartableThread(threadId);
        const turn = await this.launcher.launch({
          thread,
          input,
          turnMetadata: {},
          ownerConnectionId,
          traceParent,
        });
        this.activeTurns.activate(turn);
        this.subscriptions.clearClosed(threadId);
        await this.begin(turn);
        return;
      } catch (error) {
        const warning: ErrorWarningParams = { threadId, code: 'follow_up', message: causeMessage(error) };
        await this.events.broadcast(threadId, 'warning', warning);
      }
    }
  }

  /** -32030 without an active turn (unknown threads included); -32031 on a non-empty mismatching id. */
  private requireActiveTurn(threadId: string, expectedTurnId: string | undefined): RunningTurn {
    const turn = this.activeTurns.running(threadId);
    if (turn === undefined) throw DomainErrors.activeTurnNotFound();
    if (expectedTurnId !== undefined && expectedTurnId !== '' && expectedTurnId !== turn.turnId) {
      throw DomainErrors.turnIdMismatch();
    }
    return turn;
  }
}
