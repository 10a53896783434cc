/**
 * Observability end to end (docs/spec/observability.md §5): the built CLI with a fake model on
 * 127.0.0.1, a real OTLP/HTTP receiver and `/metrics` read with a real Prometheus text parser. One
 * turn with a `bash` call and its approval gives the §2 span tree under the client's
 * `traceparent`, over stdio and over WebSocket; the §3 series move; the JSON log lines parse; a
 * dead collector neither slows nor fails a turn. Build first (`npm run build`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import {
  E2eSandbox,
  isTurnCompleted,
  paramsOf,
  useTransport,
  type AppServerSession,
  type JsonMessage,
} from '../helpers/app-server-session';
import { AcpClientProcess } from '../helpers/acp-client-process';
import { JsonlChild } from '../helpers/jsonl-child';
import {
  assistantReply,
  bashReply,
  finishReply,
  hangingTextReply,
  providerUsage,
} from '../helpers/model-replies';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';

jest.setTimeout(60_000);

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`;
const METRICS_LINE = /metrics listening on (http:\/\/[^\s"]+)/;

const isApprovalRequest = (m: JsonMessage): boolean => m.method === 'approval/request' && 'id' in m;

/** `protocol`: the default `http/protobuf`, or `http/json` (docs/spec/observability.md §1). */
function otelEnv(endpoint: string, protocol: 'http/protobuf' | 'http/json' = 'http/json'): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    ...(protocol === 'http/json' ? { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } : {}),
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRIC_EXPORT_INTERVAL: '200',
    OTEL_SERVICE_NAME: 'vv-agent-e2e',
  };
}

async function eventuallyTrue(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function scrape(session: AppServerSession): Promise<PrometheusFamily[]> {
  const url = METRICS_LINE.exec(session.child.stderr)?.[1];
  if (url === undefined) throw new Error(`no metrics line in stderr: ${session.child.stderr}`);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return parsePrometheusTextFormat(await response.text());
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no ${name} in ${families.map((f) => f.name).join(', ')}`);
  return found;
}

/** One turn: `bash` asks for approval (accepted), runs, then `task_finish`. */
async function turnWithApproval(
  sandbox: E2eSandbox,
  session: AppServerSession,
): Promise<{ threadId: string; turnId: string }> {
  sandbox.model.enqueue(
    bashReply('echo observed', { callId: 'call_bash_1', usage: providerUsage(120, 12) }),
    finishReply('done', { callId: 'call_finish_1', usage: providerUsage(140, 8) }),
  );
  await session.initialize();
  const { threadId } = await session.startThread({ cwd: sandbox.workspace });
  const { turnId } = await session.call<{ turnId: string }>('turn/start', {
    threadId,
    input: [{ type: 'text', text: 'run it' }],
    _meta: { traceparent: TRACEPARENT, tracestate: 'vendor=e2e' },
  });
  const request = await session.waitFor(isApprovalRequest);
  session.answer(request.id, { decision: 'allow' });
  await session.waitFor(isTurnCompleted(threadId));
  return { threadId, turnId };
}

function expectTurnTree(receiver: OtlpReceiver, threadId: string, turnId: string, transport: string): void {
  const byId = new Map(receiver.spans.map((span) => [span.spanId, span]));
  const only = (name: string): ReceivedSpan => {
    const spans = receiver.named(name).filter((span) => span.traceId === CLIENT_TRACE_ID);
    expect(spans).toHaveLength(1);
    return spans[0];
  };
  const request = only('turn/start');
  expect(request).toMatchObject({ traceId: CLIENT_TRACE_ID, parentSpanId: CLIENT_SPAN_ID, kind: 2 });
  expect(request.attributes).toMatchObject({ 'rpc.system': 'jsonrpc', 'rpc.method': 'turn/start' });
  expect(request.resource['service.name']).toBe('vv-agent-e2e');

  const turn = only('invoke_agent vv-agent');
  expect(turn.parentSpanId).toBe(request.spanId);
  expect(turn.kind).toBe(1);
  expect(turn.attributes).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': expect.any(String),
    'gen_ai.conversation.id': threadId,
    'vv_agent.turn.id': turnId,
    'vv_agent.turn.status': 'completed',
    'vv_agent.transport': transport,
  });

  const chats = receiver.spans.filter(
    (span) => span.name === 'chat test-model-id' || span.name.startsWith('chat '),
  );
  const turnChats = chats.filter((span) => span.parentSpanId === turn.spanId);
  expect(turnChats).toHaveLength(2);
  for (const chat of turnChats) {
    expect(chat.kind).toBe(3);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'local',
      'gen_ai.request.model': expect.any(String),
      'gen_ai.response.model': expect.any(String),
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'server.address': '127.0.0.1',
    });
  }
  expect(turnChats.map((chat) => chat.attributes['gen_ai.usage.input_tokens']).sort()).toEqual([120, 140]);

  const tool = only('execute_tool bash');
  expect(tool.parentSpanId).toBe(turn.spanId);
  expect(tool.attributes).toMatchObject({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'bash',
    'gen_ai.tool.call.id': 'call_bash_1',
    'vv_agent.tool.status': 'success',
  });
  // No content unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (§2).
  expect(tool.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  expect(JSON.stringify(receiver.spans)).not.toContain('echo observed');

  const approval = only('vv_agent.approval');
  expect(approval.parentSpanId).toBe(turn.spanId);
  expect(approval.attributes).toMatchObject({
    'vv_agent.approval.decision': 'allow',
    'gen_ai.tool.name': 'bash',
  });
  expect(byId.get(turn.parentSpanId)?.name).toBe('turn/start');
}

describe.each(['stdio', 'ws'] as const)(
  'observability over %s (docs/spec/observability.md §5)',
  (transport) => {
    let sandbox: E2eSandbox;
    let receiver: OtlpReceiver;

    beforeAll(() => useTransport(transport));
    afterAll(() => useTransport('stdio'));

    beforeEach(async () => {
      sandbox = await E2eSandbox.create('vv-otel-e2e-');
      receiver = await OtlpReceiver.start();
    });

    afterEach(async () => {
      await sandbox.dispose();
      await receiver.close();
    });

    it('exports the span tree of a turn with a tool call and an approval, and the §3 metrics, on OTLP and /metrics', async () => {
      const session = sandbox.spawn({
        // Both encodings: the default protobuf over stdio, JSON over WebSocket.
        env: otelEnv(receiver.endpoint, transport === 'stdio' ? 'http/protobuf' : 'http/json'),
        // The WebSocket helper reads the text readiness line, so JSON logs are checked over stdio.
        args: ['--metrics-listen', '127.0.0.1:0', ...(transport === 'stdio' ? ['--log-format', 'json'] : [])],
      });
      const { threadId, turnId } = await turnWithApproval(sandbox, session);

      const families = await scrape(session);
      const toolCalls = family(families, 'vv_agent_tool_calls_total');
      expect(toolCalls.metrics).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            value: '1',
            labels: expect.objectContaining({ gen_ai_tool_name: 'bash', vv_agent_tool_status: 'success' }),
          }),
        ]),
      );
      // parse-prometheus-text-format keeps the labels of counters and gauges, but folds a labelled
      // histogram into one bucket set (its last label set): histograms are checked by type and +Inf
      // count here, and by their attributes on the OTLP side.
      const histogram = (name: string): Record<string, string> => {
        const found = family(families, name);
        expect(found.type).toBe('HISTOGRAM');
        return found.metrics[0].buckets ?? {};
      };
      expect(histogram('gen_ai_client_token_usage')['+Inf']).toBe('2');
      expect(histogram('gen_ai_client_operation_duration')['+Inf']).toBe('2');
      expect(histogram('vv_agent_turn_duration')['+Inf']).toBe('1');
      expect(Number(histogram('vv_agent_rpc_server_duration')['+Inf'])).toBeGreaterThan(0);
      expect(Number(histogram('vv_agent_outbound_queue_depth')['+Inf'])).toBeGreaterThan(0);
      expect(family(families, 'vv_agent_turns_active').metrics[0].value).toBe('0');
      expect(family(families, 'vv_agent_approvals_pending').metrics[0].value).toBe('0');
      expect(family(families, 'vv_agent_connections_active').metrics[0]).toMatchObject({
        value: '1',
        labels: expect.objectContaining({ vv_agent_transport: transport === 'ws' ? 'websocket' : 'stdio' }),
      });
      const health = await fetch(METRICS_LINE.exec(session.child.stderr)![1].replace('/metrics', '/healthz'));
      expect(health.status).toBe(200);

      await eventuallyTrue(
        () =>
          receiver.named('invoke_agent vv-agent').length === 1 && receiver.metrics.has('vv_agent.tool.calls'),
      );
      await session.close();
      expectTurnTree(receiver, threadId, turnId, transport === 'ws' ? 'websocket' : 'stdio');
      const contentTypes = new Set(receiver.bodies.map((body) => body.contentType));
      expect(contentTypes).toEqual(
        new Set([transport === 'stdio' ? 'application/x-protobuf' : 'application/json']),
      );
      for (const name of [
        'gen_ai.client.token.usage',
        'gen_ai.client.operation.duration',
        'vv_agent.turns.active',
        'vv_agent.turn.duration',
        'vv_agent.tool.calls',
        'vv_agent.approvals.pending',
        'vv_agent.connections.active',
        'vv_agent.rpc.server.duration',
        'vv_agent.outbound.queue.depth',
      ])
        expect(receiver.metrics.has(name)).toBe(true);

      // §4: one JSON object per stderr line, with the named members.
      if (transport !== 'stdio') return;
      const lines = session.child.stderr.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        expect(parsed).toMatchObject({
          time: expect.any(String),
          level: expect.stringMatching(/^(debug|info|warn|error)$/),
          msg: expect.any(String),
        });
        expect(Number.isNaN(Date.parse(String(parsed.time)))).toBe(false);
      }
    });
  },
);

describe('observability without a collector or switched off', () => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-otel-off-e2e-');
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  it('a dead collector neither slows nor fails a turn, and costs at most one stderr line', async () => {
    // A port nobody listens on: connection refused at every export.
    const dead = await OtlpReceiver.start();
    const endpoint = dead.endpoint;
    await dead.close();
    const session = sandbox.spawn({ env: { ...otelEnv(endpoint), OTEL_METRIC_EXPORT_INTERVAL: '100' } });
    const started = Date.now();
    const { threadId } = await turnWithApproval(sandbox, session);
    const turnMs = Date.now() - started;
    const completed = session.child.received.find(
      (m) => m.method === 'turn/completed' && paramsOf(m).threadId === threadId,
    );
    expect(paramsOf(completed as JsonMessage).status).toBe('completed');
    expect(turnMs).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const startedClose = Date.now();
    expect((await session.close()).code).toBe(0);
    // Shutdown's flush is bounded (2 s), not the exporter's own timeout.
    expect(Date.now() - startedClose).toBeLessThan(5_000);
    const exportLines = session.child.stderr
      .split('\n')
      .filter((line) => line.startsWith('telemetry export:'));
    expect(exportLines.length).toBeLessThanOrEqual(1);
  });
});

describe('observability switched off (docs/spec/observability.md §1)', () => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-otel-cache-e2e-');
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  const PRELOAD = join(__dirname, '../fixtures/observability/record-loaded-modules.js');

  async function loadedAfterTurn(env: NodeJS.ProcessEnv): Promise<string[]> {
    const file = join(sandbox.root, `loaded-${Math.random().toString(16).slice(2)}.json`);
    const {
      args,
      cwd,
      env: base,
    } = sandbox.serverCommand({ env: { ...env, VV_AGENT_LOADED_MODULES_FILE: file } });
    const session = sandbox.attach(JsonlChild.spawnNode(['-r', PRELOAD, ...args], { cwd, env: base }));
    await turnWithApproval(sandbox, session);
    expect((await session.close()).code).toBe(0);
    return JSON.parse(readFileSync(file, 'utf8')) as string[];
  }

  it('loads no @opentelemetry module during a full turn when no OTEL_* variable or --metrics-listen asks', async () => {
    const loaded = await loadedAfterTurn({});
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((path) => path.includes('@opentelemetry'))).toEqual([]);
  });

  it('OTEL_SDK_DISABLED=true keeps it off even with an endpoint; with the endpoint alone it loads', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const disabled = await loadedAfterTurn({ ...otelEnv(receiver.endpoint), OTEL_SDK_DISABLED: 'true' });
      expect(disabled.filter((path) => path.includes('@opentelemetry'))).toEqual([]);
      const enabled = await loadedAfterTurn(otelEnv(receiver.endpoint));
      expect(enabled.some((path) => path.includes('@opentelemetry/sdk-trace'))).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe('a turn forwarded between two PostgreSQL instances (docs/spec/observability.md §2, postgres.md §2)', () => {
  let sandbox: E2eSandbox;
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-otel-pg-e2e-', { storeDriver: 'postgres' });
    receiver = await OtlpReceiver.start();
  });

  afterEach(async () => {
    await sandbox.dispose();
    await receiver.close();
  });

  it("turn/interrupt sent to B is handled on A in the client's trace, under B's request span", async () => {
    sandbox.model.setFallback(hangingTextReply(['waiting ', 'forever']));
    const env = otelEnv(receiver.endpoint);
    const a = sandbox.spawn({ store: 'shared', env: { ...env, OTEL_SERVICE_NAME: 'instance-a' } });
    const b = sandbox.spawn({ store: 'shared', env: { ...env, OTEL_SERVICE_NAME: 'instance-b' } });
    await a.initialize();
    await b.initialize();
    const { threadId } = await a.startThread();
    await b.call('thread/resume', { threadId });
    await a.call('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'work' }],
      _meta: { traceparent: TRACEPARENT },
    });
    await b.waitFor((m) => m.method === 'item/agentMessage/delta' && paramsOf(m).threadId === threadId);
    await b.call('turn/interrupt', { threadId, reason: 'stop from B', _meta: { traceparent: TRACEPARENT } });
    await a.waitFor(isTurnCompleted(threadId));
    await a.close();
    await b.close();

    const onB = receiver.spans.filter(
      (s) => s.name === 'turn/interrupt' && s.resource['service.name'] === 'instance-b',
    );
    expect(onB).toHaveLength(1);
    expect(onB[0]).toMatchObject({ traceId: CLIENT_TRACE_ID, parentSpanId: CLIENT_SPAN_ID, kind: 2 });
    const onA = receiver.spans.filter(
      (s) => s.name === 'turn/interrupt' && s.resource['service.name'] === 'instance-a',
    );
    expect(onA).toHaveLength(1);
    expect(onA[0]).toMatchObject({ traceId: CLIENT_TRACE_ID, parentSpanId: onB[0].spanId, kind: 2 });
    expect(onA[0].attributes).toMatchObject({ 'vv_agent.forwarded': true });
    const turn = receiver.named('invoke_agent vv-agent');
    expect(turn).toHaveLength(1);
    expect(turn[0]).toMatchObject({
      traceId: CLIENT_TRACE_ID,
      resource: expect.objectContaining({ 'service.name': 'instance-a' }),
    });
    expect(turn[0].attributes['vv_agent.turn.status']).toBe('interrupted');
  });
});

describe('trace context into MCP calls (docs/spec/observability.md §2)', () => {
  let sandbox: E2eSandbox;
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-otel-mcp-e2e-');
    receiver = await OtlpReceiver.start();
  });

  afterEach(async () => {
    await sandbox.dispose();
    await receiver.close();
  });

  it("an MCP tools/call carries the execute_tool span's traceparent in _meta", async () => {
    const config = join(sandbox.root, 'mcp.json');
    const server = join(__dirname, '../fixtures/mcp/trace-context-server.mjs');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { tc: { command: process.execPath, args: [server], approval: 'never' } },
      }),
    );
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_mcp_1', name: 'mcp__tc__trace', arguments: {} }]),
      finishReply('done'),
    );
    const session = sandbox.spawn({ env: otelEnv(receiver.endpoint), args: ['--mcp-config', config] });
    await session.initialize();
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', {
      threadId,
      input: [{ type: 'text', text: 'trace' }],
      _meta: { traceparent: TRACEPARENT },
    });
    const traffic = await session.collectUntil(isTurnCompleted(threadId), 30_000);
    await session.close();

    const completed = traffic.find(
      (m) =>
        m.method === 'item/completed' &&
        (paramsOf(m).payload as { toolCallId?: string }).toolCallId === 'call_mcp_1',
    );
    const output = JSON.stringify(
      (paramsOf(completed as JsonMessage).payload as { output?: unknown }).output,
    );
    const tool = receiver.named('execute_tool mcp__tc__trace');
    expect(tool).toHaveLength(1);
    expect(tool[0].traceId).toBe(CLIENT_TRACE_ID);
    // The MCP server saw the span's own context: same trace, the tool span as the parent.
    expect(output).toContain(`00-${CLIENT_TRACE_ID}-${tool[0].spanId}-01`);
  });
});

describe('observability over ACP (docs/spec/observability.md §2)', () => {
  let sandbox: E2eSandbox;
  let receiver: OtlpReceiver;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-otel-acp-e2e-');
    receiver = await OtlpReceiver.start();
  });

  afterEach(async () => {
    await sandbox.dispose();
    await receiver.close();
  });

  it("session/prompt is a SERVER span under the client's _meta traceparent, and its turn goes under it", async () => {
    sandbox.model.enqueue(finishReply('All done.', { content: ['All done.'], usage: providerUsage(50, 5) }));
    const acp = AcpClientProcess.spawn(sandbox, { env: otelEnv(receiver.endpoint) });
    await acp.initialize();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    expect(
      await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
        _meta: { traceparent: TRACEPARENT },
      }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(await acp.close()).toEqual({ code: 0, signal: null });

    const prompt = receiver.named('session/prompt');
    expect(prompt).toHaveLength(1);
    expect(prompt[0]).toMatchObject({ traceId: CLIENT_TRACE_ID, parentSpanId: CLIENT_SPAN_ID, kind: 2 });
    const turn = receiver.named('invoke_agent vv-agent');
    expect(turn).toHaveLength(1);
    expect(turn[0]).toMatchObject({ parentSpanId: prompt[0].spanId, traceId: CLIENT_TRACE_ID });
    expect(turn[0].attributes).toMatchObject({
      'vv_agent.transport': 'acp',
      'gen_ai.conversation.id': sessionId,
    });
    expect(
      receiver.spans.filter((span) => span.name.startsWith('chat ') && span.parentSpanId === turn[0].spanId),
    ).toHaveLength(1);
    expect(receiver.named('session/new')).toHaveLength(1);
    // §3: the editor's connection is counted under its transport (an up-down counter: 0 again once it
    // closed, which is all the export at shutdown shows).
    const connections = receiver.metrics.get('vv_agent.connections.active') ?? [];
    expect(connections.length).toBeGreaterThan(0);
    expect(connections.at(-1)).toMatchObject({ attributes: { 'vv_agent.transport': 'acp' } });
    expect(Number(connections.at(-1)!.asInt ?? connections.at(-1)!.asDouble)).toBe(0);
  });
});
