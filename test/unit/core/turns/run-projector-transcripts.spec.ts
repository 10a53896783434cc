/**
 * The spec transcripts reproduced from synthetic runtime events: the projector's notifications,
 * `turn/completed` and the replayed items (through a real store) must equal the spec's lines,
 * ids and timestamps included (compared as parsed objects).
 */
import { AppServerStore } from '../../../../src/persistence/sqlite';
import { ThreadChangeCounter } from '../../../../src/core/turns/change-counter';
import {
  itemVersionsOf,
  notificationsOf,
  type ProjectionEffect,
} from '../../../../src/core/turns/projection-effects';
import { RunProjector } from '../../../../src/core/turns/run-projector';
import { v1MethodOf } from '../../../../src/protocols/app-server-v1/delivery/v1-notification-methods';
import type { RunEvent } from '../../../../src/runtime/events/types';
import type { ToolMetadata } from '../../../../src/runtime/tools/types';
import type { ProtocolTaskTokenUsage, TaskTokenUsage } from '../../../../src/runtime/usage/types';
import { TRANSCRIPT_14_1, TRANSCRIPT_14_2, TRANSCRIPT_9_8 } from './protocol-transcripts.fixture';
import {
  missingUsage,
  modelCall,
  RunEventFactory,
  runResult,
  TASK_FINISH_METADATA,
} from './projector-test-support';

/** Per-call usage on model events does not affect items; turn usage comes from the run result. */
const TOKEN_USAGE_PLACEHOLDER = missingUsage();

interface WireMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

const PROJECTED_METHODS = new Set([
  'item/started',
  'item/completed',
  'item/agentMessage/delta',
  'item/toolCall/delta',
  'approval/requested',
  'error/warning',
]);
const BASH_EXECUTE: ToolMetadata = {
  side_effect: 'execute',
  idempotency: 'unsupported',
  terminal: false,
  result_retention: 'preserve',
  capability_tags: [],
  cost_dimensions: [],
};

const parse = (lines: readonly string[]): WireMessage[] =>
  lines.map((line) => JSON.parse(line) as WireMessage);

/** The server notifications the projector is responsible for (not the approval route's, not thread/turn ones). */
function projectedLines(messages: WireMessage[]): Array<{ method: string; params: unknown }> {
  return messages
    .filter((m) => m.id === undefined && m.method !== undefined && PROJECTED_METHODS.has(m.method))
    .map((m) => ({ method: m.method!, params: m.params }));
}

function turnCompletedOf(messages: WireMessage[]): Record<string, unknown> {
  const message = messages.find((m) => m.method === 'turn/completed');
  if (!message?.params) throw new Error('no turn/completed in transcript');
  return message.params;
}

/** Item ids in order of first appearance: the order the projector creates them. */
function itemIdsOf(messages: WireMessage[]): string[] {
  const ids: string[] = [];
  for (const m of projectedLines(messages)) {
    const itemId = (m.params as { itemId?: unknown }).itemId;
    if (typeof itemId === 'string' && !ids.includes(itemId)) ids.push(itemId);
  }
  return ids;
}

/** A runtime ledger whose protocol projection is the transcript's tokenUsage. */
function ledgerFor(tokenUsage: ProtocolTaskTokenUsage): TaskTokenUsage {
  const { cycles, schema_version: _v, ...aggregates } = tokenUsage;
  return {
    schema_version: 'vv-agent.task-token-usage.v2',
    ...aggregates,
    model_calls: cycles.map((c) => ({
      ...modelCall(c.cycle_index),
      status: 'completed',
      usage: c.usage,
      error_code: null,
    })),
  };
}

interface Reproduction {
  messages: WireMessage[];
  projector: RunProjector;
  effects: ProjectionEffect[];
  finalization: ReturnType<RunProjector['finalize']>;
}

function reproduce(
  lines: readonly string[],
  buildEvents: (e: RunEventFactory) => RunEvent[],
  result: (tokenUsage: TaskTokenUsage) => ReturnType<typeof runResult>,
  completedAt: number,
): Reproduction {
  const messages = parse(lines);
  const completed = turnCompletedOf(messages);
  const ids = itemIdsOf(messages);
  const input = (messages.find((m) => m.method === 'turn/start')?.params?.input ?? []) as Record<
    string,
    unknown
  >[];
  const projector = new RunProjector({
    threadId: completed.threadId as string,
    turnId: completed.turnId as string,
    runId: completed.runId as string,
    input,
    now: () => completedAt,
    newItemId: () => {
      const next = ids.shift();
      if (!next) throw new Error('more items than the transcript has');
      return next;
    },
    changeCounter: new ThreadChangeCounter(),
  });
  const events = buildEvents(new RunEventFactory(completed.runId as string, completed.threadId as string));
  const effects = events.flatMap((event) => projector.project(event));
  const finalization = projector.finalize({
    kind: 'finished',
    result: result(ledgerFor(completed.tokenUsage as ProtocolTaskTokenUsage)),
  });
  return { messages, projector, effects, finalization };
}

function expectTranscript(reproduction: Reproduction): void {
  const { messages, effects, finalization } = reproduction;
  // As the v1 delivery sends them: the transcripts are App Server v1 notification lines.
  const emitted = notificationsOf([...effects, ...finalization.effects]).map((n) => ({
    method: v1MethodOf(n.kind),
    params: n.params,
  }));
  expect(JSON.parse(JSON.stringify(emitted))).toEqual(projectedLines(messages));
  expect(JSON.parse(JSON.stringify(finalization.turnCompleted))).toEqual(turnCompletedOf(messages));
}

const summarize = 'The workspace contains a README and a src/ folder with 4 TypeScript files.';

const transcript141 = () =>
  reproduce(
    TRANSCRIPT_14_1,
    (e) => [
      e.event('run_started', { input: 'Summarize the workspace' }, 1780410000101),
      e.event('agent_started', {}, 1780410000101),
      e.event('cycle_started', { cycle_index: 1 }, 1780410000102),
      e.event('model_call_started', modelCall(1), 1780410000103),
      e.event('reasoning_delta', { delta: 'Looking…', cycle_index: 1 }, 1780410000300),
      e.event('assistant_delta', { delta: 'The workspace contains', cycle_index: 1 }, 1780410000412),
      e.event(
        'assistant_delta',
        { delta: ' a README and a src/ folder with 4 TypeScript files.', cycle_index: 1 },
        1780410000455,
      ),
      e.event(
        'model_tool_call_started',
        { tool_call_id: 'call_k2Jd81fQ', tool_name: 'task_finish', cycle_index: 1 },
        1780410000600,
      ),
      e.event('model_call_completed', { ...modelCall(1), usage: TOKEN_USAGE_PLACEHOLDER }, 1780410000702),
      e.event('diagnostic', { level: 'info', code: 'cycle_llm_response', details: {} }, 1780410000703),
      e.event(
        'tool_call_planned',
        {
          tool_call_id: 'call_k2Jd81fQ',
          tool_name: 'task_finish',
          arguments: { message: summarize },
          tool_metadata: TASK_FINISH_METADATA,
        },
        1780410000704,
      ),
      e.event(
        'tool_call_started',
        {
          tool_call_id: 'call_k2Jd81fQ',
          tool_name: 'task_finish',
          arguments: { message: summarize },
          tool_metadata: TASK_FINISH_METADATA,
        },
        1780410000705,
      ),
      e.event(
        'tool_call_completed',
        {
          tool_call_id: 'call_k2Jd81fQ',
          tool_name: 'task_finish',
          status: 'success',
          directive: 'finish',
          error_code: null,
          execution_started: true,
          duration_ms: 1,
          tool_metadata: TASK_FINISH_METADATA,
          output_preview: JSON.stringify({ ok: true, message: summarize }),
          output_truncated: false,
        },
        1780410000706,
      ),
      e.event(
        'run_completed',
        {
          status: 'completed',
          final_output: summarize,
          completion_reason: 'tool_finish',
          completion_tool_name: 'task_finish',
        },
        1780410000707,
      ),
    ],
    (tokenUsage) => runResult({ finalAnswer: summarize, tokenUsage }),
    1780410000708,
  );

describe('§14.1 a turn that finishes with task_finish, then replay', () => {
  it('emits lines 11–18 and the turn/completed of line 20', () => {
    expectTranscript(transcript141());
  });

  it('replays, through a real store, exactly the items and turn of the thread/read result (line 22)', async () => {
    const { messages, effects, finalization } = transcript141();
    const read = messages.find((m) => m.id === 4 && m.result)?.result as {
      thread: Record<string, unknown>;
      turns: Array<Record<string, unknown>>;
      items: unknown[];
    };
    const thread = read.thread;
    const turn = read.turns[0];
    const store = await AppServerStore.open(':memory:');
    try {
      await store.threads.create({
        threadId: thread.threadId as string,
        agentKey: thread.agentKey as string,
        cwd: thread.cwd as string,
        metadata: thread.metadata as Record<string, unknown>,
        now: thread.createdAt as number,
      });
      await store.beginTurn({
        turnId: turn.turnId as string,
        threadId: thread.threadId as string,
        runId: turn.runId as string,
        input: turn.input as Record<string, unknown>[],
        startedAt: turn.startedAt as number,
      });
      for (const version of itemVersionsOf(effects, true)) await store.items.upsert(version);
      await store.finishTurn({
        threadId: thread.threadId as string,
        turnId: turn.turnId as string,
        completion: {
          status: finalization.status,
          completedAt: finalization.completedAt,
          result: finalization.result,
        },
        items: itemVersionsOf(finalization.effects, true),
        messages: finalization.messages,
        now: finalization.completedAt,
      });
      expect(await store.items.read(thread.threadId as string)).toEqual(read.items);
      expect(await store.turns.listByThread(thread.threadId as string)).toEqual(read.turns);
      expect(await store.threads.get(thread.threadId as string)).toMatchObject({
        updatedAt: thread.updatedAt,
      });
    } finally {
      await store.close();
    }
  });
});

describe('§14.2 approval round trip with bash (allow_session)', () => {
  it('emits the item and approval/requested lines (the route adds approval/request and approval/resolved)', () => {
    const testOutput = '\n> demo@1.0.0 test\n> node --test\n\n# tests 12\n# pass 12\n# fail 0\n';
    const finalText = 'All 12 tests passed.';
    expectTranscript(
      reproduce(
        TRANSCRIPT_14_2,
        (e) => [
          e.event('run_started', { input: 'Run the test suite and tell me the result' }, 1780420000050),
          e.event('agent_started', {}, 1780420000050),
          e.event('cycle_started', { cycle_index: 1 }, 1780420000051),
          e.event('model_call_started', modelCall(1), 1780420000052),
          e.event('assistant_delta', { delta: "I'll run the test suite.", cycle_index: 1 }, 1780420000630),
          e.event('model_call_completed', { ...modelCall(1), usage: TOKEN_USAGE_PLACEHOLDER }, 1780420000911),
          e.event(
            'tool_call_planned',
            {
              tool_call_id: 'call_Zp4Qe7Lm',
              tool_name: 'bash',
              arguments: { command: 'npm test' },
              tool_metadata: BASH_EXECUTE,
            },
            1780420000913,
          ),
          e.event(
            'approval_requested',
            {
              request_id: 'approval_835feb216be144a6ad31ceea88808c82',
              tool_call_id: 'call_Zp4Qe7Lm',
              tool_name: 'bash',
              message: 'Approval required for tool bash.',
              metadata: { arguments: { command: 'npm test' }, tool_name: 'bash' },
            },
            1780420000915,
          ),
          e.event(
            'approval_resolved',
            {
              request_id: 'approval_835feb216be144a6ad31ceea88808c82',
              tool_call_id: 'call_Zp4Qe7Lm',
              tool_name: 'bash',
              action: 'allow_session',
              metadata: { reason: '', decision_metadata: {} },
            },
            1780420004210,
          ),
          e.event(
            'tool_call_started',
            {
              tool_call_id: 'call_Zp4Qe7Lm',
              tool_name: 'bash',
              arguments: { command: 'npm test' },
              tool_metadata: BASH_EXECUTE,
            },
            1780420004212,
          ),
          e.event(
            'tool_call_completed',
            {
              tool_call_id: 'call_Zp4Qe7Lm',
              tool_name: 'bash',
              status: 'success',
              directive: 'continue',
              error_code: null,
              execution_started: true,
              duration_ms: 2841,
              tool_metadata: BASH_EXECUTE,
              output_preview: testOutput,
              output_truncated: false,
            },
            1780420007054,
          ),
          e.event('cycle_started', { cycle_index: 2 }, 1780420007060),
          e.event('model_call_started', modelCall(2), 1780420007061),
          e.event('assistant_delta', { delta: finalText, cycle_index: 2 }, 1780420007702),
          e.event('model_call_completed', { ...modelCall(2), usage: TOKEN_USAGE_PLACEHOLDER }, 1780420007890),
          e.event(
            'tool_call_planned',
            {
              tool_call_id: 'call_Hx9Vb2Nc',
              tool_name: 'task_finish',
              arguments: { message: finalText },
              tool_metadata: TASK_FINISH_METADATA,
            },
            1780420007892,
          ),
          e.event(
            'tool_call_started',
            {
              tool_call_id: 'call_Hx9Vb2Nc',
              tool_name: 'task_finish',
              arguments: { message: finalText },
              tool_metadata: TASK_FINISH_METADATA,
            },
            1780420007893,
          ),
          e.event(
            'tool_call_completed',
            {
              tool_call_id: 'call_Hx9Vb2Nc',
              tool_name: 'task_finish',
              status: 'success',
              directive: 'finish',
              error_code: null,
              execution_started: true,
              duration_ms: 0,
              tool_metadata: TASK_FINISH_METADATA,
              output_preview: JSON.stringify({ ok: true, message: finalText }),
              output_truncated: false,
            },
            1780420007894,
          ),
          e.event(
            'run_completed',
            {
              status: 'completed',
              final_output: finalText,
              completion_reason: 'tool_finish',
              completion_tool_name: 'task_finish',
            },
            1780420007895,
          ),
        ],
        (tokenUsage) => runResult({ finalAnswer: finalText, tokenUsage }),
        1780420007900,
      ),
    );
  });
});

describe('§9.8 deny through approval/resolve', () => {
  it('emits lines 5–7 and 12–19 and the turn/completed of line 21', () => {
    const finalText = 'Understood. I left the build directory in place.';
    const reproduction = reproduce(
      TRANSCRIPT_9_8,
      (e) => [
        e.event('run_started', { input: 'Delete the build directory' }, 1780430000010),
        e.event('agent_started', {}, 1780430000010),
        e.event('cycle_started', { cycle_index: 1 }, 1780430000011),
        e.event('model_call_started', modelCall(1), 1780430000012),
        e.event('model_call_completed', { ...modelCall(1), usage: TOKEN_USAGE_PLACEHOLDER }, 1780430000630),
        e.event(
          'tool_call_planned',
          {
            tool_call_id: 'call_Rb7Tn2Qx',
            tool_name: 'bash',
            arguments: { command: 'rm -r build' },
            tool_metadata: BASH_EXECUTE,
          },
          1780430000635,
        ),
        e.event(
          'approval_requested',
          {
            request_id: 'approval_1e4b68b047cb4da39ec774ea03b853b6',
            tool_call_id: 'call_Rb7Tn2Qx',
            tool_name: 'bash',
            message: 'Approval required for tool bash.',
            metadata: { arguments: { command: 'rm -r build' }, tool_name: 'bash' },
          },
          1780430000640,
        ),
        e.event(
          'approval_resolved',
          {
            request_id: 'approval_1e4b68b047cb4da39ec774ea03b853b6',
            tool_call_id: 'call_Rb7Tn2Qx',
            tool_name: 'bash',
            action: 'deny',
            metadata: { reason: 'Keep the build output', decision_metadata: {} },
          },
          1780430005102,
        ),
        e.event(
          'tool_call_completed',
          {
            tool_call_id: 'call_Rb7Tn2Qx',
            tool_name: 'bash',
            status: 'error',
            directive: 'continue',
            error_code: 'tool_approval_denied',
            execution_started: false,
            duration_ms: null,
            tool_metadata: BASH_EXECUTE,
            output_preview: JSON.stringify({
              ok: false,
              error: 'Keep the build output',
              error_code: 'tool_approval_denied',
              tool_name: 'bash',
            }),
            output_truncated: false,
          },
          1780430005104,
        ),
        e.event('diagnostic', { level: 'info', code: 'tool_result', details: {} }, 1780430005105),
        e.event('cycle_started', { cycle_index: 2 }, 1780430005106),
        e.event('model_call_started', modelCall(2), 1780430005107),
        e.event('assistant_delta', { delta: finalText, cycle_index: 2 }, 1780430005890),
        e.event('model_call_completed', { ...modelCall(2), usage: TOKEN_USAGE_PLACEHOLDER }, 1780430006010),
        e.event(
          'tool_call_planned',
          {
            tool_call_id: 'call_Wm3Kd8Pe',
            tool_name: 'task_finish',
            arguments: { message: finalText },
            tool_metadata: TASK_FINISH_METADATA,
          },
          1780430006012,
        ),
        e.event(
          'tool_call_started',
          {
            tool_call_id: 'call_Wm3Kd8Pe',
            tool_name: 'task_finish',
            arguments: { message: finalText },
            tool_metadata: TASK_FINISH_METADATA,
          },
          1780430006013,
        ),
        e.event(
          'tool_call_completed',
          {
            tool_call_id: 'call_Wm3Kd8Pe',
            tool_name: 'task_finish',
            status: 'success',
            directive: 'finish',
            error_code: null,
            execution_started: true,
            duration_ms: 0,
            tool_metadata: TASK_FINISH_METADATA,
            output_preview: JSON.stringify({ ok: true, message: finalText }),
            output_truncated: false,
          },
          1780430006014,
        ),
        e.event(
          'run_completed',
          {
            status: 'completed',
            final_output: finalText,
            completion_reason: 'tool_finish',
            completion_tool_name: 'task_finish',
          },
          1780430006015,
        ),
      ],
      (tokenUsage) => runResult({ finalAnswer: finalText, tokenUsage }),
      1780430006020,
    );
    expectTranscript(reproduction);
    // The approval/request the route sends is the approval/requested params verbatim (§4.14).
    const request = reproduction.messages.find((m) => m.method === 'approval/request');
    expect(reproduction.projector.approval('approval_1e4b68b047cb4da39ec774ea03b853b6')?.params).toEqual(
      request?.params,
    );
  });
});
