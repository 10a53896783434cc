/**
 * The native messaging transport (docs/spec/native-messaging.md §1): the browser starts the host and talks to
 * it through length-prefixed JSON frames on stdio. Same process server as stdio-jsonl (EOF is
 * shutdown, signals, EPIPE — docs/spec/protocol.md §1.9), same connection and core; only the framing differs.
 */
import { StdioProcessServer, type SignalSource, type StdioStreams } from '../stdio/stdio-process.server';
import type { StdioFraming } from '../stdio/stdio-framing';
import { NativeMessagingFramer } from './native-messaging-framer';
import { nativeMessagingSink } from './native-messaging-sink';

export const NATIVE_MESSAGING_TRANSPORT = Symbol('NATIVE_MESSAGING');

export function nativeMessagingFraming(stderr: { write(text: string): unknown }): StdioFraming {
  return {
    name: 'native-messaging',
    createFramer: (maxMessageBytes) => new NativeMessagingFramer(maxMessageBytes),
    createSink: (stdout) => nativeMessagingSink(stdout, stderr),
  };
}

export class NativeMessagingServer extends StdioProcessServer {
  constructor(
    io: StdioStreams,
    signals: SignalSource = process,
    stderr: { write(text: string): unknown } = process.stderr,
  ) {
    super(NATIVE_MESSAGING_TRANSPORT, nativeMessagingFraming(stderr), io, signals, stderr);
  }
}
