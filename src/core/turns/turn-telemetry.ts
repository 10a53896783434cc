/**
 * A turn's `invoke_agent vv-agent` span and its metrics (docs/spec/observability.md §2, §3): started
 * when the turn is launched, under the request that started it (or the turn it follows up), ended
 * once with the turn's status, whichever path ends the turn.
 */
import { telemetry } from '../../runtime/telemetry/current-telemetry';
import type { RunTrace } from '../../runtime/telemetry/run-spans';
import type { TelemetrySpan } from '../../runtime/telemetry/telemetry';

export interface TurnTelemetryInit {
  threadId: string;
  turnId: string;
  agentKey: string;
  /** The request span (turn/start, thread/compact) or, for a follow-up, the previous turn's span. */
  parent: TelemetrySpan | undefined;
}

export class TurnTelemetry {
  readonly span: TelemetrySpan;
  private readonly startedAt = performance.now();
  private ended = false;

  constructor(init: TurnTelemetryInit) {
    const attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': init.agentKey,
      'gen_ai.conversation.id': init.threadId,
      'vv_agent.turn.id': init.turnId,
      'vv_agent.transport': telemetry().transport,
    };
    this.span =
      init.parent?.child('invoke_agent vv-agent', 'internal', attributes) ??
      telemetry().startSpan('invoke_agent vv-agent', 'internal', attributes);
    telemetry().add('vv_agent.turns.active', 1);
  }

  /** What the run gets: its spans go under the turn's; undefined when telemetry is off. */
  runTrace(): RunTrace | undefined {
    return telemetry().enabled ? { parent: this.span } : undefined;
  }

  /** Idempotent; `status` is the turn's terminal status (or `failed` for a turn that never ran). */
  end(status: string, errorType?: string): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttributes({ 'vv_agent.turn.status': status });
    if (errorType !== undefined) this.span.fail(errorType);
    this.span.end();
    telemetry().add('vv_agent.turns.active', -1);
    telemetry().record('vv_agent.turn.duration', (performance.now() - this.startedAt) / 1000, {
      'vv_agent.turn.status': status,
    });
  }
}
