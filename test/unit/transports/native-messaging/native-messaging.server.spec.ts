import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import { AppServerCore } from '../../../../src/protocols/app-server-v1/app-server-core';
import type { RpcContext, RpcHandler } from '../../../../src/protocols/app-server-v1/rpc-context';
import { ConnectionRegistry } from '../../../../src/rpc/connection-registry';
import { NativeMessagingServer } from '../../../../src/transports/native-messaging/native-messaging.server';
import { NATIVE_MESSAGE_LIMIT_BYTES } from '../../../../src/transports/native-messaging/outbound-limit';
import type { ProtocolStdout } from '../../../../src/transports/stdio/stdio-framing';

/** stdout as the browser reads it: frames, each checked against the 1 MiB rule. */
class FrameReader extends EventEmitter implements ProtocolStdout {
  readonly chunks: Buffer[] = [];
  accepting = true;

  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    return this.accepting;
  }

  cork(): void {}
  uncork(): void {}

  /** Every frame in order; throws when the bytes are not whole frames. */
  get frames(): Buffer[] {
    const bytes = Buffer.concat(this.chunks);
    const frames: Buffer[] = [];
    let offset = 0;
    while (offset < bytes.length) {
      const length = bytes.readUInt32LE(offset);
      if (offset + 4 + length > bytes.length) throw new Error('partial frame on stdout');
      frames.push(bytes.subarray(offset + 4, offset + 4 + length));
      offset += 4 + length;
    }
    return frames;
  }

  get messages(): Array<Record<string, unknown>> {
    return this.frames.map((frame) => JSON.parse(frame.toString('utf8')) as Record<string, unknown>);
  }
}

function frame(message: unknown): Buffer {
  const body = Buffer.from(typeof message === 'string' ? message : JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

function start() {
  const stdin = new PassThrough();
  const stdout = new FrameReader();
  const signals = new EventEmitter();
  const stderr: string[] = [];
  const server = new NativeMessagingServer({ stdin, stdout }, signals, {
    write: (text: string) => stderr.push(text),
  });
  const core = new AppServerCore(
    { maxMessageBytes: 1024, maxQueuedRequests: 128, runtimeConfigured: true },
    new ConnectionRegistry(),
    quiet,
  );
  const handlers = new Map<string, RpcHandler>([
    [
      'initialize',
      async (_params: object, ctx: RpcContext) => {
        ctx.connection.state.initialized = true;
        return { ok: true };
      },
    ],
    [
      'model/list',
      async (_params: object, ctx: RpcContext) => {
        // By request id: a result over 1 MiB that shortening can fix, one it cannot, a small one.
        if (ctx.requestId === 'text') return { text: 'é'.repeat(NATIVE_MESSAGE_LIMIT_BYTES) };
        if (ctx.requestId === 'items')
          return { items: Array.from({ length: 200_000 }, (_, index) => ({ index })) };
        return { models: [] };
      },
    ],
  ]);
  core.setHandlerLookup((method) => handlers.get(method) ?? null);
  server.attach(core);
  server.listen(() => undefined);
  return { stdin, stdout, stderr, server };
}

const INIT = { id: 1, method: 'initialize', params: { clientInfo: { name: 'ext' } } };

describe('NativeMessagingServer (docs/spec/native-messaging.md §1)', () => {
  it('answers frames with frames; a truncated frame at EOF is ignored and EOF is shutdown (exit 0)', async () => {
    const { stdin, stdout, server } = start();
    const last = frame({ id: 2, method: 'model/list' });
    stdin.write(Buffer.concat([frame(INIT), last.subarray(0, 10)]));
    stdin.end();
    await expect(server.whenStopped()).resolves.toBe(0);
    expect(stdout.messages).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
  });

  it('skips a frame over --max-message-bytes with -32600 input_too_large and goes on serving', async () => {
    const { stdin, stdout, server } = start();
    stdin.write(frame(INIT));
    stdin.write(frame({ id: 2, method: 'initialize', params: { pad: 'x'.repeat(2000) } }));
    stdin.write(frame(''));
    stdin.write(frame('{not json'));
    stdin.end(frame({ id: 3, method: 'model/list' }));
    await expect(server.whenStopped()).resolves.toBe(0);
    expect(stdout.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { ok: true } },
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request',
          data: { reason: 'input_too_large', limitBytes: 1024 },
        },
      },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 3, result: { models: [] } },
    ]);
  });

  it('never writes a frame over 1,048,576 bytes: shortens what it can, answers -32603 otherwise', async () => {
    const { stdin, stdout, stderr, server } = start();
    stdin.write(frame(INIT));
    stdin.write(frame({ id: 'text', method: 'model/list' }));
    stdin.end(frame({ id: 'items', method: 'model/list' }));
    await expect(server.whenStopped()).resolves.toBe(0);
    for (const body of stdout.frames) expect(body.length).toBeLessThanOrEqual(NATIVE_MESSAGE_LIMIT_BYTES);
    const [, text, items] = stdout.messages as Array<{
      id: string;
      result?: { text: string; truncated: boolean };
      error?: { code: number; message: string };
    }>;
    expect(text.id).toBe('text');
    expect(text.result?.truncated).toBe(true);
    expect(text.result?.text).toMatch(/^é+$/);
    expect(items.id).toBe('items');
    expect(items.error?.code).toBe(-32603);
    expect(items.error?.message).toMatch(
      /^message exceeds the native messaging limit \(\d+ bytes\); request less \(thread\/read limit, afterItemId\)$/,
    );
    expect(stderr.filter((line) => line.startsWith('native messaging: '))).toEqual([
      expect.stringMatching(
        /^native messaging: response "text" of \d+ bytes exceeds 1048576 bytes; sent with shortened strings\n$/,
      ),
      expect.stringMatching(
        /^native messaging: response "items" of \d+ bytes exceeds 1048576 bytes; replaced\n$/,
      ),
    ]);
  });

  it("waits for stdout's drain before writing the next frame", async () => {
    const { stdin, stdout, server } = start();
    stdout.accepting = false;
    stdin.write(Buffer.concat([frame(INIT), frame({ ...INIT, id: 2 })]));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stdout.messages.map((m) => m.id)).toEqual([1]);
    stdout.accepting = true;
    stdout.emit('drain');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(stdout.messages.map((m) => m.id)).toEqual([1, 2]);
    stdin.end();
    await expect(server.whenStopped()).resolves.toBe(0);
  });
});
