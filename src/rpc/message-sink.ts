/**
 * Where a connection's outbound lines go: stdout for stdio, a callback for in-process clients.
 * Shaped like a Node Writable so stdout fits directly.
 */
export interface MessageSink {
  /**
   * Writes one complete JSONL line (terminating `\n` included). Returns false when the sink wants
   * the writer to wait for `onDrain` before the next write (the line itself was accepted).
   */
  write(line: string): boolean;
  /** Registers a one-shot callback for when the sink accepts writes again after `write` returned false. */
  onDrain(callback: () => void): void;
}
