/** Drives an AppServerCore in-process (no Nest): fake handlers, a recording sink, line helpers. */
import type { LoggerService } from '@nestjs/common';
import {
  AppServerCore,
  type AppServerCoreOptions,
} from '../../../src/protocols/app-server-v1/app-server-core';
import { ConnectionRegistry } from '../../../src/rpc/connection-registry';
import type { RpcHandler } from '../../../src/protocols/app-server-v1/rpc-context';
import type { Connection } from '../../../src/rpc/connection';
import type { MessageSink } from '../../../src/rpc/message-sink';

export type WireMessage = Record<string, unknown>;

export class RecordingSink implements MessageSink {
  readonly lines: string[] = [];
  private drainCallbacks: Array<() => void> = [];
  /** When false, every write asks the writer to wait for drain. */
  writable = true;

  write(line: string): boolean {
    this.lines.push(line);
    return this.writable;
  }

  onDrain(callback: () => void): void {
    this.drainCallbacks.push(callback);
  }

  drain(): void {
    for (const callback of this.drainCallbacks.splice(0)) callback();
  }

  get messages(): WireMessage[] {
    return this.lines.map((line) => JSON.parse(line) as WireMessage);
  }
}

export class SilentLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown): void {
    this.errors.push(String(message));
  }
}

export interface CoreHarness {
  core: AppServerCore;
  registry: ConnectionRegistry;
  logger: SilentLogger;
  handlers: Map<string, RpcHandler>;
  connect(): { connection: Connection; sink: RecordingSink; send(message: unknown): void };
}

export function createCoreHarness(options: Partial<AppServerCoreOptions> = {}): CoreHarness {
  const registry = new ConnectionRegistry();
  const logger = new SilentLogger();
  const core = new AppServerCore(
    { maxMessageBytes: 1_048_576, maxQueuedRequests: 128, runtimeConfigured: true, ...options },
    registry,
    logger,
  );
  const handlers = new Map<string, RpcHandler>();
  core.setHandlerLookup((method) => handlers.get(method) ?? null);
  return {
    core,
    registry,
    logger,
    handlers,
    connect() {
      const sink = new RecordingSink();
      const connection = core.connect(sink);
      return { connection, sink, send: (message) => core.receiveLine(connection, JSON.stringify(message)) };
    },
  };
}

/** Lets queued promise chains and timers of zero delay run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
