import { notificationsOf, type ProjectionEffect } from '../../../../src/core/turns/projection-effects';
import type { TurnOutcome } from '../../../../src/core/turns/turn-completion';
import type { RunEvent } from '../../../../src/runtime/events/types';
import {
  BASH_METADATA,
  describeNotifications,
  lastNotifiedItems,
  lastPersisted,
  missingUsage,
  modelCall,
  projectorHarness,
  RunEventFactory,
  runResult,
  TASK_FINISH_METADATA,
} from './projector-test-support';

const e = new RunEventFactory();
const NO_USAGE = missingUsage();

/** Events shared by the sequences; times are epoch ms. */
const start = (at = 1_000, input = 'hello'): RunEvent[] => [
  e.event('run_started', { input }, at),
  e.event('agent_started', {}, at),
];
const cycle = (n: number, at: number): RunEvent => e.event('cycle_started', { cycle_index: n }, at);
const modelStarted = (n: number, at: number): RunEvent => e.event('model_call_started', modelCall(n), at);
const delta = (n: number, text: string, at: number): RunEvent =>
  e.event('assistant_delta', { delta: text, cycle_index: n }, at);
const modelCompleted = (n: number, at: number): RunEvent =>
  e.event('model_call_completed', { ...modelCall(n), usage: NO_USAGE }, at);
const modelFailed = (n: number, code: string, at: number): RunEvent =>
  e.event(
    'model_call_failed',
    { ...modelCall(n), usage: NO_USAGE, outcome: 'ambiguous', error_code: code },
    at,
  );
const diagnostic = (code: string, at: number): RunEvent =>
  e.event('diagnostic', { level: 'info', code, details: {} }, at);
const planned = (id: string, name: string, args: Record<string, unknown>, at: number): RunEvent =>
  e.event('tool_call_planned', { tool_call_id: id, tool_name: name, arguments: args }, at);
const toolStarted = (
  id: string,
  name: string,
  args: Record<string, unknown>,
  at: number,
  meta = TASK_FINISH_METADATA,
): RunEvent =>
  e.event(
    'tool_call_started',
    { tool_call_id: id, tool_name: name, arguments: args, tool_metadata: meta },
    at,
  );
const toolCompleted = (
  id: string,
  name: string,
  fields: {
    status?: 'success' | 'error' | 'wait_response';
    directive?: 'continue' | 'finish' | 'wait_user';
    error_code?: string | null;
    started?: boolean;
    output?: string;
  },
  at: number,
  meta = TASK_FINISH_METADATA,
): RunEvent =>
  e.event(
    'tool_call_completed',
    {
      tool_call_id: id,
      tool_name: name,
      status: fields.status ?? 'success',
      directive: fields.directive ?? 'continue',
      error_code: fields.error_code ?? null,
      execution_started: fields.started ?? true,
      duration_ms: fields.started === false ? null : 3,
      tool_metadata: meta,
      output_preview: fields.output ?? '{"ok":true}',
      output_truncated: false,
    },
    at,
  );
const approvalRequested = (
  requestId: string,
  id: string,
  name: string,
  at: number,
  metadata?: Record<string, unknown>,
): RunEvent =>
  e.event(
    'approval_requested',
    {
      request_id: requestId,
      tool_call_id: id,
      tool_name: name,
      message: `Approval required for tool ${name}.`,
      ...(metadata ? { metadata } : {}),
    },
    at,
  );
const approvalResolved = (
  requestId: string,
  id: string,
  name: string,
  action: string,
  reason: string,
  at: number,
): RunEvent =>
  e.event(
    'approval_resolved',
    {
      request_id: requestId,
      tool_call_id: id,
      tool_name: name,
      action,
      metadata: { reason, decision_metadata: {} },
    },
    at,
  );
const completed = (
  final: string | null,
  reason: string,
  tool: string | null,
  at: number,
  status: 'completed' | 'wait_user' = 'completed',
): RunEvent =>
  e.event(
    'run_completed',
    {
      status,
      final_output: final,
      completion_reason: reason as 'tool_finish',
      ...(tool ? { completion_tool_name: tool } : {}),
    },
    at,
  );

const USER = 'item/completed userMessage completed';
const AGENT_STREAM = [
  'item/started agentMessage inProgress',
  'item/agentMessage/delta agentMessage inProgress',
  'item/completed agentMessage completed',
];
const TOOL_EXECUTED = [
  'item/started toolCall inProgress',
  'item/toolCall/delta toolCall inProgress',
  'item/completed toolCall completed',
];
const APPROVAL_OPEN = ['item/started approval inProgress', 'approval/requested'];
const APPROVAL_DONE = 'item/completed approval completed';

interface Sequence {
  events: RunEvent[];
  outcome: TurnOutcome;
  notifications: string[];
  /** Extra notifications from finalize (interrupted completions). */
  finalizeNotifications?: string[];
  status: 'completed' | 'failed' | 'interrupted';
  steers?: Array<{ steerId: string; text: string; input: Record<string, unknown>[] }>;
}

/** docs/spec/runtime.md §6.4 canonical sequences and what §8.3 projects for each. */
const SEQUENCES: Record<string, Sequence> = {
  finish: {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'All ', 1_010),
      delta(1, 'done.', 1_020),
      modelCompleted(1, 1_030),
      diagnostic('cycle_llm_response', 1_031),
      planned('call_f', 'task_finish', { message: 'All done.' }, 1_032),
      toolStarted('call_f', 'task_finish', { message: 'All done.' }, 1_033),
      toolCompleted('call_f', 'task_finish', { directive: 'finish' }, 1_034),
      diagnostic('tool_result', 1_035),
      completed('All done.', 'tool_finish', 'task_finish', 1_036),
    ],
    outcome: { kind: 'finished', result: runResult({ finalAnswer: 'All done.' }) },
    notifications: [
      USER,
      'item/started agentMessage inProgress',
      'item/agentMessage/delta agentMessage inProgress',
      'item/agentMessage/delta agentMessage inProgress',
      'item/completed agentMessage completed',
      ...TOOL_EXECUTED,
    ],
    status: 'completed',
  },
  'approval allow': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      modelCompleted(1, 1_003),
      planned('call_b', 'bash', { command: 'npm test' }, 1_004),
      approvalRequested('approval_a', 'call_b', 'bash', 1_005),
      approvalResolved('approval_a', 'call_b', 'bash', 'allow', '', 1_006),
      toolStarted('call_b', 'bash', { command: 'npm test' }, 1_007, BASH_METADATA),
      toolCompleted('call_b', 'bash', { output: 'ok' }, 1_008, BASH_METADATA),
      diagnostic('tool_result', 1_009),
      cycle(2, 1_010),
      modelStarted(2, 1_011),
      delta(2, 'Tests pass.', 1_012),
      modelCompleted(2, 1_013),
      planned('call_f', 'task_finish', { message: 'Tests pass.' }, 1_014),
      toolStarted('call_f', 'task_finish', { message: 'Tests pass.' }, 1_015),
      toolCompleted('call_f', 'task_finish', { directive: 'finish' }, 1_016),
      completed('Tests pass.', 'tool_finish', 'task_finish', 1_017),
    ],
    outcome: { kind: 'finished', result: runResult({ finalAnswer: 'Tests pass.' }) },
    notifications: [
      USER,
      ...APPROVAL_OPEN,
      APPROVAL_DONE,
      ...TOOL_EXECUTED,
      ...AGENT_STREAM,
      ...TOOL_EXECUTED,
    ],
    status: 'completed',
  },
  denied: {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      modelCompleted(1, 1_003),
      planned('call_b', 'bash', { command: 'rm -r build' }, 1_004),
      approvalRequested('approval_d', 'call_b', 'bash', 1_005),
      approvalResolved('approval_d', 'call_b', 'bash', 'deny', 'Keep it', 1_006),
      toolCompleted(
        'call_b',
        'bash',
        { status: 'error', error_code: 'tool_approval_denied', started: false },
        1_007,
        BASH_METADATA,
      ),
      diagnostic('tool_result', 1_008),
      cycle(2, 1_009),
      modelStarted(2, 1_010),
      delta(2, 'Understood.', 1_011),
      modelCompleted(2, 1_012),
      completed('Understood.', 'no_tool_finish', null, 1_013),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        completionReason: 'no_tool_finish',
        completionToolName: null,
        finalAnswer: 'Understood.',
      }),
    },
    notifications: [USER, ...APPROVAL_OPEN, APPROVAL_DONE, 'item/completed toolCall failed', ...AGENT_STREAM],
    status: 'completed',
  },
  rejected: {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      modelCompleted(1, 1_003),
      planned('call_w', 'write_file', { path: '/etc/passwd' }, 1_004),
      toolCompleted(
        'call_w',
        'write_file',
        { status: 'error', error_code: 'tool_not_allowed', started: false },
        1_005,
      ),
      cycle(2, 1_006),
      modelStarted(2, 1_007),
      delta(2, 'I cannot write there.', 1_008),
      modelCompleted(2, 1_009),
      completed('I cannot write there.', 'no_tool_finish', null, 1_010),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        completionReason: 'no_tool_finish',
        completionToolName: null,
        finalAnswer: 'I cannot write there.',
      }),
    },
    notifications: [USER, 'item/completed toolCall failed', ...AGENT_STREAM],
    status: 'completed',
  },
  steer: {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'Working on it.', 1_003),
      modelCompleted(1, 1_004),
      cycle(2, 1_005),
      e.event('steer_applied', { steer_id: 'steer_1', input: 'Also check docs', cycle_index: 2 }, 1_006),
      modelStarted(2, 1_007),
      delta(2, 'Checked docs too.', 1_008),
      modelCompleted(2, 1_009),
      completed('Checked docs too.', 'no_tool_finish', null, 1_010),
    ],
    steers: [
      { steerId: 'steer_1', text: 'Also check docs', input: [{ type: 'text', text: 'Also check docs' }] },
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        completionReason: 'no_tool_finish',
        completionToolName: null,
        finalAnswer: 'Checked docs too.',
      }),
    },
    notifications: [USER, ...AGENT_STREAM, USER, ...AGENT_STREAM],
    status: 'completed',
  },
  ask_user: {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'I found two build output folders.', 1_003),
      modelCompleted(1, 1_004),
      planned('call_q', 'ask_user', { question: 'build/ or dist/?' }, 1_005),
      toolStarted('call_q', 'ask_user', { question: 'build/ or dist/?' }, 1_006),
      toolCompleted('call_q', 'ask_user', { directive: 'wait_user' }, 1_007),
      completed('build/ or dist/?', 'wait_user', 'ask_user', 1_008, 'wait_user'),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'wait_user',
        completionReason: 'wait_user',
        completionToolName: 'ask_user',
        waitReason: 'build/ or dist/?',
        partialOutput: 'I found two build output folders.',
      }),
    },
    notifications: [USER, ...AGENT_STREAM, ...TOOL_EXECUTED, 'item/completed agentMessage completed'],
    status: 'interrupted',
  },
  'max cycles': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'Still going', 1_003),
      modelCompleted(1, 1_004),
      cycle(2, 1_005),
      modelStarted(2, 1_006),
      delta(2, 'Still going', 1_007),
      modelCompleted(2, 1_008),
      e.event(
        'run_failed',
        { error: 'max_cycles', completion_reason: 'max_cycles', partial_output: 'Still going' },
        1_009,
      ),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'max_cycles',
        completionReason: 'max_cycles',
        completionToolName: null,
        finalAnswer: 'Reached max cycles without finish signal.',
        partialOutput: 'Still going',
      }),
    },
    notifications: [
      USER,
      ...AGENT_STREAM,
      ...AGENT_STREAM,
      'item/completed error completed',
      'error/warning run_failed',
    ],
    status: 'failed',
  },
  'LLM error': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      modelFailed(1, 'model_request_failed', 1_003),
      e.event('run_failed', { error: 'llm request failed: HTTP 503', completion_reason: 'failed' }, 1_004),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'failed',
        completionReason: 'failed',
        completionToolName: null,
        error: 'llm request failed: HTTP 503',
      }),
    },
    notifications: [USER, 'item/completed error completed', 'error/warning run_failed'],
    status: 'failed',
  },
  'LLM error mid-stream': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'Partial', 1_003),
      modelFailed(1, 'model_request_failed', 1_004),
      e.event(
        'run_failed',
        { error: 'stream broke', completion_reason: 'failed', partial_output: 'Partial' },
        1_005,
      ),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'failed',
        completionReason: 'failed',
        completionToolName: null,
        error: 'stream broke',
        partialOutput: 'Partial',
      }),
    },
    notifications: [
      USER,
      'item/started agentMessage inProgress',
      'item/agentMessage/delta agentMessage inProgress',
      'item/completed agentMessage failed',
      'item/completed error completed',
      'error/warning run_failed',
    ],
    status: 'failed',
  },
  'cancel mid-stream': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      delta(1, 'Partial ans', 1_003),
      modelFailed(1, 'model_request_cancelled', 1_004),
      e.event(
        'run_cancelled',
        { reason: 'turn interrupted', completion_reason: 'cancelled', partial_output: 'Partial ans' },
        1_005,
      ),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'failed',
        completionReason: 'cancelled',
        completionToolName: null,
        error: 'turn interrupted',
        partialOutput: 'Partial ans',
      }),
    },
    notifications: [
      USER,
      'item/started agentMessage inProgress',
      'item/agentMessage/delta agentMessage inProgress',
      'item/completed agentMessage interrupted',
    ],
    status: 'interrupted',
  },
  'cancel during an approval wait': {
    events: [
      ...start(),
      cycle(1, 1_001),
      modelStarted(1, 1_002),
      modelCompleted(1, 1_003),
      planned('call_b', 'bash', { command: 'make' }, 1_004),
      approvalRequested('approval_c', 'call_b', 'bash', 1_005),
      approvalResolved('approval_c', 'call_b', 'bash', 'timeout', 'turn interrupted', 1_006),
      toolCompleted(
        'call_b',
        'bash',
        { status: 'error', error_code: 'tool_execution_cancelled', started: false },
        1_007,
        BASH_METADATA,
      ),
      e.event('run_cancelled', { reason: 'turn interrupted', completion_reason: 'cancelled' }, 1_008),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'failed',
        completionReason: 'cancelled',
        completionToolName: null,
        error: 'turn interrupted',
      }),
    },
    notifications: [USER, ...APPROVAL_OPEN, APPROVAL_DONE, 'item/completed toolCall failed'],
    status: 'interrupted',
  },
  'stream ends with a running tool and a pending approval': {
    events: [
      ...start(),
      cycle(1, 1_001),
      toolStarted('call_x', 'bash', { command: 'sleep 100' }, 1_002, BASH_METADATA),
      planned('call_y', 'bash', { command: 'rm x' }, 1_003),
      approvalRequested('approval_p', 'call_y', 'bash', 1_004),
      e.event('run_cancelled', { reason: 'server shutting down', completion_reason: 'cancelled' }, 1_005),
    ],
    outcome: {
      kind: 'finished',
      result: runResult({
        status: 'failed',
        completionReason: 'cancelled',
        completionToolName: null,
        error: 'server shutting down',
      }),
    },
    notifications: [
      USER,
      'item/started toolCall inProgress',
      'item/toolCall/delta toolCall inProgress',
      ...APPROVAL_OPEN,
    ],
    finalizeNotifications: ['item/completed toolCall interrupted', 'item/completed approval interrupted'],
    status: 'interrupted',
  },
};

describe('RunProjector over the canonical runtime sequences (docs/spec/runtime.md §6.4, docs/spec/protocol.md §8.3)', () => {
  describe.each(Object.entries(SEQUENCES))('%s', (_name, sequence) => {
    const run = () => {
      const harness = projectorHarness();
      for (const steer of sequence.steers ?? []) harness.projector.registerSteer(steer);
      harness.project(sequence.events);
      const live = notificationsOf(harness.effects);
      const finalization = harness.projector.finalize(sequence.outcome);
      return { harness, live, finalization, all: [...harness.effects, ...finalization.effects] };
    };

    it('emits exactly the expected notifications, in order', () => {
      const { live, finalization } = run();
      expect(describeNotifications(live)).toEqual(sequence.notifications);
      expect(describeNotifications(notificationsOf(finalization.effects))).toEqual(
        sequence.finalizeNotifications ?? [],
      );
      expect(finalization.status).toBe(sequence.status);
    });

    it('replays every item as its last notification without delta, and persists that final state', () => {
      const { harness, all } = run();
      const notified = lastNotifiedItems(notificationsOf(all));
      const liveItems = harness.projector.liveItems();
      expect(liveItems.map((v) => v.item.itemId)).toEqual([...notified.keys()]);
      const persisted = lastPersisted(all);
      for (const version of liveItems) {
        expect(version.item).toEqual(notified.get(version.item.itemId));
        expect(persisted.get(version.item.itemId)).toEqual(version);
        expect(version.item.status).not.toBe('inProgress');
      }
    });

    it('takes the next change-counter value for every item creation and update', () => {
      const { all } = run();
      const seqs = all.flatMap((effect: ProjectionEffect) =>
        effect.kind === 'item' ? [effect.version.changeSeq] : [],
      );
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      const created = new Map<string, number>();
      for (const effect of all) {
        if (effect.kind !== 'item') continue;
        const first = created.get(effect.version.item.itemId) ?? effect.version.createdSeq;
        created.set(effect.version.item.itemId, first);
        expect(effect.version.createdSeq).toBe(first);
      }
    });
  });
});

describe('RunProjector: how the latest model response ended (for ACP max_tokens, docs/spec/acp.md §2)', () => {
  const report = (finishReason: unknown, toolCallCount: number, at: number): RunEvent =>
    e.event(
      'diagnostic',
      {
        level: 'info',
        code: 'cycle_llm_response',
        details: {
          assistant_preview: '',
          tool_call_names: [],
          tool_call_count: toolCallCount,
          finish_reason: finishReason,
        },
      },
      at,
    );

  it('is null before any model response, then follows each cycle_llm_response report', () => {
    const harness = projectorHarness();
    expect(harness.projector.modelResponseEnding).toBeNull();
    harness.project([...start(), cycle(1, 1_001), modelStarted(1, 1_002), modelCompleted(1, 1_003)]);
    harness.project([report('tool_calls', 2, 1_004), diagnostic('tool_result', 1_005)]);
    expect(harness.projector.modelResponseEnding).toEqual({ finishReason: 'tool_calls', toolCallCount: 2 });
    harness.project([cycle(2, 1_006), report('length', 0, 1_007), diagnostic('tool_result', 1_008)]);
    expect(harness.projector.modelResponseEnding).toEqual({ finishReason: 'length', toolCallCount: 0 });
  });

  it('reads a missing or non-string finish_reason as null', () => {
    const harness = projectorHarness();
    harness.project([...start(), report(undefined, 0, 1_001)]);
    expect(harness.projector.modelResponseEnding).toEqual({ finishReason: null, toolCallCount: 0 });
  });
});
