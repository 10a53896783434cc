/**
 * The in-process transport strategy (docs/spec/protocol.md §13): it moves no bytes itself — each in-process
 * client calls `AppServerCore.connect(sink)` and feeds its lines through the same line handler as
 * stdio. Kept for applications that connect it as a microservice; the App Server works the same
 * without it (its handlers do not come from a transport strategy).
 */
import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { TransportHost } from '../../rpc/transport-host';

export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS');

export class InProcessServer extends Server<Record<string, never>> implements CustomTransportStrategy {
  override readonly transportId = IN_PROCESS_TRANSPORT;
  private core: TransportHost | null = null;

  attach(core: TransportHost): void {
    this.core = core;
  }

  listen(callback: (error?: unknown) => void): void {
    if (this.core === null) {
      callback(new Error('InProcessServer: attach(core) must be called before listen()'));
      return;
    }
    callback();
  }

  close(): void {
    // Nothing to release: connections belong to their clients.
  }

  on(): void {
    // No transport events.
  }

  unwrap<T>(): T {
    return this.core as T;
  }
}
