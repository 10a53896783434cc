import type { AppItem } from '../../../../src/core/model/types';
import { ThreadChangeCounter } from '../../../../src/core/turns/change-counter';
import { notificationsOf } from '../../../../src/core/turns/projection-effects';
import { RunProjector } from '../../../../src/core/turns/run-projector';
import {
  BASH_METADATA,
  missingUsage,
  modelCall,
  projectorHarness,
  RunEventFactory,
  runResult,
  TASK_FINISH_METADATA,
} from './projector-test-support';

const e = new RunEventFactory();
const THREAD = 'thread_00000000000000000000000000000001';
const TURN = 'turn_00000000000000000000000000000001';
const item = (n: number) => `item_${String(n).padStart(32, '0')}`;

describe('RunProjector payloads and rules', () => {
  it('projects run_started as a born-complete userMessage with the turn input; time = round(created_at * 1000)', () => {
    const input = [
      { type: 'text', text: 'Summarize' },
      { type: 'image', url: 'https://example.invalid/a.png' },
    ];
    const h = projectorHarness({ input });
    const effects = h.project([
      e.event('run_started', { input: 'Summarize\n{"type":"image"}' }, 1780410000101.4),
    ]);
    const expected = {
      itemId: item(1),
      threadId: THREAD,
      turnId: TURN,
      type: 'userMessage',
      status: 'completed',
      payload: { text: 'Summarize\n{"type":"image"}', input },
      createdAt: 1780410000101,
      updatedAt: 1780410000101,
    };
    expect(effects).toEqual([
      { kind: 'item', version: { item: expected, createdSeq: 1, changeSeq: 1 }, persist: true },
      { kind: 'notification', notification: { kind: 'itemCompleted', params: expected } },
    ]);
  });

  it('accumulates assistant text: started with "", each delta carries only its chunk (§4.8 v1.1); deltas stay in memory', () => {
    const h = projectorHarness();
    const effects = h.project([
      e.event('model_call_started', modelCall(1), 2_000),
      e.event('assistant_delta', { delta: 'Hello', cycle_index: 1 }, 2_010),
      e.event('assistant_delta', { delta: '', cycle_index: 1 }, 2_015),
      e.event('assistant_delta', { delta: ' world', cycle_index: 1 }, 2_020),
      e.event('model_call_completed', { ...modelCall(1), usage: missingUsage() }, 2_030),
    ]);
    const base = { itemId: item(1), threadId: THREAD, turnId: TURN, type: 'agentMessage', createdAt: 2_010 };
    expect(notificationsOf(effects)).toEqual([
      {
        kind: 'itemStarted',
        params: { ...base, status: 'inProgress', payload: { text: '' }, updatedAt: 2_010 },
      },
      {
        kind: 'agentMessageTextDelta',
        params: {
          ...base,
          status: 'inProgress',
          payload: { text: 'Hello' },
          updatedAt: 2_010,
          delta: 'Hello',
        },
      },
      {
        kind: 'agentMessageTextDelta',
        params: {
          ...base,
          status: 'inProgress',
          payload: { text: ' world' },
          updatedAt: 2_020,
          delta: ' world',
        },
      },
      {
        kind: 'itemCompleted',
        params: { ...base, status: 'completed', payload: { text: 'Hello world' }, updatedAt: 2_030 },
      },
    ]);
    expect(effects.flatMap((x) => (x.kind === 'item' ? [[x.version.changeSeq, x.persist]] : []))).toEqual([
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
  });

  it('opens one agentMessage per model call', () => {
    const h = projectorHarness();
    h.project([
      e.event('assistant_delta', { delta: 'one', cycle_index: 1 }, 1),
      e.event('model_call_completed', { ...modelCall(1), usage: missingUsage() }, 2),
      e.event('model_call_completed', { ...modelCall(1, 2), usage: missingUsage() }, 3),
      e.event('assistant_delta', { delta: 'two', cycle_index: 2 }, 4),
    ]);
    expect(h.projector.liveItems().map((v) => [v.item.payload.text, v.item.status])).toEqual([
      ['one', 'completed'],
      ['two', 'inProgress'],
    ]);
  });

  it('builds toolCall items: started payload, arguments delta, completion members copied, camelCase metadata', () => {
    const h = projectorHarness();
    const effects = h.project([
      e.event(
        'tool_call_planned',
        { tool_call_id: 'call_1', tool_name: 'bash', arguments: { command: 'ls' } },
        1_000,
      ),
      e.event(
        'tool_call_started',
        {
          tool_call_id: 'call_1',
          tool_name: 'bash',
          arguments: { command: 'ls' },
          tool_metadata: BASH_METADATA,
        },
        1_001,
      ),
      e.event(
        'tool_call_completed',
        {
          tool_call_id: 'call_1',
          tool_name: 'bash',
          status: 'wait_response',
          directive: 'continue',
          error_code: null,
          execution_started: true,
          duration_ms: 12,
          tool_metadata: BASH_METADATA,
          output_preview: 'a.txt\n',
          output_truncated: true,
        },
        1_013,
      ),
    ]);
    const toolMetadata = {
      sideEffect: 'execute',
      idempotency: 'unsupported',
      terminal: false,
      capabilityTags: [],
      costDimensions: [],
    };
    const started = { toolCallId: 'call_1', toolName: 'bash', arguments: { command: 'ls' }, toolMetadata };
    const notes = notificationsOf(effects);
    expect(notes.map((n) => n.kind)).toEqual(['itemStarted', 'toolCallArgumentsDelta', 'itemCompleted']);
    expect(notes[0].params).toMatchObject({
      status: 'inProgress',
      payload: started,
      createdAt: 1_001,
      updatedAt: 1_001,
    });
    expect(notes[1].params).toEqual({ ...notes[0].params, delta: { command: 'ls' } });
    expect(notes[2].params).toEqual({
      ...notes[0].params,
      // wait_response ends the call: completed, payload.status keeps the runtime value (§5.5).
      status: 'completed',
      updatedAt: 1_013,
      payload: {
        ...started,
        status: 'wait_response',
        directive: 'continue',
        errorCode: null,
        executionStarted: true,
        durationMs: 12,
        output: 'a.txt\n',
        outputTruncated: true,
      },
    });
    expect(Object.keys((notes[2].params as AppItem).payload.toolMetadata as object)).not.toContain(
      'resultRetention',
    );
  });

  it('creates a born-failed toolCall without arguments when the call never started, copying only present members', () => {
    const h = projectorHarness();
    const completion = {
      tool_call_id: 'call_2',
      tool_name: 'write_file',
      status: 'error',
      directive: 'continue',
      error_code: 'invalid_tool_arguments',
      execution_started: false,
      duration_ms: null,
    } as const;
    const notes = notificationsOf(h.project([e.event('tool_call_completed', completion, 5_000)]));
    expect(notes).toEqual([
      {
        kind: 'itemCompleted',
        params: {
          itemId: item(1),
          threadId: THREAD,
          turnId: TURN,
          type: 'toolCall',
          status: 'failed',
          payload: {
            toolCallId: 'call_2',
            toolName: 'write_file',
            status: 'error',
            directive: 'continue',
            errorCode: 'invalid_tool_arguments',
            executionStarted: false,
            durationMs: null,
          },
          createdAt: 5_000,
          updatedAt: 5_000,
        },
      },
    ]);
  });

  it("hands a never-started call's planned arguments on as the notification's detail, never in its item", () => {
    const h = projectorHarness();
    const planned = { path: 'a.txt', start_line: 0 };
    const notes = notificationsOf(
      h.project([
        e.event(
          'tool_call_planned',
          { tool_call_id: 'call_3', tool_name: 'read_file', arguments: planned },
          4_000,
        ),
        e.event(
          'tool_call_completed',
          {
            tool_call_id: 'call_3',
            tool_name: 'read_file',
            status: 'error',
            directive: 'continue',
            error_code: 'invalid_tool_arguments',
            execution_started: false,
            duration_ms: null,
          },
          5_000,
        ),
      ]),
    );
    expect(notes).toEqual([
      {
        kind: 'itemCompleted',
        params: expect.objectContaining({ type: 'toolCall', status: 'failed' }),
        detail: { plannedArguments: planned },
      },
    ]);
    expect((notes[0].params as AppItem).payload).not.toHaveProperty('arguments');
  });

  describe('approvals', () => {
    const requested = (metadata?: Record<string, unknown>, tool = 'bash') =>
      e.event(
        'approval_requested',
        {
          request_id: 'approval_1',
          tool_call_id: 'call_1',
          tool_name: tool,
          message: `Approval required for tool ${tool}.`,
          ...(metadata ? { metadata } : {}),
        },
        3_000,
      );

    it.each([
      [
        'the planned arguments of the same tool call',
        true,
        { arguments: { command: 'other' } },
        { command: 'npm test' },
      ],
      [
        'the event metadata arguments when nothing was planned',
        false,
        { arguments: { command: 'from meta' }, tool_name: 'bash' },
        { command: 'from meta' },
      ],
      ['{} when neither exists', false, undefined, {}],
    ])('takes arguments from %s', (_name, withPlan, metadata, expected) => {
      const h = projectorHarness();
      if (withPlan)
        h.project([
          e.event(
            'tool_call_planned',
            { tool_call_id: 'call_1', tool_name: 'bash', arguments: { command: 'npm test' } },
            2_999,
          ),
        ]);
      h.project([requested(metadata)]);
      expect(h.projector.approval('approval_1')?.params.arguments).toEqual(expected);
    });

    it('emits item/started then approval/requested and exposes both to the approval route', () => {
      const h = projectorHarness();
      h.project([
        e.event(
          'tool_call_planned',
          { tool_call_id: 'call_1', tool_name: 'bash', arguments: { command: 'npm test' } },
          2_999,
        ),
      ]);
      const notes = notificationsOf(h.project([requested()]));
      const approvalItem = {
        itemId: item(1),
        threadId: THREAD,
        turnId: TURN,
        type: 'approval',
        status: 'inProgress',
        payload: {
          requestId: 'approval_1',
          toolCallId: 'call_1',
          toolName: 'bash',
          preview: 'Run npm test',
          arguments: { command: 'npm test' },
        },
        createdAt: 3_000,
        updatedAt: 3_000,
      };
      const params = {
        requestId: 'approval_1',
        threadId: THREAD,
        turnId: TURN,
        toolCallId: 'call_1',
        toolName: 'bash',
        preview: 'Run npm test',
        arguments: { command: 'npm test' },
      };
      expect(notes).toEqual([
        { kind: 'itemStarted', params: approvalItem },
        { kind: 'approvalRequested', params },
      ]);
      expect(h.projector.approval('approval_1')).toEqual({ item: approvalItem, params });
      expect(h.projector.approval('approval_unknown')).toBeUndefined();
    });

    it('completes the approval item with decision, non-empty reason and non-empty metadata only', () => {
      const h = projectorHarness();
      h.project([requested(undefined, 'fetch')]);
      const notes = notificationsOf(
        h.project([
          e.event(
            'approval_resolved',
            {
              request_id: 'approval_1',
              tool_call_id: 'call_1',
              tool_name: 'fetch',
              action: 'allow_session',
              metadata: { reason: '', decision_metadata: { scope: 'thread' } },
            },
            4_000,
          ),
        ]),
      );
      expect(notes).toEqual([
        {
          kind: 'itemCompleted',
          params: expect.objectContaining({
            status: 'completed',
            updatedAt: 4_000,
            payload: {
              requestId: 'approval_1',
              toolCallId: 'call_1',
              toolName: 'fetch',
              preview: 'fetch {}',
              arguments: {},
              decision: 'allow_session',
              metadata: { scope: 'thread' },
            },
          }),
        },
      ]);
    });

    it('ignores a resolution for a request it never saw', () => {
      const h = projectorHarness();
      expect(
        h.project([
          e.event(
            'approval_resolved',
            { request_id: 'approval_x', tool_call_id: 'c', tool_name: 'bash', action: 'allow' },
            1,
          ),
        ]),
      ).toEqual([]);
    });
  });

  describe('steered user messages', () => {
    const applied = (steerId: string, text: string) =>
      e.event('steer_applied', { steer_id: steerId, input: text, cycle_index: 2 }, 7_000);

    it('matches by steer id first, then by text, and omits input when the steer is unknown', () => {
      const h = projectorHarness();
      h.projector.registerSteer({
        steerId: 'steer_a',
        text: 'same',
        input: [
          { type: 'text', text: 'same' },
          { type: 'note', n: 1 },
        ],
      });
      h.projector.registerSteer({ text: 'by text', input: [{ type: 'text', text: 'by text' }] });
      const notes = notificationsOf(
        h.project([
          applied('steer_a', 'same'),
          applied('steer_b', 'by text'),
          applied('steer_c', 'stranger'),
        ]),
      );
      expect(notes.map((n) => (n.params as AppItem).payload)).toEqual([
        {
          text: 'same',
          input: [
            { type: 'text', text: 'same' },
            { type: 'note', n: 1 },
          ],
          steered: true,
        },
        { text: 'by text', input: [{ type: 'text', text: 'by text' }], steered: true },
        { text: 'stranger', steered: true },
      ]);
    });
  });

  describe('final agentMessage (§8.4)', () => {
    const finishing = (final: string | null) =>
      e.event(
        'run_completed',
        { status: 'completed', final_output: final, completion_reason: 'tool_finish' },
        9_000,
      );
    const stream = (text: string) => [
      e.event('assistant_delta', { delta: text, cycle_index: 1 }, 8_000),
      e.event('model_call_completed', { ...modelCall(1), usage: missingUsage() }, 8_001),
    ];

    it.each([
      ['no agentMessage in the turn', [], 'Answer', true],
      ['the last agentMessage differs', ['Other', 'Almost'], 'Answer', true],
      ['an earlier one matches but the last differs', ['Answer', 'Other'], 'Answer', true],
      ['the last agentMessage equals the answer', ['Other', 'Answer'], 'Answer', false],
      ['an empty answer', [], '', false],
      ['a null answer', [], null, false],
    ])('%s', (_name, texts, answer, created) => {
      const h = projectorHarness({ clock: [12_345] });
      h.project(texts.flatMap(stream));
      const notes = notificationsOf(h.project([finishing(answer)]));
      if (!created) {
        expect(notes).toEqual([]);
        return;
      }
      expect(notes).toEqual([
        {
          kind: 'itemCompleted',
          params: expect.objectContaining({
            type: 'agentMessage',
            status: 'completed',
            payload: { text: answer, final: true },
            createdAt: 12_345,
            updatedAt: 12_345,
          }),
        },
      ]);
    });
  });

  describe('finalize', () => {
    it('a rejected run without events: userMessage and error item (server clock), run_failed warning, only the user message in history', () => {
      const h = projectorHarness({
        input: [
          { type: 'text', text: 'Hi' },
          { type: 'image', url: 'u' },
        ],
        clock: [50, 51, 52, 53],
      });
      const done = h.projector.finalize({ kind: 'rejected', error: 'agent resolution failed' });
      expect(notificationsOf(done.effects)).toEqual([
        {
          kind: 'itemCompleted',
          params: expect.objectContaining({
            type: 'userMessage',
            status: 'completed',
            payload: {
              text: 'Hi\n{"type":"image","url":"u"}',
              input: [
                { type: 'text', text: 'Hi' },
                { type: 'image', url: 'u' },
              ],
            },
            createdAt: 50,
          }),
        },
        {
          kind: 'itemCompleted',
          params: expect.objectContaining({
            type: 'error',
            status: 'completed',
            payload: { message: 'agent resolution failed' },
            createdAt: 51,
          }),
        },
        {
          kind: 'warning',
          params: { threadId: THREAD, turnId: TURN, code: 'run_failed', message: 'agent resolution failed' },
        },
      ]);
      expect(done.status).toBe('failed');
      expect(done.turnCompleted).toMatchObject({
        status: 'failed',
        error: 'agent resolution failed',
        completionReason: 'failed',
      });
      expect(done.messages).toEqual([{ role: 'user', content: 'Hi\n{"type":"image","url":"u"}' }]);
    });

    it('a rejection after run_started and run_failed with the same text adds nothing twice', () => {
      const h = projectorHarness();
      h.project([e.event('run_started', { input: 'hello' }, 1), e.event('run_failed', { error: 'boom' }, 2)]);
      const done = h.projector.finalize({ kind: 'rejected', error: 'boom' });
      expect(notificationsOf(done.effects)).toEqual([]);
    });

    it('a thrown event stream: event_stream warning first, then interrupted completions (server clock)', () => {
      const h = projectorHarness({ clock: [777, 778] });
      h.project([
        e.event('run_started', { input: 'hello' }, 1),
        e.event('assistant_delta', { delta: 'par', cycle_index: 1 }, 2),
      ]);
      const done = h.projector.finalize({ kind: 'streamFailed', error: 'iterator exploded', result: null });
      expect(notificationsOf(done.effects)).toEqual([
        {
          kind: 'warning',
          params: { threadId: THREAD, turnId: TURN, code: 'event_stream', message: 'iterator exploded' },
        },
        {
          kind: 'itemCompleted',
          params: expect.objectContaining({
            type: 'agentMessage',
            status: 'interrupted',
            payload: { text: 'par' },
            createdAt: 2,
            updatedAt: 777,
          }),
        },
      ]);
      expect(done.turnCompleted).toMatchObject({
        status: 'failed',
        error: 'iterator exploded',
        completionReason: 'failed',
      });
      expect(done.completedAt).toBe(778);
    });

    it('returns the run’s new messages for history and the stored result without ids and status', () => {
      const h = projectorHarness();
      const newMessages = [
        { role: 'user' as const, content: 'hello' },
        { role: 'assistant' as const, content: 'hi' },
      ];
      const done = h.projector.finalize({
        kind: 'finished',
        result: runResult({ finalAnswer: 'hi', newMessages }),
      });
      expect(done.messages).toEqual(newMessages);
      expect(done.turnCompleted).toMatchObject({
        threadId: THREAD,
        turnId: TURN,
        runId: 'run_00000000000000000000000000000001',
        status: 'completed',
      });
      expect(Object.keys(done.result)).toEqual([
        'finalOutput',
        'completionReason',
        'completionToolName',
        'tokenUsage',
      ]);
    });

    it('emits nothing after finalization and refuses to finalize twice', () => {
      const h = projectorHarness();
      h.projector.finalize({ kind: 'finished', result: runResult() });
      expect(h.projector.finalized).toBe(true);
      expect(h.project([e.event('run_started', { input: 'late' }, 1)])).toEqual([]);
      expect(() => h.projector.finalize({ kind: 'finished', result: runResult() })).toThrow(
        'turn already finalized',
      );
    });
  });

  it('continues the thread change counter across turns', () => {
    const counter = new ThreadChangeCounter(41);
    const make = (turnId: string) =>
      new RunProjector({
        threadId: THREAD,
        turnId,
        runId: 'run_1',
        input: [],
        now: () => 0,
        newItemId: () => `item_${turnId}`,
        changeCounter: counter,
      });
    const first = make('turn_a');
    first.project(e.event('run_started', { input: '' }, 1));
    const second = make('turn_b');
    second.project(e.event('run_started', { input: '' }, 2));
    expect(first.liveItems()[0]).toMatchObject({ createdSeq: 42, changeSeq: 42 });
    expect(second.liveItems()[0]).toMatchObject({ createdSeq: 43, changeSeq: 43 });
    expect(counter.last).toBe(43);
  });

  it('hands out snapshots: mutating emitted params never changes the projector state', () => {
    const h = projectorHarness();
    const [, note] = h.project([
      e.event(
        'tool_call_started',
        {
          tool_call_id: 'c',
          tool_name: 'task_finish',
          arguments: { message: 'm' },
          tool_metadata: TASK_FINISH_METADATA,
        },
        1,
      ),
    ]);
    if (note.kind !== 'notification') throw new Error('expected a notification');
    (note.notification.params as AppItem).payload.toolName = 'tampered';
    expect(h.projector.liveItems()[0].item.payload.toolName).toBe('task_finish');
  });
});
