/**
 * The committed schemas compile (ajv, draft 2020-12, strict) and describe what the server really
 * sends: every line of the §14.1, §14.2 and §9.8 transcripts and the spec's other examples validate;
 * the §4 / §5 presence rules (optional = omitted, nullable = present with null) are enforced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ProtocolTranscriptValidator,
  assertValidServerMessage,
  committedSchemaValidators,
  schemaErrors,
} from '../../../../helpers/schema-validation';

const TRANSCRIPTS_DIR = join(__dirname, '../../../../fixtures/protocol-transcripts');

function transcript(name: string): Record<string, unknown>[] {
  return readFileSync(join(TRANSCRIPTS_DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const THREAD = 'thread_2149e90a711b4156a28c59a0f06ebc63';
const TURN = 'turn_2f53beaa8e6d4a0ba0b9768268cf7a2a';
const EMPTY_USAGE = {
  schema_version: 'vv-agent.task-token-usage.v1',
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
  cycles: [],
};

describe('committed JSON Schemas', () => {
  it('all 30 compile with ajv draft 2020-12 in strict mode', () => {
    expect(committedSchemaValidators().size).toBe(30);
  });

  // Client → server line numbers (1-based) as listed by the spec for each transcript.
  it.each([
    ['14.1', [1, 3, 4, 7, 21]],
    ['14.2', [1, 3, 4, 7, 18]],
    ['9.8', [1, 9]],
  ])('validate every line of the §%s transcript', (name, clientLines) => {
    const validator = new ProtocolTranscriptValidator();
    const lines = transcript(name as string);
    expect(lines.length).toBeGreaterThan(10);
    lines.forEach((message, index) => {
      if ((clientLines as number[]).includes(index + 1)) validator.client(message);
      else validator.server(message);
    });
  });

  it('check responses against the answered method (a thread/start result is not a TurnStartResponse)', () => {
    const validator = new ProtocolTranscriptValidator();
    validator.client({
      jsonrpc: '2.0',
      id: 3,
      method: 'turn/start',
      params: { threadId: THREAD, input: [] },
    });
    expect(() =>
      validator.server({
        jsonrpc: '2.0',
        id: 3,
        result: { threadId: THREAD, agentKey: 'default', cwd: null, status: 'idle' },
      }),
    ).toThrow(/TurnStartResponse/);
  });

  it.each([
    // §1.4 error envelopes
    { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    {
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request',
        data: { reason: 'input_too_large', limitBytes: 16777216 },
      },
    },
    {
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32601, message: 'Method not found: x', data: { method: 'x' } },
    },
    // §4.6 (ask_user turn, every count null)
    {
      jsonrpc: '2.0',
      method: 'turn/completed',
      params: {
        threadId: THREAD,
        turnId: TURN,
        runId: 'run_cc10e3d7329f447b9e826deb1b6579c2',
        status: 'interrupted',
        finalOutput: 'Which directory should I clean: build/ or dist/?',
        completionReason: 'wait_user',
        completionToolName: 'ask_user',
        partialOutput: 'I found two build output folders.',
        tokenUsage: {
          schema_version: 'vv-agent.task-token-usage.v1',
          input_tokens: null,
          output_tokens: null,
          total_tokens: null,
          reasoning_tokens: null,
          cache_usage: {
            status: 'accounting_missing',
            read_input_tokens: null,
            write_input_tokens: null,
            uncached_input_tokens: null,
            source: 'aggregate',
          },
          cycles: [
            {
              cycle_index: 1,
              usage: {
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
              },
            },
          ],
        },
      },
    },
    // a cancelled turn with budgets
    {
      jsonrpc: '2.0',
      method: 'turn/completed',
      params: {
        threadId: THREAD,
        turnId: TURN,
        runId: 'run_cc10e3d7329f447b9e826deb1b6579c2',
        status: 'interrupted',
        error: 'turn interrupted',
        completionReason: 'cancelled',
        tokenUsage: EMPTY_USAGE,
        budgetUsage: { max_cycles: { used: 1 } },
        budgetExhaustion: { kind: 'cycles' },
      },
    },
    // §4.2 – §4.5, §4.13
    { jsonrpc: '2.0', method: 'thread/archived', params: { threadId: THREAD, archived: true } },
    { jsonrpc: '2.0', method: 'thread/closed', params: { threadId: THREAD } },
    { jsonrpc: '2.0', method: 'thread/status/changed', params: { threadId: THREAD, status: 'closed' } },
    {
      jsonrpc: '2.0',
      method: 'error/warning',
      params: { threadId: THREAD, turnId: TURN, code: 'run_failed', message: 'llm request failed' },
    },
    {
      jsonrpc: '2.0',
      method: 'error/warning',
      params: { threadId: THREAD, code: 'follow_up', message: 'x' },
    },
    {
      jsonrpc: '2.0',
      method: 'approval/resolved',
      params: {
        threadId: THREAD,
        turnId: TURN,
        requestId: 'approval_835feb216be144a6ad31ceea88808c82',
        decision: 'timeout',
        reason: 'client disconnected',
        metadata: { source: 'ui' },
      },
    },
  ])('validate the spec example %#', (message) => {
    assertValidServerMessage(message);
  });

  it.each([
    ['thread/resume', { thread: threadOf({ cwd: null }), turns: [runningTurn()], items: [] }],
    [
      'thread/list',
      { threads: [threadOf({ cwd: './workspace', metadata: { title: 'x' } })], nextCursor: null },
    ],
    ['thread/list', { threads: [], nextCursor: 'opaque' }],
    ['thread/archive', { threadId: THREAD, archived: true }],
    ['thread/unsubscribe', { threadId: THREAD, subscribed: false, closed: true }],
    ['turn/steer', { threadId: THREAD, turnId: TURN, queued: true }],
    ['turn/followUp', { threadId: THREAD, turnId: TURN, queued: true }],
    ['turn/interrupt', { threadId: THREAD, turnId: TURN, cancelled: true }],
    ['approval/resolve', {}],
    [
      'model/list',
      {
        models: [
          {
            id: 'kimi-k3',
            provider: 'moonshot',
            displayName: 'Kimi K3',
            contextLength: 1000000,
            supportsTools: true,
            metadata: { requestedModel: 'kimi-k3' },
          },
          { id: 'bare', supportsTools: false },
        ],
      },
    ],
    ['model/list', { models: [] }],
    [
      'thread/read',
      {
        thread: threadOf({ status: 'closed' }),
        turns: [
          {
            ...runningTurn(),
            status: 'interrupted',
            completedAt: 2,
            result: { error: 'server restarted before the turn finished' },
          },
        ],
        items: [],
      },
    ],
  ])('accept a %s result of the spec', (method, result) => {
    assertValidServerMessage({ jsonrpc: '2.0', id: 1, result }, method);
  });
});

function threadOf(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    threadId: THREAD,
    agentKey: 'default',
    cwd: null,
    status: 'idle',
    metadata: {},
    createdAt: 1780409999950,
    updatedAt: 1780410000708,
    archivedAt: null,
    ...overrides,
  };
}

function runningTurn(): Record<string, unknown> {
  return {
    turnId: TURN,
    threadId: THREAD,
    runId: 'run_cc10e3d7329f447b9e826deb1b6579c2',
    status: 'running',
    startedAt: 1,
    completedAt: null,
    input: [{ type: 'text', text: 'hi' }],
    result: {},
  };
}

describe('presence rules of §4 / §5 in the schemas', () => {
  const item = {
    itemId: 'item_1a1f14edcc884a279d58292d24ba0ccf',
    threadId: THREAD,
    turnId: TURN,
    type: 'userMessage',
    status: 'completed',
    payload: { text: 'hi' },
    createdAt: 1,
    updatedAt: 1,
  };

  const violations: Array<[name: string, value: unknown, rule: string]> = [
    [
      'ThreadStartResponse',
      { threadId: THREAD, agentKey: 'default', status: 'idle' },
      'cwd is never omitted',
    ],
    [
      'ThreadStartResponse',
      { threadId: THREAD, agentKey: 'default', cwd: null, status: 'busy' },
      'status enum',
    ],
    ['AppThread', threadOf({ archivedAt: undefined }), 'archivedAt always present'],
    ['AppThread', threadOf({ createdAt: 1780409999.95 }), 'timestamps are integer ms'],
    ['AppItem', { ...item, payload: 'text' }, 'payload is an object'],
    ['AppItem', { ...item, type: 'reasoning' }, 'item type enum'],
    [
      'AppModelInfo',
      { id: 'm', supportsTools: true, provider: null },
      'optional members are omitted, never null',
    ],
    ['AppTokenUsage', { ...EMPTY_USAGE, input_tokens: undefined }, 'every usage member always present'],
    [
      'AppTokenUsage',
      { ...EMPTY_USAGE, cache_usage: { ...EMPTY_USAGE.cache_usage, source: null } },
      'aggregate source',
    ],
    [
      'InitializeResponse',
      {
        userAgent: 'vv-agent-app-server',
        protocolVersion: 'v1',
        capabilities: {
          modelList: true,
          threadLifecycle: true,
          notificationOptOut: true,
          schemaExport: true,
          approvalResolve: true,
        },
        serverInfo: {},
      },
      'exactly three members',
    ],
    ['ApprovalResponse', { decision: 'ALLOW' }, 'decision is case-sensitive'],
    ['ApprovalDecision', 'allow_once', 'decision enum'],
    [
      'TurnStartResponse',
      { threadId: THREAD, turnId: TURN, status: 'completed' },
      'a started turn is running',
    ],
  ];

  it.each(violations.map(([name, value, rule]) => ({ name, value, rule })))(
    '$name rejects a value where $rule',
    ({ name, value }) => {
      expect(schemaErrors(name, value)).not.toEqual([]);
    },
  );

  it.each([
    [
      {
        jsonrpc: '2.0',
        method: 'error/warning',
        params: { threadId: THREAD, turnId: null, code: 'store', message: 'x' },
      },
    ],
    [{ jsonrpc: '2.0', method: 'turn/started', params: { threadId: THREAD, turnId: TURN, runId: 'run_x' } }],
    [
      {
        jsonrpc: '2.0',
        method: 'turn/completed',
        params: { threadId: THREAD, turnId: TURN, runId: 'r', status: 'running', tokenUsage: EMPTY_USAGE },
      },
    ],
    [
      {
        jsonrpc: '2.0',
        method: 'turn/completed',
        params: { threadId: THREAD, turnId: TURN, runId: 'r', status: 'failed' },
      },
    ],
    [
      {
        jsonrpc: '2.0',
        method: 'item/agentMessage/delta',
        params: { ...item, type: 'agentMessage', status: 'inProgress' },
      },
    ],
    [{ jsonrpc: '2.0', method: 'thread/started' }],
    [{ method: 'thread/closed', params: { threadId: THREAD } }],
    [{ jsonrpc: '2.0', id: 5, method: 'approval/request', params: {} }],
    [{ jsonrpc: '2.0', method: 'unknown/notification', params: {} }],
  ])('a server message breaking the contract is rejected: %j', (message) => {
    expect(() => assertValidServerMessage(message)).toThrow();
  });

  it.each([
    [{ id: 1, method: 'model/list' }, true],
    [{ jsonrpc: '2.0', id: 'x', method: 'thread/start', params: null }, true],
    [{ jsonrpc: '2.0', id: 2, method: 'schema/export', params: {} }, true],
    [{ jsonrpc: '2.0', id: 2, method: 'schema/export', params: { a: 1 } }, false],
    [{ jsonrpc: '2.0', method: 'initialized' }, true],
    [{ jsonrpc: '2.0', method: 'thread/start', params: {} }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'turn/start' }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'turn/start', params: { threadId: THREAD, input: ['text'] } }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'thread/start', params: { cwd: null, unknownMember: 1 } }, true],
    [{ jsonrpc: '2.0', id: 3, method: 'thread/list', params: { limit: 501 } }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'thread/read', params: { threadId: THREAD, limit: 1.5 } }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'initialize', params: { clientInfo: { name: '  ' } } }, false],
    [
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'approval/resolve',
        params: { threadId: THREAD, turnId: TURN, requestId: 'a', decision: 'allow_session' },
      },
      true,
    ],
    [{ jsonrpc: '1.0', id: 3, method: 'model/list' }, false],
    [{ jsonrpc: '2.0', id: null, method: 'model/list' }, false],
    [{ jsonrpc: '2.0', id: 3, method: 'turn/resume', params: { threadId: THREAD } }, false],
  ])('ClientRequest on %j → valid %s', (message, valid) => {
    expect(schemaErrors('ClientRequest', message).length === 0).toBe(valid);
  });
});
