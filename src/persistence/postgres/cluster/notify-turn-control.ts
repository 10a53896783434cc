/**
 * TurnControlForwarder over the cluster channel (docs/spec/postgres.md §2): a forwarded request goes to
 * every instance; only the one running the thread's turn answers, addressed to the sender by
 * request id. No answer within 5 s → `turn owner instance did not answer`.
 */
import { randomUUID } from 'node:crypto';
import {
  FORWARD_TIMEOUT_MS,
  OWNER_DID_NOT_ANSWER,
  type ForwardedAnswer,
  type ForwardedControlAnswerer,
  type ForwardedControlOperation,
  type TurnControlForwarder,
} from '../../../core/turns/turn-control-forwarding';
import type { ClusterChannel, ClusterMessage } from './cluster-channel';
import { telemetry } from '../../../runtime/telemetry/current-telemetry';
import type { TraceCarrier } from '../../../runtime/telemetry/telemetry';
import { operationOf, operationWireName } from './cluster-wire-names';

const REQUEST_KIND = 'controlRequest';
const ANSWER_KIND = 'controlAnswer';

export class NotifyTurnControl implements TurnControlForwarder {
  private readonly pending = new Map<string, (answer: ForwardedAnswer) => void>();
  private readonly answerers: ForwardedControlAnswerer[] = [];

  constructor(
    private readonly channel: ClusterChannel,
    private readonly timeoutMs = FORWARD_TIMEOUT_MS,
  ) {
    channel.onMessage((message) => this.receive(message));
  }

  forward(operation: ForwardedControlOperation, params: object): Promise<ForwardedAnswer> {
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve({ error: { kind: 'InternalError', message: OWNER_DID_NOT_ANSWER } });
      }, this.timeoutMs);
      this.pending.set(requestId, (answer) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(answer);
      });
      // docs/spec/observability.md §2: the asking request's trace context travels with it.
      const trace = telemetry().activeSpan().carrier();
      this.channel
        .send({ kind: REQUEST_KIND, requestId, method: operationWireName(operation), params, trace })
        .catch(() => undefined);
    });
  }

  answerWith(answerer: ForwardedControlAnswerer): void {
    this.answerers.push(answerer);
  }

  private receive(message: ClusterMessage): void {
    if (message.kind === ANSWER_KIND && message.to === this.channel.instanceId) {
      this.pending.get(String(message.requestId))?.(message.answer as ForwardedAnswer);
      return;
    }
    if (message.kind !== REQUEST_KIND) return;
    const operation = operationOf(message.method);
    // An operation this version does not know: its owner, if any, is of a version that does.
    if (operation === undefined) return;
    const span = telemetry().startSpan(
      String(message.method),
      'server',
      { 'rpc.system': 'jsonrpc', 'rpc.method': String(message.method), 'vv_agent.forwarded': true },
      message.trace as TraceCarrier | undefined,
    );
    // Every instance hears the request; only the one that answers ends the span, and an unended
    // span is never exported, so the trace shows the owner's handling alone.
    if (telemetry().withSpan(span, () => this.answer(message, operation))) span.end();
  }

  /** Whether this instance answered. */
  private answer(message: ClusterMessage, operation: ForwardedControlOperation): boolean {
    for (const answerer of this.answerers) {
      const reply = answerer(operation, message.params as Record<string, unknown>, message.from);
      if (reply === undefined) continue;
      const { afterAnswer, ...answer } = reply;
      void this.channel
        .send({ kind: ANSWER_KIND, to: message.from, requestId: message.requestId, answer })
        .catch(() => undefined);
      // Queued behind the answer, so what it sends reaches the asker after the answer.
      afterAnswer?.();
      return true;
    }
    return false;
  }
}
