/**
 * The stdio transport of docs/spec/protocol.md §1.1: JSONL on stdin and stdout (lines with `\n`, CRLF, a
 * leading BOM, the size limit of §1.2 step 1), on the process stdio server of §1.9.
 */
import type { MessageSink } from '../../rpc/message-sink';
import { JsonlFramer } from './jsonl-framer';
import type { ProtocolStdout, StdioFraming } from './stdio-framing';
import { StdioProcessServer, type SignalSource, type StdioStreams } from './stdio-process.server';

export type { ProtocolStdout } from './stdio-framing';
export type { SignalSource, StdioServerEvents, StdioStreams } from './stdio-process.server';

export const STDIO_JSONL_TRANSPORT = Symbol('STDIO_JSONL');

/** The connection already writes JSONL lines: they go to stdout as they are. */
export const JSONL_FRAMING: StdioFraming = {
  name: 'stdio-jsonl',
  createFramer: (maxMessageBytes) => new JsonlFramer(maxMessageBytes),
  createSink: (stdout: ProtocolStdout): MessageSink => coalescingSink(stdout),
};

/**
 * Lines written in the same tick leave in one writev when the tick ends: one system call for a
 * burst of responses instead of one per line (a pipe write per line was most of the server's
 * time under 1,000 requests in flight). Each line is still written whole and in order, and
 * `write` still reports the stream's backpressure, so §1.8's drain rule holds; the lines go out
 * before any further I/O, so nothing waits for more input.
 */
function coalescingSink(stdout: ProtocolStdout): MessageSink {
  let corked = false;
  const flush = (): void => {
    corked = false;
    stdout.uncork();
  };
  return {
    write: (line) => {
      if (!corked) {
        corked = true;
        stdout.cork();
        process.nextTick(flush);
      }
      return stdout.write(line);
    },
    onDrain: (resume) => void stdout.once('drain', resume),
  };
}

export class StdioJsonlServer extends StdioProcessServer {
  constructor(
    io: StdioStreams,
    signals: SignalSource = process,
    stderr: { write(text: string): unknown } = process.stderr,
  ) {
    super(STDIO_JSONL_TRANSPORT, JSONL_FRAMING, io, signals, stderr);
  }
}
