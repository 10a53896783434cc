/**
 * `resolveApproval` wherever the turn runs (docs/spec/postgres.md §2 "control across instances"): resolved
 * here when the request was sent to the requester by this instance; else, when the turn runs on
 * another instance of the store, that instance resolves it for the requester (its owner there is
 * the requester's remote id) and its answer is the answer.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, DomainErrors } from '../domain-error';
import { ActiveTurns } from './active-turns';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import {
  TURN_CONTROL_FORWARDER,
  type ForwardedReply,
  type TurnControlForwarder,
} from './turn-control-forwarding';
import {
  ApprovalRouter,
  type ApprovalAnnouncement,
  type ClientApprovalResolution,
} from '../approvals/approval-router';
import { remoteOwnerId } from '../approvals/remote-owner';

const FORWARDED_OPERATION = 'resolveApproval';

@Injectable()
export class ApprovalResolutions {
  constructor(
    @Inject(ApprovalRouter) private readonly router: ApprovalRouter,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(TURN_CONTROL_FORWARDER) private readonly remote: TurnControlForwarder | null,
  ) {
    remote?.answerWith((operation, params, origin) =>
      operation === FORWARDED_OPERATION ? this.answerForwarded(params, origin) : undefined,
    );
  }

  /**
   * The announcement to run after the `{}` response (null when the owner's instance announces it);
   * `UnknownApprovalRequest` when nothing matched.
   */
  async resolve(
    connectionId: string,
    resolution: ClientApprovalResolution,
  ): Promise<ApprovalAnnouncement | null> {
    const announce = this.router.resolveByClient(connectionId, resolution);
    if (announce !== null) return announce;
    if (this.remote === null || this.activeTurns.live(resolution.threadId) !== undefined)
      throw DomainErrors.unknownApprovalRequest();
    // Only a turn the store says is active elsewhere has an owner instance to ask.
    const stored = await this.store.threads.get(resolution.threadId);
    if (stored?.activeTurnId !== resolution.turnId) throw DomainErrors.unknownApprovalRequest();
    const answer = await this.remote.forward(FORWARDED_OPERATION, { resolution, requesterId: connectionId });
    if ('error' in answer) throw new DomainError(answer.error.kind, answer.error.message, answer.error.data);
    return null;
  }

  private answerForwarded(params: Record<string, unknown>, origin: string): ForwardedReply | undefined {
    const resolution = params.resolution as ClientApprovalResolution | undefined;
    if (resolution === undefined || this.activeTurns.live(resolution.threadId) === undefined)
      return undefined;
    const announce = this.router.resolveByClient(
      remoteOwnerId(origin, String(params.requesterId)),
      resolution,
    );
    if (announce === null) {
      const error = DomainErrors.unknownApprovalRequest();
      return { error: { kind: error.kind, message: error.message } };
    }
    return { result: {}, afterAnswer: () => void announce() };
  }
}
