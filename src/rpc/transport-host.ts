/**
 * What a transport strategy drives, seen from the byte layer. The protocol core implements it; the
 * strategies depend only on this interface, so dependencies point one way (protocol → transport).
 */
import type { Connection } from './connection';
import type { MessageSink } from './message-sink';

/**
 * Why the server shuts down (protocol.md §1.9): `eof` processes every line already read first;
 * `signal` and `output-closed` (stdout EPIPE/EBADF; the transport marks its connection's output
 * broken, so nothing further is written there) discard waiting requests.
 */
export type ShutdownReason = 'eof' | 'signal' | 'output-closed';

export interface TransportHost {
  /** Opens a connection whose outbound lines go to `sink`. */
  connect(sink: MessageSink): Connection;
  /** Feeds inbound bytes of `connection` through the line handler. */
  receiveBytes(connection: Connection, chunk: Buffer): void;
  /** The input of `connection` ended (a final unterminated line is still processed). */
  endOfInput(connection: Connection): void;
  shutdown(reason: ShutdownReason): Promise<void>;
}
