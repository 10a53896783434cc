/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for unit and e2e tests.
 *
 *   const server = await FakeOpenAiServer.start();
 *   server.enqueue(textReply(['Hel', 'lo']), { type: 'response', status: 500, body: 'boom' });
 *   // point a settings file at server.baseUrl; every POST consumes the next reply
 *   server.requests[0].body;              // the parsed request body
 *   await server.requests[0].closed;      // resolves when the response/socket closed
 *   await server.close();
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StreamStep =
  /** Written as `data: <JSON>\n\n`. */
  | { chunk: unknown }
  /** Written as is (comments, malformed lines, partial lines, raw bytes). */
  | { raw: string | Buffer }
  | { delayMs: number }
  /** Pauses the stream until the promise settles (lets a test observe fragments mid-stream). */
  | { waitFor: Promise<unknown> };

export type FakeReply =
  | {
      type: 'stream';
      steps: StreamStep[];
      /** Default 200. */
      status?: number;
      headers?: Record<string, string>;
      /** Write `data: [DONE]\n\n` after the steps; default true. */
      done?: boolean;
      /** After the steps: end the response (default), destroy the socket, or keep it open forever. */
      end?: 'end' | 'drop' | 'hang';
    }
  /** A plain response; an object body is sent as JSON. */
  | { type: 'response'; status: number; body?: string | object; headers?: Record<string, string> }
  /** Accept the request and never answer. */
  | { type: 'hang' }
  | ((request: RecordedRequest) => FakeReply | Promise<FakeReply>);

export interface RecordedRequest {
  index: number;
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as a JSON object, or `null`. */
  body: Record<string, unknown> | null;
  receivedAt: number;
  /** Resolves when the response closed; `completed` is false when the client went away first. */
  closed: Promise<{ completed: boolean; at: number }>;
}

const NO_REPLY: FakeReply = {
  type: 'response',
  status: 500,
  body: { error: { message: 'fake server: no scripted reply left' } },
};

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export class FakeOpenAiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private readonly waiters: Array<() => void> = [];

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    private fallback: FakeReply,
  ) {}

  static async start(options: { fallback?: FakeReply } = {}): Promise<FakeOpenAiServer> {
    let instance: FakeOpenAiServer | null = null;
    const server = http.createServer((req, res) => {
      void instance?.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    instance = new FakeOpenAiServer(server, port, options.fallback ?? NO_REPLY);
    return instance;
  }

  /** `http://127.0.0.1:<port>/v1`, the `api_base` to put in a settings file. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Replies are used in order, one per request; afterwards the fallback answers (default HTTP 500). */
  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Drops the replies no request has taken yet (a run cancelled before its model call takes none). */
  discardQueued(): number {
    return this.queue.splice(0).length;
  }

  setFallback(reply: FakeReply): this {
    this.fallback = reply;
    return this;
  }

  /** Resolves once at least `count` requests have arrived. */
  async waitForRequests(count: number): Promise<RecordedRequest[]> {
    while (this.requests.length < count) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.requests;
  }

  /** Closes every connection (including hanging ones) and the listener. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const pieces: Buffer[] = [];
    for await (const piece of req) pieces.push(piece as Buffer);
    const rawBody = Buffer.concat(pieces).toString('utf8');
    const closed = new Promise<{ completed: boolean; at: number }>((resolve) => {
      res.once('close', () => resolve({ completed: res.writableFinished, at: Date.now() }));
    });
    const recorded: RecordedRequest = {
      index: this.requests.length,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      rawBody,
      body: parseObject(rawBody),
      receivedAt: Date.now(),
      closed,
    };
    this.requests.push(recorded);
    this.waiters.splice(0).forEach((wake) => wake());

    let reply = this.queue.shift() ?? this.fallback;
    while (typeof reply === 'function') reply = await reply(recorded);
    await this.respond(reply, res);
  }

  private async respond(
    reply: Exclude<FakeReply, (request: RecordedRequest) => unknown>,
    res: http.ServerResponse,
  ) {
    switch (reply.type) {
      case 'hang':
        return;
      case 'response': {
        const isText = reply.body === undefined || typeof reply.body === 'string';
        const text = reply.body === undefined ? '' : isText ? String(reply.body) : JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          'Content-Type': isText ? 'text/plain; charset=utf-8' : 'application/json',
          ...reply.headers,
        });
        res.end(text);
        return;
      }
      case 'stream':
        await this.stream(reply, res);
    }
  }

  private async stream(
    reply: Extract<FakeReply, { type: 'stream' }>,
    res: http.ServerResponse,
  ): Promise<void> {
    res.writeHead(reply.status ?? 200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      ...reply.headers,
    });
    res.flushHeaders();
    for (const step of reply.steps) {
      if (res.destroyed) return;
      if ('delayMs' in step) await sleep(step.delayMs);
      else if ('waitFor' in step) await step.waitFor.catch(() => undefined);
      else if ('raw' in step) res.write(step.raw);
      else res.write(`data: ${JSON.stringify(step.chunk)}\n\n`);
    }
    if (res.destroyed) return;
    if (reply.done ?? true) res.write('data: [DONE]\n\n');
    switch (reply.end ?? 'end') {
      case 'end':
        res.end();
        return;
      case 'drop':
        // Give the written bytes a moment to leave before the socket is torn down.
        await sleep(20);
        res.socket?.destroy();
        return;
      case 'hang':
        return;
    }
  }
}

/** Chunk builders in the shape OpenAI-compatible providers stream. */
export const chunks = {
  role: (): object => chunk({ role: 'assistant', content: '' }),
  content: (text: string): object => chunk({ content: text }),
  reasoning: (text: string): object => chunk({ reasoning_content: text }),
  toolCall: (call: { index: number; id?: string; name?: string; arguments?: string }): object => {
    const fn: Record<string, string> = {};
    if (call.name !== undefined) fn.name = call.name;
    if (call.arguments !== undefined) fn.arguments = call.arguments;
    const fragment: Record<string, unknown> = { index: call.index, function: fn };
    if (call.id !== undefined) {
      fragment.id = call.id;
      fragment.type = 'function';
    }
    return chunk({ tool_calls: [fragment] });
  },
  finish: (reason: string): object => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: reason }],
  }),
  /** The usage-only chunk sent after the finish chunk when `include_usage` is set. */
  usage: (usage: Record<string, unknown>): object => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [],
    usage,
  }),
  error: (message: string, extra: Record<string, unknown> = {}): object => ({ error: { message, ...extra } }),
};

function chunk(delta: Record<string, unknown>): object {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null }],
  };
}

/** A complete streamed text answer: role chunk, one chunk per fragment, finish, optional usage. */
export function textReply(
  fragments: string[],
  options: { usage?: Record<string, unknown>; reasoning?: string[]; finishReason?: string } = {},
): FakeReply {
  const steps: StreamStep[] = [{ chunk: chunks.role() }];
  for (const text of options.reasoning ?? []) steps.push({ chunk: chunks.reasoning(text) });
  for (const text of fragments) steps.push({ chunk: chunks.content(text) });
  steps.push({ chunk: chunks.finish(options.finishReason ?? 'stop') });
  if (options.usage) steps.push({ chunk: chunks.usage(options.usage) });
  return { type: 'stream', steps };
}

/** A VERSION "2" settings document with one backend/model bound to the given endpoints, in order. */
export function fakeSettingsDocument(options: {
  endpoints: Array<{ id: string; apiBase: string; apiKey?: string }>;
  backend?: string;
  model?: string;
  modelId?: string;
  displayName?: string;
  contextLength?: number;
}): Record<string, unknown> {
  const model = options.model ?? 'kimi-k3';
  return {
    VERSION: '2',
    endpoints: options.endpoints.map((endpoint) => ({
      id: endpoint.id,
      api_base: endpoint.apiBase,
      api_key: endpoint.apiKey ?? 'sk-test',
    })),
    backends: {
      [options.backend ?? 'moonshot']: {
        models: {
          [model]: {
            id: options.modelId ?? model,
            ...(options.displayName !== undefined ? { display_name: options.displayName } : {}),
            endpoints: options.endpoints.map((endpoint) => endpoint.id),
            context_length: options.contextLength ?? 128000,
            function_call_available: true,
          },
        },
      },
    },
  };
}
