/**
 * The native messaging side of a connection's output: each JSONL line the connection produces is
 * held to the 1 MiB limit (outbound-limit.ts) and written as one length-prefixed frame. Shortened
 * and replaced messages are reported on stderr, so an extension author can see why a message
 * arrived `truncated` or as an error.
 */
import type { MessageSink } from '../../rpc/message-sink';
import type { ProtocolStdout } from '../stdio/stdio-framing';
import { encodeFrame } from './native-messaging-framer';
import { fitToNativeLimit, NATIVE_MESSAGE_LIMIT_BYTES } from './outbound-limit';

export function nativeMessagingSink(
  stdout: ProtocolStdout,
  stderr: { write(text: string): unknown },
): MessageSink {
  return {
    write: (line) => {
      const json = line.endsWith('\n') ? line.slice(0, -1) : line;
      const fitted = fitToNativeLimit(json);
      if (fitted.kind !== 'unchanged') {
        const action = fitted.kind === 'truncated' ? 'sent with shortened strings' : 'replaced';
        stderr.write(
          `native messaging: ${fitted.label} of ${fitted.originalBytes} bytes exceeds ${NATIVE_MESSAGE_LIMIT_BYTES} bytes; ${action}\n`,
        );
      }
      return stdout.write(encodeFrame(fitted.json));
    },
    onDrain: (resume) => void stdout.once('drain', resume),
  };
}
