/**
 * The approval route (docs/spec/protocol.md §9.2–§9.5), the one owner of the server's approval state: the
 * pending requests, their timers, the `allow_session` grants and the providers that read them. It
 * asks the turn owner (through the ApprovalChannel) and resolves each request exactly once — by
 * the owner's answer, `resolveApproval`, timer expiry, an interrupt, shutdown, or the runtime
 * itself. An owner that goes away does not resolve anything (docs/spec/websocket.md §6): the request is held,
 * its timer keeps running, and it is asked again of the connection that takes the turn over. Resolving withdraws the server request, stops the timer, hands the decision to the run
 * (`RunHandle.approve`) and broadcasts `approvalResolved` exactly once; the turn forwarder waits
 * for that broadcast before it completes the approval item (§7.5 approval order).
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RunEventOf } from '../../runtime/events/types';
import type { RunHandle } from '../../runtime/run-config';
import { causeMessage } from '../../runtime/cause-message';
import type { ApprovalRequestParams, ApprovalResolvedParams } from '../model/types';
import { THREAD_EVENT_BUS, type ThreadEventBus } from '../events/thread-event-bus';
import { APPROVAL_CHANNEL, type ApprovalChannel, type OwnerAnswer } from './approval-channel';
import { ServerLifecycle } from '../lifecycle/server-lifecycle';
import { INSTANCE_LEASE, type InstanceLease } from '../lifecycle/instance-lease';
import { approvalResolvedFromEvent, approvalResolvedParams } from './approval-projection';
import {
  APPROVAL_REASONS,
  decisionFromAnswer,
  invalidAnswerProblem,
  timeoutDecision,
} from './approval-answer';
import { SessionGrants } from './session-grants';
import { ServerApprovalProvider } from './server-approval-provider';
import { ApprovalBroker } from '../../runtime/approvals/approval-broker';
import type { ApprovalDecision, ApprovalProvider } from '../../runtime/approvals/types';

/** What the route needs of a turn. */
export interface ApprovalTurn {
  readonly threadId: string;
  readonly turnId: string;
  readonly ownerConnectionId: string;
  /** The server's approval timer for this turn. */
  readonly approvalTimeoutMs: number;
  readonly handle: Pick<RunHandle, 'approve'>;
  /** Stopped here because another instance ended it (docs/spec/postgres.md §2): nothing more is sent for it. */
  readonly abandoned?: boolean;
}

/** An approval resolution request's params as validated by the dispatcher. */
export interface ClientApprovalResolution {
  threadId: string;
  turnId: string;
  requestId: string;
  decision: string;
  reason?: string;
  metadata?: Record<string, unknown>;
}

/** Broadcasts a resolution's `approvalResolved` later (after the resolving handler's response). */
export type ApprovalAnnouncement = () => Promise<void>;

interface PendingApproval {
  readonly turn: ApprovalTurn;
  readonly params: ApprovalRequestParams;
  /** The connection the server request is pending on; null while held (no owner to ask). */
  sentTo: string | null;
  timer: NodeJS.Timeout | null;
  /** Set by the first resolution; resolves once its `approvalResolved` is enqueued. */
  announced: Promise<void> | null;
}

@Injectable()
export class ApprovalRouter {
  private readonly logger = new Logger('ApprovalRouter');
  private readonly pending = new Map<string, PendingApproval>();
  /** The `allow_session` grants; only the route records them, only its providers read them. */
  private readonly grants = new SessionGrants();

  constructor(
    @Inject(APPROVAL_CHANNEL) private readonly channel: ApprovalChannel,
    @Inject(ServerLifecycle) private readonly lifecycle: ServerLifecycle,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(INSTANCE_LEASE) private readonly lease: InstanceLease,
  ) {}

  /**
   * What a run of this thread decides approvals with when the host sets nothing else: a provider
   * that asks unless the thread holds a session grant, and a fresh broker the route hands its
   * decisions to (through `RunHandle.approve`).
   */
  approvalsForRun(threadId: string): { approvalProvider: ApprovalProvider; approvalBroker: ApprovalBroker } {
    return {
      approvalProvider: new ServerApprovalProvider(threadId, this.grants),
      approvalBroker: new ApprovalBroker(),
    };
  }

  /**
   * §9.2 step 2, right after `approvalRequested` was broadcast: the timer and the server request
   * to the owner — held while the turn has no reachable owner (docs/spec/websocket.md §6.4); during shutdown
   * an immediate timeout.
   */
  open(turn: ApprovalTurn, params: ApprovalRequestParams): void {
    const entry: PendingApproval = { turn, params, sentTo: null, timer: null, announced: null };
    this.pending.set(params.requestId, entry);
    if (this.lifecycle.isShuttingDown) {
      this.settle(entry, timeoutDecision(APPROVAL_REASONS.shuttingDown), 'now');
      return;
    }
    entry.timer = setTimeout(
      () => this.settle(entry, timeoutDecision(APPROVAL_REASONS.timedOut), 'now'),
      turn.approvalTimeoutMs,
    );
    const ownerId = turn.ownerConnectionId;
    if (this.channel.canReach(ownerId)) this.ask(entry, ownerId);
  }

  /** True while `connectionId` is open: a turn whose owner is not reachable has no owner for now. */
  canReach(connectionId: string): boolean {
    return this.channel.canReach(connectionId);
  }

  /**
   * docs/spec/websocket.md §6.2: `ownerId` took the turn over. Every still-pending request of the turn is
   * asked of it, in the order they were first requested, with the same params and request id —
   * after what its resume hold keeps (so right after the resume response).
   */
  handOver(turnId: string, ownerId: string): void {
    for (const entry of this.pending.values()) {
      if (entry.turn.turnId !== turnId || entry.announced !== null || entry.sentTo === ownerId) continue;
      if (entry.sentTo !== null) this.channel.withdraw(entry.sentTo, entry.params.requestId);
      this.ask(entry, ownerId);
    }
  }

  private ask(entry: PendingApproval, ownerId: string): void {
    entry.sentTo = ownerId;
    // After `approvalRequested` also when the owner is held by its own resume.
    this.events.inThreadOrder(entry.turn.threadId, ownerId, () => {
      if (entry.announced !== null || entry.sentTo !== ownerId) return;
      void this.channel
        .ask(ownerId, entry.params)
        .then((outcome) => this.onOwnerOutcome(entry, ownerId, outcome));
    });
  }

  /**
   * `resolveApproval` (§3.13): resolves the request only when it was sent to `connectionId` and
   * belongs to the same thread and turn. Returns the announcement to run after the `{}` response,
   * or null when nothing matched.
   */
  resolveByClient(connectionId: string, resolution: ClientApprovalResolution): ApprovalAnnouncement | null {
    const entry = this.pending.get(resolution.requestId);
    if (
      entry === undefined ||
      entry.announced !== null ||
      entry.sentTo !== connectionId ||
      entry.turn.threadId !== resolution.threadId ||
      entry.turn.turnId !== resolution.turnId
    ) {
      return null;
    }
    const answer: Record<string, unknown> = { decision: resolution.decision };
    if (resolution.reason !== undefined) answer.reason = resolution.reason;
    if (resolution.metadata !== undefined) answer.metadata = resolution.metadata;
    return this.settle(entry, decisionFromAnswer({ kind: 'result', result: answer }), 'deferred');
  }

  /**
   * Resolves every unresolved request of the turn as `timeout` with `reason` (an interrupt,
   * shutdown). `deferred`: the caller runs the returned announcements after its response.
   */
  resolveTurn(turnId: string, reason: string, mode: 'now' | 'deferred'): ApprovalAnnouncement[] {
    const announcements: ApprovalAnnouncement[] = [];
    for (const entry of this.pending.values()) {
      if (entry.turn.turnId !== turnId || entry.announced !== null) continue;
      const announcement = this.settle(entry, timeoutDecision(reason), mode);
      if (announcement !== null) announcements.push(announcement);
    }
    return announcements;
  }

  /**
   * Before the forwarder projects `approval_resolved` (§9.2 step 4): waits until the route's
   * `approvalResolved` is enqueued; when the runtime resolved the request on its own, the route
   * announces it from the event first.
   */
  async beforeResolvedEvent(turn: ApprovalTurn, event: RunEventOf<'approval_resolved'>): Promise<void> {
    const entry = this.pending.get(event.request_id);
    if (entry === undefined) {
      await this.broadcast(turn, approvalResolvedFromEvent(turn.threadId, turn.turnId, event));
      return;
    }
    if (entry.announced === null) {
      this.stop(entry);
      if (event.action === 'allow_session') this.grants.grant(turn.threadId, event.tool_name);
      entry.announced = this.broadcast(turn, approvalResolvedFromEvent(turn.threadId, turn.turnId, event));
    }
    await entry.announced;
    this.pending.delete(event.request_id);
  }

  /**
   * The turn ended: stop timers and withdraw what is still pending, without announcing anything —
   * nothing of a turn is emitted after its `turnCompleted` (§7.5).
   */
  forgetTurn(turnId: string): void {
    for (const [requestId, entry] of this.pending) {
      if (entry.turn.turnId !== turnId) continue;
      this.stop(entry);
      entry.announced ??= Promise.resolve();
      this.pending.delete(requestId);
    }
  }

  /** Number of requests the route still tracks (diagnostics and tests). */
  get trackedRequests(): number {
    return this.pending.size;
  }

  private onOwnerOutcome(entry: PendingApproval, askedId: string, outcome: OwnerAnswer): void {
    if (entry.sentTo !== askedId) return;
    switch (outcome.kind) {
      case 'result': {
        // A misspelt answer ({"decision":"approve"}) denies the call; say so where an operator looks.
        const problem = invalidAnswerProblem(outcome.result);
        if (problem !== null)
          this.logger.warn(
            `approval ${entry.params.requestId} (${entry.params.toolName}): invalid approval response, treated as deny: ${problem}`,
          );
        this.settle(entry, decisionFromAnswer(outcome), 'now');
        return;
      }
      case 'error':
        this.settle(entry, decisionFromAnswer(outcome), 'now');
        return;
      case 'closed':
        // The owner went away: held until a new owner resumes the thread or the timer fires (§6.1).
        entry.sentTo = null;
        return;
      case 'withdrawn':
        return;
    }
  }

  /** The first resolution wins; later ones return null and change nothing. */
  private settle(
    entry: PendingApproval,
    decision: ApprovalDecision,
    mode: 'now' | 'deferred',
  ): ApprovalAnnouncement | null {
    if (entry.announced !== null) return null;
    this.stop(entry);
    const { turn, params } = entry;
    if (decision.action === 'allow_session') this.grants.grant(turn.threadId, params.toolName);
    turn.handle.approve(params.requestId, decision).catch((error: unknown) => {
      // The runtime already decided it (e.g. a cancellation won the race): its event tells what happened.
      this.logger.debug(`approval ${params.requestId} not handed to the run: ${causeMessage(error)}`);
    });
    const resolved = approvalResolvedParams(
      { threadId: turn.threadId, turnId: turn.turnId, requestId: params.requestId },
      decision,
    );
    if (mode === 'now') {
      entry.announced = this.broadcast(turn, resolved);
      return null;
    }
    let markAnnounced!: () => void;
    entry.announced = new Promise<void>((resolve) => {
      markAnnounced = resolve;
    });
    return () => this.broadcast(turn, resolved).finally(markAnnounced);
  }

  /** Stops the timer and withdraws the server request (a later client answer is ignored). */
  private stop(entry: PendingApproval): void {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    if (entry.sentTo !== null) this.channel.withdraw(entry.sentTo, entry.params.requestId);
  }

  /**
   * Sent as the turn's other notifications are: not while this instance may have been declared
   * lost (instance-lease.ts) — a timer or a request that fired right after a pause waits for the
   * heartbeat — and not at all for a turn stopped because of it.
   */
  private async broadcast(turn: ApprovalTurn, params: ApprovalResolvedParams): Promise<void> {
    const check = this.lease.check();
    if (check !== null) await check;
    if (turn.abandoned === true) return;
    await this.events.broadcast(turn.threadId, 'approvalResolved', params).catch((error: unknown) => {
      this.logger.error(`announcing the resolution of ${params.requestId} failed: ${causeMessage(error)}`);
    });
  }
}
