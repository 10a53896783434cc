/**
 * Runs the guides' offline examples (docs/examples/*.ts: scripted model, real temp dirs and sqlite
 * files, in-process servers) and checks they do what the guides say. The examples import
 * `vv-agent-app-server` like a consumer; here that name is mapped to the sources.
 */
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExample } from './example-modules';
import {
  AppServerClient,
  AppServerClientError,
  ScriptedModelProvider,
  finish,
  type LlmRequest,
} from '../../../src';

const { quickstart } = loadExample('runtime-quickstart');
const { fileTicketWithApproval } = loadExample('runtime-custom-tool');
const { steerThenCancel } = loadExample('runtime-steer-cancel');
const { runAndReplay } = loadExample('runtime-event-store');
const { resolveFromSettings } = loadExample('runtime-openai-client');
const { runScriptedTurn } = loadExample('client-in-process');
const { withOverloadRetry } = loadExample('client-retry');
const { unexpectedShape } = loadExample('validate-with-schemas');
const { startProductServer } = loadExample('embedding-module');

jest.mock('vv-agent-app-server', () => jest.requireActual('../../../src'), { virtual: true });
jest.mock(
  'vv-agent-app-server/schema/app-server/json/ServerNotification.json',
  () => jest.requireActual('../../../schema/app-server/json/ServerNotification.json'),
  { virtual: true },
);
jest.mock(
  'vv-agent-app-server/schema/app-server/json/ServerRequest.json',
  () => jest.requireActual('../../../schema/app-server/json/ServerRequest.json'),
  { virtual: true },
);

jest.setTimeout(20_000);

let root: string;
let workspace: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vv-docs-examples-'));
  workspace = join(root, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'notes.md'), '# notes\n');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('runtime-guide examples', () => {
  it('quickstart: streams, finishes, replays the journal and reports usage', async () => {
    const outcome = await quickstart(workspace);
    expect(outcome.streamedText).toBe('Let me look at the files. The workspace holds notes.md.');
    expect(outcome.result).toMatchObject({
      status: 'completed',
      completionReason: 'tool_finish',
      finalAnswer: 'The workspace holds notes.md.',
    });
    expect(outcome.eventTypes[0]).toBe('run_started');
    expect(outcome.eventTypes.at(-1)).toBe('run_completed');
    expect(outcome.replayedEventCount).toBe(outcome.eventTypes.length);
    // One call reported usage, the other none: the aggregate is unknown (null), never 0.
    expect(outcome.usage).toMatchObject({
      schema_version: 'vv-agent.task-token-usage.v1',
      input_tokens: null,
    });
    expect(outcome.usage.cycles.map((c) => c.usage.input_tokens)).toEqual([120, null]);
  });

  it('custom tool: the high-priority call waits for handle.approve; deny keeps the handler from running', async () => {
    const created: string[] = [];
    const tracker = {
      create: async (ticket: { title: string }) => {
        created.push(ticket.title);
        return 'T-1';
      },
    };
    const allowed = await fileTicketWithApproval(tracker, workspace, () => true);
    expect(allowed.finalAnswer).toBe('Ticket filed.');
    expect(created).toEqual(['Site is down']);
    const completed = allowed.events.find((event) => event.type === 'tool_call_completed');
    expect(completed).toMatchObject({
      tool_name: 'create_ticket',
      status: 'success',
      tool_metadata: { side_effect: 'write', capability_tags: ['tickets'] },
    });

    const denied = await fileTicketWithApproval(tracker, workspace, () => false);
    expect(created).toEqual(['Site is down']);
    expect(denied.events.find((event) => event.type === 'tool_call_completed')).toMatchObject({
      error_code: 'tool_approval_denied',
      execution_started: false,
    });
  });

  it('steer and cancel: the steer is applied; the cancelled run reports its reason', async () => {
    const outcome = await steerThenCancel(workspace);
    expect(outcome.steered).toEqual([expect.objectContaining({ input: 'Answer in French.' })]);
    expect(outcome.cancelled).toBe('failed/cancelled: user pressed stop');
  });

  it('event store: the JSONL file replays the run from run_started to run_completed', async () => {
    const types = await runAndReplay(workspace, join(root, 'events', 'runs.jsonl'));
    expect(types[0]).toBe('run_started');
    expect(types.at(-1)).toBe('run_completed');
  });

  it('settings: exact resolution, and the exact error for a model that is not configured', () => {
    const settingsPath = join(root, 'llm-settings.json');
    writeFileSync(
      settingsPath,
      JSON.stringify({
        VERSION: '2',
        endpoints: [{ id: 'moonshot-default', api_base: 'https://api.moonshot.cn/v1/', api_key: 'sk-test' }],
        backends: {
          moonshot: {
            models: {
              'kimi-k3': { id: 'kimi-k3', endpoints: ['moonshot-default'], context_length: 1000000 },
            },
          },
        },
      }),
    );
    expect(resolveFromSettings(settingsPath, 'moonshot', 'kimi-k3')).toMatchObject({
      backend: 'moonshot',
      model_id: 'kimi-k3',
      context_length: 1000000,
      // The trailing / of api_base is ignored.
      endpoint_options: [{ endpoint: { id: 'moonshot-default', api_base: 'https://api.moonshot.cn/v1' } }],
    });
    expect(() => resolveFromSettings(settingsPath, 'moonshot', 'kimi-k2.5')).toThrow(
      'invalid LLM settings: model not found: backend=moonshot model=kimi-k2.5',
    );
  });
});

describe('protocol-guide / embedding-guide examples', () => {
  it('schema validation: accepts real server messages and names what is wrong with a broken one', () => {
    const started = {
      jsonrpc: '2.0',
      method: 'turn/started',
      params: { threadId: 'thread_1', turnId: 'turn_1' },
    };
    expect(unexpectedShape(started)).toEqual([]);
    const request = {
      jsonrpc: '2.0',
      id: 'approval_1',
      method: 'approval/request',
      params: {
        requestId: 'approval_1',
        threadId: 'thread_1',
        turnId: 'turn_1',
        toolCallId: 'call_1',
        toolName: 'bash',
        preview: 'Run ls',
        arguments: { command: 'ls' },
      },
    };
    expect(unexpectedShape(request)).toEqual([]);
    expect(unexpectedShape({ ...started, params: { threadId: 'thread_1' } })).not.toEqual([]);
  });

  it('overload retry: retries -32001 with growing waits, rethrows anything else at once', async () => {
    const overloaded = new AppServerClientError('Server overloaded; retry later.', { code: -32001 });
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls < 3) throw overloaded;
      return 'ok';
    };
    await expect(withOverloadRetry(flaky, { sleep })).resolves.toBe('ok');
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);

    const notFound = new AppServerClientError('Thread not found', { code: -32020 });
    await expect(withOverloadRetry(() => Promise.reject(notFound), { sleep })).rejects.toBe(notFound);
    await expect(withOverloadRetry(() => Promise.reject(overloaded), { sleep, maxAttempts: 2 })).rejects.toBe(
      overloaded,
    );
    expect(waits).toHaveLength(3);
  });

  it('in-process client: one approved bash call, then turn/completed', async () => {
    const transcript = await runScriptedTurn(workspace, join(root, 'store.sqlite'));
    expect(transcript.approvals).toEqual(['Run ls | wc -l']);
    expect(transcript.finalOutput).toBe('Counted.');
    expect(transcript.methods.slice(0, 3)).toEqual([
      'thread/started',
      'thread/status/changed',
      'turn/started',
    ]);
    expect(transcript.methods.slice(-2)).toEqual(['thread/status/changed', 'turn/completed']);
    expect(transcript.methods).not.toContain('approval/request'); // answered by the handler
  });

  describe('a product module with a tenant-routing host', () => {
    let server: Awaited<ReturnType<typeof startProductServer>> | undefined;
    afterEach(async () => server?.close());

    it('routes turns by tenant, reloads the tenant per turn, and rejects unknown tenants with -32603', async () => {
      const systemPrompts: unknown[] = [];
      const answer = (text: string) => (request: LlmRequest) => {
        systemPrompts.push(request.messages[0].content);
        return finish(text);
      };
      const modelProvider = new ScriptedModelProvider({ steps: [answer('First.'), answer('Second.')] });
      server = await startProductServer({
        modelProvider,
        storePath: join(root, 'data', 'app-server.sqlite'),
      });
      const tenant = {
        id: 'acme',
        instructions: 'You are the ACME assistant.',
        model: modelProvider.defaultModelRef(),
        tools: [],
        approvalPolicy: 'on-request' as const,
        workspaceRoot: join(root, 'tenants', 'acme'),
        models: [{ id: 'demo-model', provider: 'scripted', supportsTools: true }],
      };
      server.tenants.put(tenant);
      const client = AppServerClient.inProcess(server.core);
      await client.initialize({ name: 'product-test' });
      expect(await client.listModels({ provider: 'scripted' })).toEqual({ models: tenant.models });
      expect(await client.listModels({ provider: 'other' })).toEqual({ models: [] });

      const { threadId } = await client.startThread({ agentKey: 'support', metadata: { tenant: 'acme' } });
      const runTurn = async (text: string) => {
        await client.startTurn({ threadId, input: [{ type: 'text', text }] });
        const done = await client.waitFor((m) => m.method === 'turn/completed', { timeoutMs: 5_000 });
        return done.method === 'turn/completed' ? done.params.finalOutput : undefined;
      };
      expect(await runTurn('hello')).toBe('First.');
      // Edit the tenant: the next turn sees the new instructions without a restart.
      server.tenants.put({ ...tenant, instructions: 'You are the NEW ACME assistant.' });
      expect(await runTurn('again')).toBe('Second.');
      expect(systemPrompts).toEqual(['You are the ACME assistant.', 'You are the NEW ACME assistant.']);
      expect(existsSync(join(tenant.workspaceRoot, threadId))).toBe(true);

      const other = await client.startThread({ metadata: { tenant: 'globex' } });
      await expect(
        client.startTurn({ threadId: other.threadId, input: [{ type: 'text', text: 'hi' }] }),
      ).rejects.toMatchObject({ code: -32603, message: 'unknown tenant: globex' });
      await client.close();
    });
  });
});
