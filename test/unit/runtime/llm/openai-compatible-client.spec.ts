import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type {
  LlmRequest,
  ModelSettings,
  ResolvedModelConfig,
  StreamCallbacks,
  ToolSpec,
} from '../../../../src/runtime/model/types';
import { LlmError } from '../../../../src/runtime/model/types';
import {
  OpenAiCompatibleClient,
  createOpenAiCompatibleClient,
} from '../../../../src/runtime/llm/openai-compatible-client';
import { parseLlmSettingsDocument } from '../../../../src/runtime/llm/settings-document';
import { resolveModelEndpoint } from '../../../../src/runtime/llm/model-resolution';
import {
  FakeOpenAiServer,
  chunks,
  type FakeReply,
  fakeSettingsDocument,
  textReply,
  type RecordedRequest,
} from '../../../helpers/fake-openai-server';

/**
 * Recorded real provider streams, shared outside the repository (never copied into it): a header of
 * `# key: value` lines up to `# ---`, then the body. `framing: raw` bodies are served byte for byte (in
 * small pieces, so events straddle chunk boundaries); `chunk-lines` bodies as one `data:` event per
 * non-empty line, then `[DONE]`.
 */
const REAL_STREAMS =
  process.env.VV_REAL_STREAMS_DIR ?? resolve(__dirname, '../../../../../shared/fixtures/real-streams');

function realStreamReply(file: string): FakeReply {
  const bytes = readFileSync(join(REAL_STREAMS, file));
  const separator = bytes.indexOf('# ---\n');
  const header = bytes.subarray(0, separator).toString('utf8');
  const body = bytes.subarray(separator + '# ---\n'.length);
  if (/^# framing: chunk-lines/m.test(header)) {
    const lines = body
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    return { type: 'stream', steps: lines.map((line) => ({ raw: `data: ${line}\n\n` })) };
  }
  const steps = [];
  for (let offset = 0; offset < body.length; offset += 61)
    steps.push({ raw: body.subarray(offset, offset + 61) });
  return { type: 'stream', steps, done: false };
}

const PRIMARY_KEY = 'sk-primary-SECRET-1234';
const BACKUP_KEY = 'sk-backup-SECRET-5678';

interface Recorded {
  content: string[];
  reasoning: string[];
  named: Array<{ toolCallId: string; toolName: string; index: number }>;
  argumentFragments: Array<{ toolCallId: string; index: number; fragment: string; argumentsChars: number }>;
  callbacks: StreamCallbacks;
  /** Resolves with the first content fragment. */
  firstContent: Promise<string>;
}

function recorder(): Recorded {
  let resolveFirst: (fragment: string) => void = () => undefined;
  const firstContent = new Promise<string>((resolve) => (resolveFirst = resolve));
  const recorded: Omit<Recorded, 'callbacks'> = {
    content: [],
    reasoning: [],
    named: [],
    argumentFragments: [],
    firstContent,
  };
  return {
    ...recorded,
    callbacks: {
      onContent: (fragment) => {
        recorded.content.push(fragment);
        resolveFirst(fragment);
      },
      onReasoning: (fragment) => recorded.reasoning.push(fragment),
      onToolCallNamed: (call) => recorded.named.push(call),
      onToolCallArguments: ({ toolCallId, index, fragment, argumentsChars }) =>
        recorded.argumentFragments.push({ toolCallId, index, fragment, argumentsChars }),
    },
  };
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
    }),
  ]);
}

async function rejection(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAiCompatibleClient against a real HTTP server', () => {
  let server: FakeOpenAiServer;
  let sleeps: number[];
  let client: OpenAiCompatibleClient;

  beforeEach(async () => {
    server = await FakeOpenAiServer.start();
    sleeps = [];
    client = new OpenAiCompatibleClient({
      timeoutSeconds: 10,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
  });
  afterEach(async () => {
    await server.close();
  });

  function model(options: { backup?: boolean; backend?: string } = {}): ResolvedModelConfig {
    const endpoints = [{ id: 'primary', apiBase: server.baseUrl, apiKey: PRIMARY_KEY }];
    if (options.backup) {
      endpoints.push({ id: 'backup', apiBase: server.baseUrl.replace('/v1', '/v2/'), apiKey: BACKUP_KEY });
    }
    const backend = options.backend ?? 'openai';
    const settings = parseLlmSettingsDocument(
      fakeSettingsDocument({ endpoints, backend, model: 'test-model', modelId: 'test-model-id' }),
    );
    return resolveModelEndpoint(settings, backend, 'test-model');
  }

  function request(
    overrides: { settings?: ModelSettings; tools?: ToolSpec[]; resolved?: ResolvedModelConfig } = {},
  ): LlmRequest {
    return {
      model: overrides.resolved ?? model(),
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello' },
      ],
      tools: overrides.tools ?? [],
      settings: overrides.settings ?? {},
    };
  }

  function complete(llmRequest: LlmRequest, recorded = recorder(), signal = new AbortController().signal) {
    return client.complete(llmRequest, recorded.callbacks, signal);
  }

  describe('streaming', () => {
    it('delivers content fragments while the response is still streaming', async () => {
      const release = gate();
      server.enqueue({
        type: 'stream',
        steps: [
          { chunk: chunks.role() },
          { chunk: chunks.content('Hel') },
          { waitFor: release.promise },
          { chunk: chunks.content('lo') },
          { chunk: chunks.finish('stop') },
        ],
      });
      const recorded = recorder();
      const pending = complete(request(), recorded);

      expect(await withinMs(recorded.firstContent, 5000, 'the first fragment')).toBe('Hel');
      const [sent] = await server.waitForRequests(1);
      let responseClosed = false;
      void sent.closed.then(() => (responseClosed = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(responseClosed).toBe(false);
      expect(recorded.content).toEqual(['Hel']);

      release.open();
      const response = await pending;
      expect(recorded.content).toEqual(['Hel', 'lo']);
      expect(response.content).toBe('Hello');
      expect(response.finishReason).toBe('stop');
      expect(response.toolCalls).toEqual([]);
      expect(response).not.toHaveProperty('reasoningContent');
    });

    it('POSTs the request body to {api_base}/chat/completions with the spec headers', async () => {
      server.enqueue(textReply(['ok']));
      await complete(request({ settings: { temperature: 0.5 } }));
      const [sent] = server.requests;
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${PRIMARY_KEY}`);
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers.accept).toBe('text/event-stream');
      expect(sent.body).toEqual({
        model: 'test-model-id',
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Say hello' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.5,
      });
    });

    it('streams reasoning and returns it as reasoningContent', async () => {
      server.enqueue(textReply(['answer'], { reasoning: ['let me ', 'think'] }));
      const recorded = recorder();
      const response = await complete(request(), recorded);
      expect(recorded.reasoning).toEqual(['let me ', 'think']);
      expect(response.reasoningContent).toBe('let me think');
    });

    it('assembles two parallel tool calls with fragmented arguments', async () => {
      server.enqueue({
        type: 'stream',
        steps: [
          { chunk: chunks.role() },
          { chunk: chunks.toolCall({ index: 0, id: 'call_read', name: 'read_file', arguments: '' }) },
          { chunk: chunks.toolCall({ index: 0, arguments: '{"pa' }) },
          { chunk: chunks.toolCall({ index: 1, id: 'call_bash', name: 'bash', arguments: '{"command":' }) },
          { chunk: chunks.toolCall({ index: 0, arguments: 'th":"a.txt"}' }) },
          { chunk: chunks.toolCall({ index: 1, arguments: '"ls -la"}' }) },
          { chunk: chunks.finish('tool_calls') },
        ],
      });
      const tools: ToolSpec[] = ['read_file', 'bash'].map((name) => ({
        type: 'function',
        function: { name, description: name, parameters: { type: 'object' } },
      }));
      const recorded = recorder();
      const response = await complete(request({ tools }), recorded);

      expect(server.requests[0].body?.tools).toEqual(tools);
      expect(server.requests[0].body?.tool_choice).toBe('auto');
      expect(response.toolCalls).toEqual([
        { id: 'call_read', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
        { id: 'call_bash', type: 'function', function: { name: 'bash', arguments: '{"command":"ls -la"}' } },
      ]);
      expect(response.finishReason).toBe('tool_calls');
      expect(recorded.named).toEqual([
        { toolCallId: 'call_read', toolName: 'read_file', index: 0 },
        { toolCallId: 'call_bash', toolName: 'bash', index: 1 },
      ]);
      expect(recorded.argumentFragments).toEqual([
        { toolCallId: 'call_read', index: 0, fragment: '{"pa', argumentsChars: 4 },
        { toolCallId: 'call_bash', index: 1, fragment: '{"command":', argumentsChars: 11 },
        { toolCallId: 'call_read', index: 0, fragment: 'th":"a.txt"}', argumentsChars: 16 },
        { toolCallId: 'call_bash', index: 1, fragment: '"ls -la"}', argumentsChars: 20 },
      ]);
    });

    it('accepts a plain JSON completion when the gateway ignores stream: true', async () => {
      server.enqueue({
        type: 'response',
        status: 200,
        body: {
          choices: [
            { index: 0, message: { role: 'assistant', content: 'whole answer' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        },
      });
      const recorded = recorder();
      const response = await complete(request(), recorded);
      expect(recorded.content).toEqual(['whole answer']);
      expect(response.usage.input_tokens).toBe(10);
    });
  });

  describe('usage', () => {
    it('normalizes provider usage with cached tokens', async () => {
      const usage = {
        prompt_tokens: 1000,
        completion_tokens: 120,
        total_tokens: 1120,
        prompt_tokens_details: { cached_tokens: 640 },
      };
      server.enqueue(textReply(['hi'], { usage }));
      const response = await complete(request());
      expect(response.usage).toEqual({
        schema_version: 'vv-agent.token-usage.v1',
        input_tokens: 1000,
        output_tokens: 120,
        total_tokens: 1120,
        reasoning_tokens: null,
        usage_source: 'provider_reported',
        cache_usage: {
          status: 'provider_reported',
          read_input_tokens: 640,
          write_input_tokens: null,
          uncached_input_tokens: 360,
          source: 'provider_usage',
        },
        provider_usage: usage,
      });
    });

    it('normalizes provider usage without cache fields as accounting_missing', async () => {
      server.enqueue(
        textReply(['hi'], { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
      );
      const response = await complete(request());
      expect(response.usage).toMatchObject({
        input_tokens: 7,
        output_tokens: 3,
        total_tokens: 10,
        usage_source: 'provider_reported',
        cache_usage: { status: 'accounting_missing', read_input_tokens: null, source: null },
      });
    });

    it('passes the backend to normalization (moonshot reports a zero cache read)', async () => {
      server.enqueue(
        textReply(['hi'], { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
      );
      const response = await complete(request({ resolved: model({ backend: 'moonshot' }) }));
      expect(response.usage.cache_usage).toEqual({
        status: 'provider_reported',
        read_input_tokens: 0,
        write_input_tokens: null,
        uncached_input_tokens: 7,
        source: 'provider_usage',
      });
    });

    it('estimates usage from request and response characters when the stream carried none', async () => {
      server.enqueue(textReply(['Hello', ' there!'], { reasoning: ['hmm'] }));
      const response = await complete(request());
      const requestChars = server.requests[0].rawBody.length;
      const input = Math.ceil(requestChars / 4);
      const output = Math.ceil('Hello there!hmm'.length / 4);
      expect(response.usage).toEqual({
        schema_version: 'vv-agent.token-usage.v1',
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        reasoning_tokens: null,
        usage_source: 'estimated',
        cache_usage: {
          status: 'accounting_missing',
          read_input_tokens: null,
          write_input_tokens: null,
          uncached_input_tokens: null,
          source: null,
        },
        provider_usage: {},
      });
    });
  });

  describe('retries and failover', () => {
    it('retries an HTTP 500 on the same endpoint after backoff, then succeeds', async () => {
      server.enqueue({ type: 'response', status: 500, body: 'upstream exploded' }, textReply(['recovered']));
      const response = await complete(request());
      expect(response.content).toBe('recovered');
      expect(server.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      expect(sleeps).toEqual([2000]);
    });

    it('fails with the aggregated text after max attempts of HTTP 500, sleeping backoff × attempt', async () => {
      server.setFallback({ type: 'response', status: 500, body: '  boom\n' });
      const error = await rejection(complete(request()));
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: HTTP 500: boom (attempt 3)',
      );
      expect(error.code).toBe('model_request_failed');
      expect(error.definitive).toBe(false);
      expect(server.requests).toHaveLength(3);
      expect(sleeps).toEqual([2000, 4000]);
    });

    it('honours retry settings and reports an empty error body as HTTP <status>', async () => {
      server.setFallback({ type: 'response', status: 503 });
      const error = await rejection(
        complete(request({ settings: { retry: { max_attempts: 2, backoff_seconds: 0.5 } } })),
      );
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: HTTP 503 (attempt 2)',
      );
      expect(sleeps).toEqual([500]);
    });

    it('cuts HTTP error bodies to their first 500 characters', async () => {
      server.setFallback({ type: 'response', status: 502, body: 'é'.repeat(600) });
      const error = await rejection(complete(request({ settings: { retry: { max_attempts: 1 } } })));
      expect(error.message).toBe(
        `llm request failed: all endpoint targets failed: primary: HTTP 502: ${'é'.repeat(500)} (attempt 1)`,
      );
    });

    it.each([408, 429])('retries HTTP %s', async (status) => {
      server.enqueue({ type: 'response', status, body: 'later' }, textReply(['ok']));
      await expect(complete(request())).resolves.toMatchObject({ content: 'ok' });
      expect(server.requests).toHaveLength(2);
    });

    it('honours Retry-After instead of the backoff, capped', async () => {
      server.enqueue(
        { type: 'response', status: 429, body: 'slow down', headers: { 'Retry-After': '7' } },
        { type: 'response', status: 429, body: 'slow down', headers: { 'Retry-After': '86400' } },
        textReply(['ok']),
      );
      await complete(request());
      expect(sleeps).toEqual([7000, 60000]);
    });

    it('fails over on HTTP 401 without retrying, and prefers the endpoint that last succeeded', async () => {
      server.enqueue({ type: 'response', status: 401, body: 'invalid key' }, textReply(['from backup']));
      const resolved = model({ backup: true });
      const response = await complete(request({ resolved }));
      expect(response.content).toBe('from backup');
      expect(server.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
        ['/v1/chat/completions', `Bearer ${PRIMARY_KEY}`],
        ['/v2/chat/completions', `Bearer ${BACKUP_KEY}`],
      ]);
      expect(sleeps).toEqual([]);

      server.enqueue(textReply(['again']));
      await complete(request({ resolved }));
      expect(server.requests[2].path).toBe('/v2/chat/completions');
    });

    it('lists every endpoint with its last attempt when all fail', async () => {
      server.enqueue(
        { type: 'response', status: 403, body: 'forbidden' },
        { type: 'response', status: 500, body: 'e1' },
        { type: 'response', status: 500, body: 'e2' },
      );
      const error = await rejection(
        complete(request({ resolved: model({ backup: true }), settings: { retry: { max_attempts: 2 } } })),
      );
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: HTTP 403: forbidden (attempt 1); backup: HTTP 500: e2 (attempt 2)',
      );
    });

    it.each([400, 413, 422])('aborts on HTTP %s without retry or failover', async (status) => {
      server.setFallback({ type: 'response', status, body: '{"error":{"message":"bad field"}}' });
      const error = await rejection(complete(request({ resolved: model({ backup: true }) })));
      expect(error.message).toBe(`llm request failed: HTTP ${status}: {"error":{"message":"bad field"}}`);
      expect(error.code).toBe('model_request_failed');
      expect(server.requests).toHaveLength(1);
    });

    it('labels a context-length rejection prompt_too_long, definitive', async () => {
      server.setFallback({
        type: 'response',
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 8192 tokens",
            code: 'context_length_exceeded',
          },
        },
      });
      const error = await rejection(complete(request({ resolved: model({ backup: true }) })));
      expect(error.code).toBe('prompt_too_long');
      expect(error.definitive).toBe(true);
      expect(error.message).toMatch(/^llm request failed: HTTP 400: .*maximum context length/);
      expect(server.requests).toHaveLength(1);
    });

    it('retries a connection dropped before any output', async () => {
      server.enqueue(
        { type: 'stream', steps: [{ chunk: chunks.role() }], done: false, end: 'drop' },
        textReply(['ok']),
      );
      await expect(complete(request())).resolves.toMatchObject({ content: 'ok' });
      expect(server.requests).toHaveLength(2);
    });

    it('retries a stream error payload that arrives before any output', async () => {
      server.enqueue(
        { type: 'stream', steps: [{ chunk: chunks.error('upstream overloaded') }] },
        textReply(['ok']),
      );
      await expect(complete(request())).resolves.toMatchObject({ content: 'ok' });
    });

    it('fails over from an unreachable endpoint after its retries', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const deadPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const settings = parseLlmSettingsDocument(
        fakeSettingsDocument({
          endpoints: [
            { id: 'dead', apiBase: `http://127.0.0.1:${deadPort}/v1` },
            { id: 'alive', apiBase: server.baseUrl },
          ],
          backend: 'openai',
          model: 'm',
        }),
      );
      server.enqueue(textReply(['alive']));
      const response = await complete(request({ resolved: resolveModelEndpoint(settings, 'openai', 'm') }));
      expect(response.content).toBe('alive');
      expect(sleeps).toEqual([2000, 4000]);
    });
  });

  describe('no retry after partial output', () => {
    it('makes a dropped connection after a fragment final', async () => {
      server.setFallback({
        type: 'stream',
        steps: [{ chunk: chunks.content('Hel') }],
        done: false,
        end: 'drop',
      });
      const recorded = recorder();
      const error = await rejection(complete(request(), recorded));
      expect(recorded.content).toEqual(['Hel']);
      expect(error.message).toBe('llm request failed: model stream ended before completion');
      expect(error.code).toBe('model_request_failed');
      expect(server.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    });

    it('makes a stream error payload after a tool-call fragment final', async () => {
      server.setFallback({
        type: 'stream',
        steps: [
          { chunk: chunks.toolCall({ index: 0, id: 'c', name: 'bash' }) },
          { chunk: chunks.error('upstream died') },
        ],
      });
      const error = await rejection(complete(request()));
      expect(error.message).toBe('llm request failed: upstream died');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('malformed streams', () => {
    it('fails without retrying a malformed data line before output (not retryable per §14.4)', async () => {
      server.setFallback({
        type: 'stream',
        steps: [{ chunk: chunks.role() }, { raw: 'data: {"choices": [oops\n\n' }],
      });
      const error = await rejection(complete(request()));
      expect(error.message).toMatch(
        /^llm request failed: all endpoint targets failed: primary: invalid stream chunk: .+ \(attempt 1\)$/,
      );
      expect(server.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    });

    it('fails over to the next endpoint after a malformed stream', async () => {
      const healthy = await FakeOpenAiServer.start();
      try {
        const settings = parseLlmSettingsDocument(
          fakeSettingsDocument({
            endpoints: [
              { id: 'garbled', apiBase: server.baseUrl },
              { id: 'healthy', apiBase: healthy.baseUrl },
            ],
            backend: 'openai',
            model: 'm',
          }),
        );
        server.setFallback({ type: 'stream', steps: [{ raw: 'data: <html>\n\n' }] });
        healthy.enqueue(textReply(['fine']));
        const response = await complete(request({ resolved: resolveModelEndpoint(settings, 'openai', 'm') }));
        expect(response.content).toBe('fine');
        expect(server.requests).toHaveLength(1);
        expect(sleeps).toEqual([]);
      } finally {
        await healthy.close();
      }
    });

    it('fails at once for a malformed data line after output', async () => {
      server.setFallback({
        type: 'stream',
        steps: [{ chunk: chunks.content('a') }, { raw: 'data: not-json\n\n' }],
      });
      const error = await rejection(complete(request()));
      expect(error.message).toMatch(/^llm request failed: invalid stream chunk: /);
      expect(server.requests).toHaveLength(1);
    });

    it('ignores comments, keep-alives and other fields', async () => {
      server.enqueue({
        type: 'stream',
        steps: [
          { raw: ': OPENROUTER PROCESSING\n\n' },
          { raw: 'event: ping\ndata:\n\n' },
          { chunk: chunks.content('fine') },
        ],
      });
      await expect(complete(request())).resolves.toMatchObject({ content: 'fine' });
    });
  });

  describe('timeout', () => {
    it('cuts a slow stream at the per-attempt timeout and retries it', async () => {
      server.setFallback({ type: 'stream', steps: [{ chunk: chunks.role() }], done: false, end: 'hang' });
      const error = await rejection(
        complete(
          request({ settings: { timeout_seconds: 0.25, retry: { max_attempts: 2, backoff_seconds: 0 } } }),
        ),
      );
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: request timed out after 0.250 seconds (attempt 2)',
      );
      expect(server.requests).toHaveLength(2);
      for (const sent of server.requests) {
        await expect(withinMs(sent.closed, 2000, 'socket close')).resolves.toMatchObject({
          completed: false,
        });
      }
    });

    it('uses the client timeout when settings give none', async () => {
      const quick = new OpenAiCompatibleClient({ timeoutSeconds: 0.2, sleep: () => Promise.resolve() });
      server.setFallback({ type: 'hang' });
      const error = await rejection(
        quick.complete(
          request({ settings: { retry: { max_attempts: 1 } } }),
          recorder().callbacks,
          new AbortController().signal,
        ),
      );
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: request timed out after 0.200 seconds (attempt 1)',
      );
    });
  });

  describe('cancellation', () => {
    it('closes the socket at once when aborted mid-stream and does not retry', async () => {
      server.setFallback({
        type: 'stream',
        steps: [{ chunk: chunks.content('Hel') }],
        done: false,
        end: 'hang',
      });
      const controller = new AbortController();
      const recorded = recorder();
      const pending = client.complete(request(), recorded.callbacks, controller.signal);
      await recorded.firstContent;
      controller.abort();

      const error = await rejection(pending);
      expect(error.code).toBe('model_request_cancelled');
      expect(error.message).toBe('llm request failed: request cancelled');
      const sent: RecordedRequest = server.requests[0];
      await expect(withinMs(sent.closed, 1000, 'socket close after abort')).resolves.toMatchObject({
        completed: false,
      });
      expect(server.requests).toHaveLength(1);
    });

    it('cancels a request that is still waiting for the response head', async () => {
      server.setFallback({ type: 'hang' });
      const controller = new AbortController();
      const pending = client.complete(request(), recorder().callbacks, controller.signal);
      const [sent] = await server.waitForRequests(1);
      controller.abort();
      expect((await rejection(pending)).code).toBe('model_request_cancelled');
      await expect(withinMs(sent.closed, 1000, 'socket close after abort')).resolves.toMatchObject({
        completed: false,
      });
    });

    it('cancels during the backoff sleep', async () => {
      const controller = new AbortController();
      const sleepy = new OpenAiCompatibleClient({
        sleep: (_ms, signal) =>
          new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
      });
      server.setFallback({ type: 'response', status: 500, body: 'x' });
      const pending = sleepy.complete(request(), recorder().callbacks, controller.signal);
      await server.waitForRequests(1);
      controller.abort();
      expect((await rejection(pending)).code).toBe('model_request_cancelled');
      expect(server.requests).toHaveLength(1);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      expect((await rejection(complete(request(), recorder(), controller.signal))).code).toBe(
        'model_request_cancelled',
      );
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('settings errors and secrets', () => {
    it('aborts on an unknown tool_choice without sending anything', async () => {
      const error = await rejection(
        complete(request({ settings: { tool_choice: { type: 'function', function: { name: 'ghost' } } } })),
      );
      expect(error.message).toBe('llm request failed: tool_choice refers to unknown tool: ghost');
      expect(server.requests).toHaveLength(0);
    });

    it('never puts the API key in an error message', async () => {
      server.setFallback({
        type: 'response',
        status: 401,
        body: `Incorrect API key provided: ${PRIMARY_KEY}`,
      });
      const error = await rejection(complete(request()));
      expect(error.message).not.toContain(PRIMARY_KEY);
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: HTTP 401: Incorrect API key provided: *** (attempt 1)',
      );
    });

    it('refuses to build a client over a Responses endpoint', () => {
      const settings = parseLlmSettingsDocument({
        VERSION: '2',
        endpoints: [{ id: 'r', api_base: server.baseUrl, api_key: 'k', response_api: true }],
        backends: { openai: { models: { m: { id: 'm', endpoints: ['r'] } } } },
      });
      const resolved = resolveModelEndpoint(settings, 'openai', 'm');
      expect(() => createOpenAiCompatibleClient(settings, resolved)).toThrow(
        new Error('Responses endpoints are not supported'),
      );
    });
  });

  describe('§14.4 v1.1: incomplete streams, unexpected bodies, idle timeout', () => {
    const noRetrySleep = { retry: { max_attempts: 3, backoff_seconds: 0 } };

    it('an HTML 200 is an unexpected body: not retried, fails over, never an empty reply', async () => {
      const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
      server.setFallback({
        type: 'response',
        status: 200,
        body: html,
        headers: { 'Content-Type': 'text/html' },
      });
      const error = await rejection(
        complete(request({ resolved: model({ backup: true }), settings: noRetrySleep })),
      );
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: ' +
          `primary: unexpected response body: ${html} (attempt 1); backup: unexpected response body: ${html} (attempt 1)`,
      );
      expect(server.requests).toHaveLength(2);
    });

    it('an empty 200 event stream and JSON without choices are unexpected bodies (first 200 chars)', async () => {
      server.enqueue({ type: 'stream', steps: [], done: false });
      let error = await rejection(complete(request({ settings: noRetrySleep })));
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: unexpected response body:  (attempt 1)',
      );
      const long = { status: 'ok', padding: 'x'.repeat(300) };
      server.enqueue({ type: 'response', status: 200, body: long });
      error = await rejection(complete(request({ settings: noRetrySleep })));
      const head = JSON.stringify(long).slice(0, 200);
      expect(error.message).toBe(
        `llm request failed: all endpoint targets failed: primary: unexpected response body: ${head} (attempt 1)`,
      );
      expect(server.requests).toHaveLength(2);
    });

    it('accepts a plain JSON chat.completion even when it is labelled text/event-stream', async () => {
      const completion = {
        id: 'c',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }],
      };
      server.enqueue({ type: 'stream', steps: [{ raw: JSON.stringify(completion) }], done: false });
      await expect(complete(request())).resolves.toMatchObject({ content: 'plain', finishReason: 'stop' });
    });

    it('a clean close before any output, without finish_reason or [DONE], is retried as incomplete', async () => {
      server.setFallback({ type: 'stream', steps: [{ chunk: chunks.role() }], done: false });
      const error = await rejection(complete(request({ settings: noRetrySleep })));
      expect(error.message).toBe(
        'llm request failed: all endpoint targets failed: primary: model stream ended before completion (attempt 3)',
      );
      expect(server.requests).toHaveLength(3);
    });

    it('a clean close mid-text is an error, not a complete answer, and is final after partial output', async () => {
      server.setFallback({
        type: 'stream',
        steps: [{ chunk: chunks.role() }, { chunk: chunks.content('The answer is') }],
        done: false,
      });
      const recorded = recorder();
      const error = await rejection(complete(request({ settings: noRetrySleep }), recorded));
      expect(recorded.content).toEqual(['The answer is']);
      expect(error.message).toBe('llm request failed: model stream ended before completion');
      expect(server.requests).toHaveLength(1);
    });

    it('a finish_reason without [DONE] before a clean close is complete', async () => {
      server.enqueue({
        type: 'stream',
        steps: [{ chunk: chunks.content('ok') }, { chunk: chunks.finish('stop') }],
        done: false,
      });
      await expect(complete(request())).resolves.toMatchObject({ content: 'ok', finishReason: 'stop' });
    });

    it('the timeout bounds each gap between chunks, not the whole stream', async () => {
      const steps = [{ chunk: chunks.role() }] as Array<{ chunk: object } | { delayMs: number }>;
      for (let index = 0; index < 8; index += 1)
        steps.push({ delayMs: 100 }, { chunk: chunks.content(`${index}`) });
      steps.push({ chunk: chunks.finish('stop') });
      server.enqueue({ type: 'stream', steps });
      // 8 gaps of 100 ms: the stream runs ~800 ms, well past the 400 ms timeout, and is never idle that long.
      const response = await complete(
        request({ settings: { timeout_seconds: 0.4, retry: { max_attempts: 1 } } }),
      );
      expect(response.content).toBe('01234567');
      expect(server.requests).toHaveLength(1);
    });

    // §14.4 v1.2 (issue #45 item 10): comments and blank lines are not delivery.
    type Step = { chunk: object } | { delayMs: number } | { raw: string };
    /** `count` keep-alives `everyMs` apart: 20 s of them, longer than any test waits. */
    function keepAlives(count: number, everyMs: number, text: string): Step[] {
      const steps: Step[] = [];
      for (let index = 0; index < count; index += 1) steps.push({ delayMs: everyMs }, { raw: text });
      return steps;
    }

    it.each([
      ['`: keep-alive` comments', ': keep-alive\n\n'],
      ['provider status comments', ': OPENROUTER PROCESSING\n'],
      ['blank lines', '\n'],
      ['CRLF blank lines', '\r\n'],
    ])(
      'a 200 stream of %s alone expires after the timeout like silence, and is retried',
      async (_name, keepAlive) => {
        server.setFallback({
          type: 'stream',
          steps: [{ chunk: chunks.role() }, ...keepAlives(400, 50, keepAlive)],
          done: false,
          end: 'hang',
        });
        const started = Date.now();
        const error = await withinMs(
          rejection(
            complete(
              request({ settings: { timeout_seconds: 0.3, retry: { max_attempts: 2, backoff_seconds: 0 } } }),
            ),
          ),
          4000,
          'the keep-alive stream to time out',
        );
        expect(error.message).toBe(
          'llm request failed: all endpoint targets failed: primary: request timed out after 0.300 seconds (attempt 2)',
        );
        expect(Date.now() - started).toBeLessThan(3000);
        expect(server.requests).toHaveLength(2);
      },
    );

    it('data with keep-alives between them, and one event sent in slow pieces, is never cut off', async () => {
      // Timeout 1 s; every gap between two chunks carrying data is at most 600 ms (wide margins: the
      // machine running the tests may be busy).
      const steps: Step[] = [{ chunk: chunks.role() }];
      for (let index = 0; index < 4; index += 1)
        steps.push(
          { delayMs: 300 },
          { raw: ': keep-alive\n\n' },
          { delayMs: 300 },
          { chunk: chunks.content(`${index}`) },
        );
      // One event in four writes 450 ms apart: the whole event takes 1.35 s, longer than the timeout,
      // yet each piece of its data line is delivery (a keep-alive between two pieces is not needed).
      const event = `data: ${JSON.stringify(chunks.content('!'))}\n\n`;
      steps.push(
        { raw: event.slice(0, 10) },
        { delayMs: 450 },
        { raw: event.slice(10, 20) },
        { delayMs: 450 },
      );
      steps.push({ raw: event.slice(20, 30) }, { delayMs: 450 }, { raw: event.slice(30) });
      steps.push({ chunk: chunks.finish('stop') });
      server.enqueue({ type: 'stream', steps });
      const response = await complete(
        request({ settings: { timeout_seconds: 1, retry: { max_attempts: 1 } } }),
      );
      expect(response.content).toBe('0123!');
      expect(server.requests).toHaveLength(1);
    }, 15_000);
  });

  const describeRealStreams = existsSync(REAL_STREAMS) ? describe : describe.skip;
  if (!existsSync(REAL_STREAMS)) {
    console.warn(
      `recorded provider streams skipped: ${REAL_STREAMS} is absent (../shared/fixtures/real-streams from the ` +
        'repository root; set VV_REAL_STREAMS_DIR to point elsewhere)',
    );
  }

  describeRealStreams('recorded real provider streams served over HTTP', () => {
    const files = existsSync(REAL_STREAMS)
      ? readdirSync(REAL_STREAMS).filter((f) => f.endsWith('.sse.txt'))
      : [];

    it.each(files)(
      '%s is parsed: a complete response or the provider error, never a body error',
      async (file) => {
        server.enqueue(realStreamReply(file));
        const outcome = await complete(request({ settings: { retry: { max_attempts: 1 } } })).then(
          (response) => ({ response }),
          (error: unknown) => ({ error: error as LlmError }),
        );
        if ('error' in outcome) {
          expect(outcome.error.message).not.toMatch(
            /unexpected response body|ended before completion|invalid stream/,
          );
          expect(file).toMatch(/error/);
        } else {
          const { response } = outcome;
          const output =
            response.content.length + (response.reasoningContent?.length ?? 0) + response.toolCalls.length;
          expect(output > 0 || response.finishReason !== undefined).toBe(true);
        }
      },
    );

    it('assembles parallel tool calls (OpenAI gpt-4o), also with CRLF line endings', async () => {
      for (const file of [
        'openai-gpt4o-parallel-tools.sse.txt',
        'derived-crlf-openai-parallel-tools.sse.txt',
      ]) {
        server.enqueue(realStreamReply(file));
        const response = await complete(request());
        expect(response.toolCalls.map((call) => call.function.name)).toEqual([
          'get_country',
          'get_product_name',
        ]);
        expect(response.finishReason).toBe('tool_calls');
        for (const call of response.toolCalls)
          expect(() => JSON.parse(call.function.arguments) as unknown).not.toThrow();
      }
    });

    it('keeps the first non-empty tool-call id (Alibaba qwen3) and reasoning before content (DeepSeek)', async () => {
      server.enqueue(realStreamReply('alibaba-qwen3-tool-empty-id.sse.txt'));
      const qwen = await complete(request());
      expect(qwen.toolCalls[0]).toMatchObject({
        id: 'call_eee11723464a4b9eb8cee71d',
        function: { name: 'weather' },
      });
      server.enqueue(realStreamReply('deepseek-reasoner-thinking.sse.txt'));
      const deepseek = await complete(request());
      expect(deepseek.reasoningContent?.length).toBeGreaterThan(100);
      expect(deepseek.content.length).toBeGreaterThan(0);
      expect(deepseek.usage.usage_source).toBe('provider_reported');
    });

    it('accepts a finish_reason without [DONE] (TGI) and reports an error event without [DONE] (Groq)', async () => {
      server.enqueue(realStreamReply('tgi-openhermes-no-done.sse.txt'));
      await expect(complete(request())).resolves.toMatchObject({ finishReason: 'length' });
      server.enqueue(realStreamReply('groq-error-event-no-done.sse.txt'));
      const error = await rejection(complete(request({ settings: { retry: { max_attempts: 1 } } })));
      expect(error.message).toMatch(/^llm request failed: Tool call validation failed: /);
    });
  });
});
