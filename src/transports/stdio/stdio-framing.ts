/**
 * How a stdio transport turns bytes into messages and messages into bytes. The process side of
 * stdio (EOF, signals, EPIPE — docs/spec/protocol.md §1.9) is the same whatever the framing; JSONL
 * (docs/spec/protocol.md §1.1) and native messaging (docs/spec/native-messaging.md §1) differ only here.
 */
import type { MessageSink } from '../../rpc/message-sink';

/** What a framer reports: one complete inbound message, or a message over the size limit (skipped). */
export type FramerEvent = { kind: 'line'; line: Buffer } | { kind: 'too_large' };

/** Cuts an inbound byte stream into messages. Pure: no I/O. */
export interface InboundFramer {
  push(chunk: Buffer): FramerEvent[];
  /** End of input: whatever a pending partial message yields under the framing's EOF rule. */
  end(): FramerEvent[];
}

/** What the server needs of stdout; process.stdout and the CLI's guarded protocol output both fit. */
export interface ProtocolStdout {
  write(chunk: string | Uint8Array): boolean;
  /** Buffers writes until `uncork` (Writable semantics), so a burst of lines leaves in one writev. */
  cork(): void;
  uncork(): void;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface StdioFraming {
  /** Used in diagnostics (`fatal stdin error …` stays framing-neutral). */
  readonly name: string;
  createFramer(maxMessageBytes: number): InboundFramer;
  /** The connection's sink: it receives JSONL lines from the connection and writes them framed. */
  createSink(stdout: ProtocolStdout): MessageSink;
}
