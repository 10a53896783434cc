/**
 * How the typed client reaches a server (docs/spec/protocol.md §13): a transport moves message lines and
 * nothing else; the client interprets them. Implementations: a spawned child's stdin/stdout
 * (child-process-transport.ts, Node only), an in-process connection of an `AppServerCore` (below)
 * and WebSocket (websocket-transport.ts). `AppServerClient.fromTransport` takes any other.
 */
import type { MessageSink } from '../rpc/message-sink';
import type { InProcessServerCore } from './in-process-server';

export interface TransportListener {
  /** One inbound line, without its terminator, in order. */
  line(text: string): void;
  /** The connection is gone (child exited, connection closed); called once, after the last line. */
  closed(): void;
}

export interface ClientTransport {
  /** Sends one message line (the terminator is added). Dropped silently once the connection is gone. */
  send(line: string): void;
  /** Ends the connection; resolves when it is gone. */
  close(): Promise<void>;
}

/**
 * One new connection of `core`. Lines the server writes are delivered asynchronously (in order) so
 * client code — an approval handler answering at once, say — never re-enters the server's writer.
 */
export function inProcessTransport(core: InProcessServerCore, listener: TransportListener): ClientTransport {
  type Delivery = { kind: 'line'; text: string } | { kind: 'closed' };
  const deliveries: Delivery[] = [];
  let scheduled = false;
  let gone = false;

  const deliver = (): void => {
    scheduled = false;
    for (const delivery of deliveries.splice(0)) {
      if (delivery.kind === 'line') listener.line(delivery.text);
      else listener.closed();
    }
  };
  const enqueue = (delivery: Delivery): void => {
    deliveries.push(delivery);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(deliver);
    }
  };

  const sink: MessageSink = {
    write(line) {
      enqueue({ kind: 'line', text: line.endsWith('\n') ? line.slice(0, -1) : line });
      return true;
    },
    onDrain() {
      // write() never asks the writer to wait.
    },
  };
  const connection = core.connect(sink);
  let closedSignal: Promise<void> | null = null;
  const whenGone = new Promise<void>((resolve) => {
    connection.onClose(() => {
      // Lines queued before the close are still written; report the loss after them.
      closedSignal ??= connection.whenFlushed().then(() => {
        gone = true;
        enqueue({ kind: 'closed' });
        resolve();
      });
    });
  });

  return {
    send(line) {
      if (!gone && !connection.isClosed) core.receiveLine(connection, line);
    },
    async close() {
      core.disconnect(connection);
      await whenGone;
    },
  };
}
