/**
 * A producer whose messages a connection pulls when it is ready to write them, instead of holding
 * serialized copies: a thread subscriber's cursor into the thread's event log is one. The
 * connection keeps only how many messages of the source are due, so a reader that stalls costs
 * O(1) per run of consecutive messages, not O(messages).
 */
export interface OutboundSource {
  /**
   * The next message of this source, in its order; undefined when the source was closed and has
   * nothing more to give (the connection then forgets what it still counted for it).
   */
  take(): object | undefined;
}
