/**
 * What a transport drives: it frames its own bytes (JSONL for stdio, one message per frame for
 * WebSocket, length prefixes for native messaging) and hands complete messages over. The protocol
 * core implements it; transports depend only on this interface.
 */
import type { Connection } from './connection';
import type { MessageSink } from './message-sink';

/**
 * Why the server shuts down (docs/spec/protocol.md §1.9): `eof` processes every line already read first;
 * `signal` and `output-closed` (stdout EPIPE/EBADF; the transport marks its connection's output
 * broken, so nothing further is written there) discard waiting requests.
 */
export type ShutdownReason = 'eof' | 'signal' | 'output-closed';

export interface TransportHost {
  /** Opens a connection whose outbound lines go to `sink`. */
  connect(sink: MessageSink): Connection;
  /** The inbound size limit (bytes of one message) the transport's framer enforces. */
  readonly maxMessageBytes: number;
  /** One complete inbound message (no terminator), processed like every other. */
  receiveLine(connection: Connection, line: Buffer | string): void;
  /** The framer cut a message longer than `maxMessageBytes`. */
  rejectOversizedLine(connection: Connection): void;
  shutdown(reason: ShutdownReason): Promise<void>;
}
