import { parseRunEvent } from '../../../../src/runtime/events/run-event-reader';

const ENVELOPE = {
  version: 'v2',
  event_id: 'evt_1',
  run_id: 'run_1',
  trace_id: 'trace_1',
  created_at: 1780430000.123,
  agent_name: 'a',
};
const MODEL_CALL = {
  call_id: 'op_model_cycle_1_main:attempt:1',
  operation_id: 'op_model_cycle_1_main',
  attempt: 1,
  operation: 'agent_cycle',
  cycle_index: 1,
  backend: 'b',
  model: 'm',
};
const USAGE = { schema_version: 'vv-agent.token-usage.v1' };
const METADATA = {
  side_effect: 'none',
  idempotency: 'supported',
  terminal: true,
  result_retention: 'archive',
  capability_tags: [],
  cost_dimensions: [],
};
const COMPLETED = {
  type: 'tool_call_completed',
  tool_call_id: 'c',
  tool_name: 't',
  status: 'success',
  directive: 'continue',
  error_code: null,
  execution_started: true,
  duration_ms: 3,
};

function event(payload: Record<string, unknown>): Record<string, unknown> {
  return { ...ENVELOPE, ...payload };
}

describe('parseRunEvent (§6.6)', () => {
  it.each([
    { type: 'run_started', input: 'hi' },
    { type: 'agent_started', session_id: 's', metadata: { k: 1 } },
    { type: 'cycle_started', cycle_index: 1 },
    { type: 'steer_applied', steer_id: 'steer_1', input: 'x', cycle_index: 2 },
    { type: 'model_call_started', ...MODEL_CALL },
    { type: 'assistant_delta', delta: 'x', cycle_index: 1, content_chars: 1, estimated_tokens: 1 },
    { type: 'reasoning_delta', delta: 'x', cycle_index: 1, reasoning_chars: 1, estimated_tokens: 1 },
    {
      type: 'model_tool_call_started',
      tool_call_id: 'c',
      tool_name: 't',
      cycle_index: 1,
      tool_call_index: 0,
    },
    {
      type: 'model_tool_call_progress',
      tool_call_id: 'c',
      tool_name: 't',
      cycle_index: 1,
      arguments_chars: 3,
    },
    { type: 'model_call_completed', ...MODEL_CALL, usage: USAGE },
    {
      type: 'model_call_failed',
      ...MODEL_CALL,
      usage: USAGE,
      outcome: 'ambiguous',
      error_code: 'model_request_failed',
    },
    { type: 'tool_call_planned', tool_call_id: 'c', tool_name: 't', arguments: {}, tool_metadata: METADATA },
    { type: 'approval_requested', request_id: 'approval_1', tool_call_id: 'c', tool_name: 't', message: 'm' },
    {
      type: 'approval_resolved',
      request_id: 'approval_1',
      tool_call_id: 'c',
      tool_name: 't',
      action: 'deny',
    },
    { type: 'tool_call_started', tool_call_id: 'c', tool_name: 't', arguments: { a: 1 } },
    { ...COMPLETED, output_preview: 'x', output_truncated: false, tool_metadata: METADATA },
    {
      ...COMPLETED,
      execution_started: false,
      duration_ms: null,
      status: 'error',
      error_code: 'tool_not_allowed',
    },
    { type: 'diagnostic', level: 'info', code: 'tool_result', details: {} },
    { type: 'session_persisted', parent_run_id: 'run_0' },
    { type: 'budget_snapshot', enforcement_boundary: 'cycle', budget_usage: {} },
    {
      type: 'budget_exhausted',
      enforcement_boundary: 'cycle',
      budget_usage: {},
      budget_exhaustion: { enforcement_boundary: 'cycle' },
    },
    { type: 'run_completed', status: 'completed', final_output: null, completion_reason: 'tool_finish' },
    { type: 'run_failed', error: 'max_cycles', status: 'max_cycles', completion_reason: 'max_cycles' },
    {
      type: 'run_cancelled',
      reason: 'stop',
      completion_reason: 'cancelled',
      partial_output: 'x',
      cycle_index: 2,
    },
  ])('accepts $type', (payload) => {
    const json = event(payload);
    expect(parseRunEvent(json)).toEqual(json);
  });

  it.each([
    ['a non-object', 'x', 'run event must be a JSON object'],
    ['an array', [], 'run event must be a JSON object'],
    ['a missing type', { ...ENVELOPE }, 'run event is missing type'],
    ['an empty type', event({ type: '' }), 'run event is missing type'],
    ['an unknown type', event({ type: 'run_paused' }), 'unsupported run event type `run_paused`'],
    ['a v1 event', event({ type: 'agent_started', version: 'v1' }), 'unsupported run event version `v1`'],
    [
      'missing required fields',
      { version: 'v2', type: 'tool_call_started', run_id: 'r', created_at: 1 },
      'run event tool_call_started is missing required fields: event_id, trace_id, tool_call_id, tool_name, arguments',
    ],
    [
      'unknown fields',
      event({ type: 'run_started', input: 'x', payload: {}, extra: 1 }),
      'run event run_started contains unknown fields: payload, extra',
    ],
    [
      'model_call_started with usage',
      event({ type: 'model_call_started', ...MODEL_CALL, usage: USAGE }),
      'run event model_call_started contains unknown fields: usage',
    ],
    [
      'approval_resolved with legacy approved',
      event({
        type: 'approval_resolved',
        request_id: 'a',
        tool_call_id: 'c',
        tool_name: 't',
        action: 'allow',
        approved: true,
      }),
      'run event approval_resolved contains the legacy field approved',
    ],
  ])('rejects %s with its exact message', (_label, json, message) => {
    expect(() => parseRunEvent(json)).toThrow(new Error(message));
  });

  it.each([
    ['blank event_id', event({ type: 'agent_started', event_id: ' ' })],
    ['blank run_id', event({ type: 'agent_started', run_id: '' })],
    ['blank trace_id', event({ type: 'agent_started', trace_id: '' })],
    ['negative created_at', event({ type: 'agent_started', created_at: -1 })],
    ['infinite created_at', event({ type: 'agent_started', created_at: Infinity })],
    ['string created_at', event({ type: 'agent_started', created_at: '1' })],
    ['unknown completion_reason', event({ type: 'run_failed', error: 'x', completion_reason: 'exploded' })],
    ['empty call_id', event({ type: 'model_call_started', ...MODEL_CALL, call_id: '' })],
    [
      'empty operation_id',
      event({ type: 'model_call_completed', ...MODEL_CALL, usage: USAGE, operation_id: '' }),
    ],
    ['attempt 0', event({ type: 'model_call_started', ...MODEL_CALL, attempt: 0 })],
    [
      'zero cycle_index on a model call',
      event({ type: 'model_call_started', ...MODEL_CALL, cycle_index: 0 }),
    ],
    [
      'missing cycle_index on a model call',
      event({ type: 'model_call_started', ...MODEL_CALL, cycle_index: undefined }),
    ],
    ['stream event without cycle_index', event({ type: 'assistant_delta', delta: 'x' })],
    ['stream event with cycle_index 0', event({ type: 'reasoning_delta', delta: 'x', cycle_index: 0 })],
    [
      'array arguments',
      event({ type: 'tool_call_planned', tool_call_id: 'c', tool_name: 't', arguments: [] }),
    ],
    [
      'null arguments',
      event({ type: 'tool_call_started', tool_call_id: 'c', tool_name: 't', arguments: null }),
    ],
    ['status started', event({ ...COMPLETED, status: 'started' })],
    ['duration without execution', event({ ...COMPLETED, execution_started: false, duration_ms: 5 })],
    ['invalid tool_metadata', event({ ...COMPLETED, tool_metadata: { ...METADATA, side_effect: 'delete' } })],
    ['partial tool_metadata', event({ ...COMPLETED, tool_metadata: { side_effect: 'none' } })],
    ['blank diagnostic code', event({ type: 'diagnostic', level: 'info', code: ' ', details: {} })],
    ['unknown diagnostic level', event({ type: 'diagnostic', level: 'fatal', code: 'x', details: {} })],
    [
      'differing budget boundaries',
      event({
        type: 'budget_exhausted',
        enforcement_boundary: 'cycle',
        budget_usage: {},
        budget_exhaustion: { enforcement_boundary: 'tool' },
      }),
    ],
    [
      'bad outcome',
      event({ type: 'model_call_failed', ...MODEL_CALL, usage: USAGE, outcome: 'x', error_code: 'e' }),
    ],
    [
      'blank error_code',
      event({ type: 'model_call_failed', ...MODEL_CALL, usage: USAGE, outcome: 'ambiguous', error_code: '' }),
    ],
  ])('rejects %s', (_label, json) => {
    const cleaned = Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined));
    expect(() => parseRunEvent(cleaned)).toThrow();
  });
});
