/**
 * What the typed client needs of a server to talk to it in process. `AppServerCore` has this shape;
 * naming it here keeps the client's type declarations free of the server's own (Nest, TypeORM and
 * Node types), so a browser or DOM-only build type-checks the client alone.
 */
import type { MessageSink } from '../rpc/message-sink';

/** One connection of an in-process server, as the client uses it. */
export interface InProcessConnection {
  readonly isClosed: boolean;
  /** Called once when the connection is gone. */
  onClose(listener: () => void): unknown;
  /** Settles once every line queued for the sink was written. */
  whenFlushed(): Promise<void>;
}

/** A server core the client connects to in process (`AppServerCore`). */
export interface InProcessServerCore<C extends InProcessConnection = InProcessConnection> {
  connect(sink: MessageSink): C;
  receiveLine(connection: C, line: string): void;
  disconnect(connection: C): void;
}
