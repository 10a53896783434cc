/** Synthetic runtime events, run results and a deterministic projector for the turn specs. */
import type { ItemVersion } from '../../../../src/persistence/sqlite';
import type { AppItem } from '../../../../src/core/model/types';
import { ThreadChangeCounter } from '../../../../src/core/turns/change-counter';
import type { ProjectedNotification, ProjectionEffect } from '../../../../src/core/turns/projection-effects';
import { RunProjector, type RunProjectorContext } from '../../../../src/core/turns/run-projector';
import { v1MethodOf } from '../../../../src/protocols/app-server-v1/delivery/v1-notification-methods';
import type {
  RunEvent,
  RunEventEnvelope,
  RunEventPayload,
  RunEventType,
} from '../../../../src/runtime/events/types';
import type { RunResult } from '../../../../src/runtime/run-config';
import type { ToolMetadata } from '../../../../src/runtime/tools/types';
import type { ModelCallRecord, TaskTokenUsage, TokenUsage } from '../../../../src/runtime/usage/types';

/** The event's own fields, plus the envelope `metadata` that approval events carry. */
type PayloadOf<T extends RunEventType> = Omit<Extract<RunEventPayload, { type: T }>, 'type'> &
  Pick<RunEventEnvelope, 'metadata'>;

/** Builds events of one run; `at` is epoch milliseconds, stored as `created_at` seconds like the runtime. */
export class RunEventFactory {
  private count = 0;

  constructor(
    readonly runId = 'run_00000000000000000000000000000001',
    private readonly sessionId?: string,
  ) {}

  event<T extends RunEventType>(type: T, payload: PayloadOf<T>, at: number): RunEvent {
    this.count += 1;
    return {
      version: 'v2',
      event_id: `evt_${String(this.count).padStart(32, '0')}`,
      run_id: this.runId,
      trace_id: 'trace_1',
      created_at: at / 1000,
      agent_name: 'default',
      ...(this.sessionId ? { session_id: this.sessionId } : {}),
      type,
      ...payload,
    } as unknown as RunEvent;
  }
}

export const TASK_FINISH_METADATA: ToolMetadata = {
  side_effect: 'none',
  idempotency: 'supported',
  terminal: true,
  result_retention: 'archive',
  capability_tags: [],
  cost_dimensions: [],
};

export const BASH_METADATA: ToolMetadata = {
  side_effect: 'execute',
  idempotency: 'unsupported',
  terminal: false,
  result_retention: 'preserve',
  capability_tags: [],
  cost_dimensions: [],
};

export function modelCall(
  cycle: number,
  callIndex = 1,
): {
  call_id: string;
  operation_id: string;
  attempt: number;
  operation: 'agent_cycle';
  cycle_index: number;
  backend: string;
  model: string;
} {
  const operation = `op_model_cycle_${cycle}_main${callIndex > 1 ? `_${callIndex}` : ''}`;
  return {
    call_id: `${operation}:attempt:1`,
    operation_id: operation,
    attempt: 1,
    operation: 'agent_cycle',
    cycle_index: cycle,
    backend: 'moonshot',
    model: 'kimi-k3',
  };
}

export function missingUsage(): TokenUsage {
  return {
    schema_version: 'vv-agent.token-usage.v1',
    input_tokens: null,
    output_tokens: null,
    total_tokens: null,
    reasoning_tokens: null,
    usage_source: 'accounting_missing',
    cache_usage: {
      status: 'accounting_missing',
      read_input_tokens: null,
      write_input_tokens: null,
      uncached_input_tokens: null,
      source: null,
    },
    provider_usage: {},
  };
}

/** A ledger with the given per-call usages; aggregates are supplied by the caller when they matter. */
export function ledger(
  calls: Array<{ cycle: number; usage: TokenUsage }>,
  aggregate?: Partial<TaskTokenUsage>,
): TaskTokenUsage {
  const records: ModelCallRecord[] = calls.map(({ cycle, usage }) => ({
    ...modelCall(cycle),
    status: 'completed',
    usage,
    error_code: null,
  }));
  return {
    schema_version: 'vv-agent.task-token-usage.v2',
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    reasoning_tokens: 0,
    cache_usage: {
      status: 'accounting_missing',
      read_input_tokens: null,
      write_input_tokens: null,
      uncached_input_tokens: null,
      source: 'aggregate',
    },
    model_calls: records,
    ...aggregate,
  };
}

export function runResult(overrides: Partial<Omit<RunResult, 'finalOutput'>> = {}): RunResult {
  const base: Omit<RunResult, 'finalOutput'> = {
    runId: 'run_00000000000000000000000000000001',
    traceId: 'trace_1',
    agentName: 'default',
    input: '',
    status: 'completed',
    completionReason: 'tool_finish',
    completionToolName: 'task_finish',
    finalAnswer: null,
    waitReason: null,
    error: null,
    partialOutput: null,
    tokenUsage: ledger([]),
    newMessages: [],
    events: [],
    ...overrides,
  };
  return {
    ...base,
    get finalOutput() {
      return base.finalAnswer ?? base.waitReason ?? base.error;
    },
  };
}

export interface ProjectorHarness {
  projector: RunProjector;
  counter: ThreadChangeCounter;
  /** Every effect produced so far, in order. */
  effects: ProjectionEffect[];
  project(events: readonly RunEvent[]): ProjectionEffect[];
}

/** Ids `item_…0001`, `item_…0002`, … unless a list is given; the clock returns `now` values in turn. */
export function projectorHarness(
  overrides: Partial<RunProjectorContext> & { itemIds?: string[]; clock?: number[] } = {},
): ProjectorHarness {
  const { itemIds, clock, ...contextOverrides } = overrides;
  let idCount = 0;
  const clockValues = [...(clock ?? [])];
  const counter = new ThreadChangeCounter();
  const projector = new RunProjector({
    threadId: 'thread_00000000000000000000000000000001',
    turnId: 'turn_00000000000000000000000000000001',
    runId: 'run_00000000000000000000000000000001',
    input: [{ type: 'text', text: 'hello' }],
    now: () => clockValues.shift() ?? 9_999_999_999_999,
    newItemId: () => {
      idCount += 1;
      return itemIds?.[idCount - 1] ?? `item_${String(idCount).padStart(32, '0')}`;
    },
    changeCounter: counter,
    ...contextOverrides,
  });
  const effects: ProjectionEffect[] = [];
  return {
    projector,
    counter,
    effects,
    project(events) {
      const produced = events.flatMap((event) => projector.project(event));
      effects.push(...produced);
      return produced;
    },
  };
}

/**
 * `method type status` per event, by the v1 method it is delivered as; approval requests and
 * warnings by method (and code).
 */
export function describeNotifications(notifications: readonly ProjectedNotification[]): string[] {
  return notifications.map((n) => {
    if (n.kind === 'warning') return `${v1MethodOf(n.kind)} ${n.params.code}`;
    if (n.kind === 'approvalRequested') return v1MethodOf(n.kind);
    return `${v1MethodOf(n.kind)} ${n.params.type} ${n.params.status}`;
  });
}

/** The params of the last item notification of each item, without `delta` (what a client holds). */
export function lastNotifiedItems(notifications: readonly ProjectedNotification[]): Map<string, AppItem> {
  const last = new Map<string, AppItem>();
  for (const n of notifications) {
    if (n.kind === 'approvalRequested' || n.kind === 'warning') continue;
    const { delta: _delta, ...item } = n.params as AppItem & { delta?: unknown };
    last.set(item.itemId, item);
  }
  return last;
}

export function lastPersisted(effects: readonly ProjectionEffect[]): Map<string, ItemVersion> {
  const last = new Map<string, ItemVersion>();
  for (const effect of effects)
    if (effect.kind === 'item' && effect.persist) last.set(effect.version.item.itemId, effect.version);
  return last;
}
