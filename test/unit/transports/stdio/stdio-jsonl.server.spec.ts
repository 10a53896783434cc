import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import { AppServerCore } from '../../../../src/protocols/app-server-v1/app-server-core';
import { ConnectionRegistry } from '../../../../src/rpc/connection-registry';
import type { RpcContext, RpcHandler } from '../../../../src/protocols/app-server-v1/rpc-context';
import { StdioJsonlServer, type ProtocolStdout } from '../../../../src/transports/stdio/stdio-jsonl.server';

class FakeStdout extends EventEmitter implements ProtocolStdout {
  readonly chunks: string[] = [];
  /** write() returns this; false makes the writer wait for 'drain'. */
  accepting = true;

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return this.accepting;
  }

  cork(): void {}
  uncork(): void {}

  get messages(): Array<Record<string, unknown>> {
    return this.chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  }
}

class FakeSignals extends EventEmitter {
  emitSignal(signal: NodeJS.Signals): void {
    this.emit(signal);
  }
}

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

function start(gate?: Promise<void>) {
  const stdin = new PassThrough();
  const stdout = new FakeStdout();
  const signals = new FakeSignals();
  const stderr: string[] = [];
  const server = new StdioJsonlServer({ stdin, stdout }, signals, {
    write: (text: string) => stderr.push(text),
  });
  const core = new AppServerCore(
    { maxMessageBytes: 1024, maxQueuedRequests: 128, runtimeConfigured: true },
    new ConnectionRegistry(),
    quiet,
  );
  // What the Nest wiring does with the @RpcMethod table.
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
        if (gate !== undefined && ctx.requestId === 'slow') await gate;
        return { models: [] };
      },
    ],
  ]);
  core.setHandlerLookup((method) => handlers.get(method) ?? null);
  server.attach(core);
  const hooks: string[] = [];
  core.onShutdown(async ({ reason }) => void hooks.push(reason));
  server.listen(() => undefined);
  return { stdin, stdout, signals, stderr, server, hooks };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('StdioJsonlServer', () => {
  it('fails listen() when no core is attached', () => {
    const server = new StdioJsonlServer(
      { stdin: new PassThrough(), stdout: new FakeStdout() },
      new FakeSignals(),
    );
    const callback = jest.fn();
    server.listen(callback);
    expect(callback).toHaveBeenCalledWith(expect.any(Error));
  });

  it('serves stdin lines on stdout; on EOF processes the final unterminated line, then stops with 0', async () => {
    const { stdin, stdout, server, hooks } = start();
    stdin.write('{"id":1,"method":"initialize","params":{"clientInfo":{"name":"x"}}}\r\n');
    stdin.end('{"id":2,"method":"model/list"}');
    await expect(server.whenStopped()).resolves.toBe(0);
    expect(stdout.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { ok: true } },
      { jsonrpc: '2.0', id: 2, result: { models: [] } },
    ]);
    expect(stdout.chunks.every((chunk) => chunk.endsWith('\n'))).toBe(true);
    expect(hooks).toEqual(['eof']);
  });

  it('on SIGTERM discards waiting requests and stops with 0', async () => {
    let open!: () => void;
    const { stdin, stdout, signals, server, hooks } = start(new Promise<void>((resolve) => (open = resolve)));
    stdin.write('{"id":1,"method":"initialize","params":{"clientInfo":{"name":"x"}}}\n');
    stdin.write('{"id":"slow","method":"model/list"}\n{"id":3,"method":"model/list"}\n');
    await tick();
    signals.emitSignal('SIGTERM');
    open();
    await expect(server.whenStopped()).resolves.toBe(0);
    expect(stdout.messages.map((m) => m.id)).toEqual([1, 'slow']);
    expect(hooks).toEqual(['signal']);
    expect(signals.listenerCount('SIGTERM')).toBe(0);
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });

  it('on SIGINT stops with 0 as well', async () => {
    const { signals, server } = start();
    signals.emitSignal('SIGINT');
    await expect(server.whenStopped()).resolves.toBe(0);
  });

  it('on stdout EPIPE stops quietly with 0 and writes nothing further', async () => {
    const { stdin, stdout, server, stderr } = start();
    stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    stdin.write('{"id":1,"method":"model/list"}\n');
    await expect(server.whenStopped()).resolves.toBe(0);
    expect(stdout.chunks).toEqual([]);
    expect(stderr).toEqual([]);
  });

  it('on another stdout error reports it on stderr and stops with 1', async () => {
    const { stdout, server, stderr } = start();
    const errors: Error[] = [];
    server.on('error', (error) => errors.push(error));
    stdout.emit('error', Object.assign(new Error('disk on fire'), { code: 'EIO' }));
    await expect(server.whenStopped()).resolves.toBe(1);
    expect(stderr).toEqual(['fatal stdout error: disk on fire\n']);
    expect(errors.map((e) => e.message)).toEqual(['disk on fire']);
  });

  it('on a stdin error reports it on stderr and stops with 1', async () => {
    const { stdin, server, stderr } = start();
    stdin.destroy(new Error('read failed'));
    await expect(server.whenStopped()).resolves.toBe(1);
    expect(stderr).toEqual(['fatal stdin error: read failed\n']);
  });

  it("waits for stdout's drain event before writing the next line", async () => {
    const { stdin, stdout, server } = start();
    stdout.accepting = false;
    stdin.write('{"id":1,"method":"x"}\n{"id":2,"method":"x"}\n');
    await tick();
    expect(stdout.messages.map((m) => m.id)).toEqual([1]);
    stdout.accepting = true;
    stdout.emit('drain');
    await tick();
    expect(stdout.messages.map((m) => m.id)).toEqual([1, 2]);
    stdin.end();
    await expect(server.whenStopped()).resolves.toBe(0);
  });
});
