/**
 * An OpenAI-compatible chat-completions model on 127.0.0.1 that streams as fast as the loopback
 * socket allows (it writes one SSE event per content fragment and waits only for `drain`).
 *
 * What to stream is read from the request's last user message, a directive like
 * `bench-stream deltas=20000 calls=1 tools=0 timestamps=1 tag=s1`:
 *  - `deltas`: content fragments over the whole turn, split evenly across `calls` model calls;
 *  - `calls`: model calls per turn; calls before the last end with `tools` parallel `file_info`
 *    calls, the last one with `task_finish` (so the turn ends without a no-tool continuation);
 *  - `timestamps=1`: record the hrtime (µs, CLOCK_MONOTONIC, comparable across processes on
 *    Linux) of every content write and report them for `tag` once the response ended;
 *  - `rate`: fragments per second (0 = as fast as the socket drains);
 *  - `chars`: characters per fragment (default 1).
 * Fragment `i` is `FRAGMENT_ALPHABET[i % 62]` repeated `chars` times (`fragmentAt`), so a reader
 * can check order and completeness without the model sending anything else.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FRAGMENT_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The text of fragment `index` of a stream whose fragments are `chars` characters long. */
export function fragmentAt(index: number, chars = 1): string {
  return FRAGMENT_ALPHABET[index % FRAGMENT_ALPHABET.length].repeat(chars);
}

export interface StreamDirective {
  deltas: number;
  calls: number;
  tools: number;
  timestamps: boolean;
  tag: string;
  /** Fragments per second; 0 = unpaced. */
  rate?: number;
  /** Characters per fragment (default 1). */
  chars?: number;
}

export function streamDirectiveText(directive: StreamDirective): string {
  const { deltas, calls, tools, timestamps, tag, rate = 0, chars = 1 } = directive;
  return `bench-stream deltas=${deltas} calls=${calls} tools=${tools} timestamps=${timestamps ? 1 : 0} rate=${rate} chars=${chars} tag=${tag}`;
}

export function parseStreamDirective(text: string): StreamDirective | null {
  if (!text.startsWith('bench-stream ')) return null;
  const fields = new Map(
    text
      .slice('bench-stream '.length)
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split('=') as [string, string]),
  );
  return {
    deltas: Number(fields.get('deltas') ?? 0),
    calls: Math.max(1, Number(fields.get('calls') ?? 1)),
    tools: Number(fields.get('tools') ?? 0),
    timestamps: fields.get('timestamps') === '1',
    tag: fields.get('tag') ?? '',
    rate: Number(fields.get('rate') ?? 0),
    chars: Math.max(1, Number(fields.get('chars') ?? 1)),
  };
}

export interface StreamedReport {
  tag: string;
  /** hrtime µs of each content write, in fragment order (only with `timestamps=1`). */
  writeTimesUs: number[];
}

interface ChatMessage {
  role?: string;
  content?: unknown;
}

/** The last user message and how many assistant messages follow it (= model calls done this turn). */
function turnPosition(messages: ChatMessage[]): { text: string; callsDone: number } {
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const text = lastUser === -1 ? '' : String(messages[lastUser].content ?? '');
  const callsDone = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length;
  return { text, callsDone };
}

const sse = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunkOf = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  sse({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });

/** Tool call ids are unique within a turn: the projector pairs started/completed events by id. */
function toolCallChunk(call: number, index: number, name: string, args: Record<string, unknown>): string {
  return chunkOf({
    tool_calls: [
      {
        index,
        id: `call_${call}_${index}`,
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      },
    ],
  });
}

function hrtimeUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export class DeltaStreamModel {
  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  /** `onStreamed` receives the write timestamps of every response whose directive asked for them. */
  static async start(onStreamed: (report: StreamedReport) => void): Promise<DeltaStreamModel> {
    const server = http.createServer((req, res) => {
      void serve(req, res, onStreamed).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new DeltaStreamModel(server, (server.address() as AddressInfo).port);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function serve(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  onStreamed: (report: StreamedReport) => void,
): Promise<void> {
  const pieces: Buffer[] = [];
  for await (const piece of req) pieces.push(piece as Buffer);
  const body = JSON.parse(Buffer.concat(pieces).toString('utf8')) as { messages?: ChatMessage[] };
  const { text, callsDone } = turnPosition(body.messages ?? []);
  const directive = parseStreamDirective(text);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  if (!directive) {
    res.end(chunkOf({ content: 'no directive' }, 'stop') + 'data: [DONE]\n\n');
    return;
  }
  const perCall = Math.floor(directive.deltas / directive.calls);
  const first = callsDone * perCall;
  const count = callsDone === directive.calls - 1 ? directive.deltas - first : perCall;
  const writeTimesUs: number[] = [];
  const write = async (text: string): Promise<void> => {
    if (!res.write(text)) await new Promise((resolve) => res.once('drain', resolve));
  };
  await write(chunkOf({ role: 'assistant', content: '' }));
  const pacedFromMs = performance.now();
  for (let i = first; i < first + count; i += 1) {
    if (res.destroyed) return;
    if (directive.rate) {
      const dueMs = pacedFromMs + ((i - first) * 1000) / directive.rate;
      const waitMs = dueMs - performance.now();
      if (waitMs >= 1) await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    if (directive.timestamps) writeTimesUs.push(hrtimeUs());
    await write(chunkOf({ content: fragmentAt(i, directive.chars) }));
  }
  const lastCall = callsDone >= directive.calls - 1;
  if (lastCall) {
    await write(
      toolCallChunk(callsDone, 0, 'task_finish', { message: 'done', require_all_todos_completed: false }),
    );
  } else {
    for (let index = 0; index < directive.tools; index += 1) {
      await write(toolCallChunk(callsDone, index, 'file_info', { path: '.' }));
    }
  }
  await write(chunkOf({}, 'tool_calls'));
  res.end('data: [DONE]\n\n');
  if (directive.timestamps) onStreamed({ tag: directive.tag, writeTimesUs });
}
