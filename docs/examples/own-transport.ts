/**
 * embedding-guide.md "Bringing your own transport": one connection per socket on the shared server
 * core — the same line handler, limits and errors as stdio.
 */
import type { AppServerCore } from 'vv-agent-app-server';

// #region socket
/** The little a WebSocket (or IPC channel) has to offer. */
export interface TextSocket {
  send(text: string): void;
  /** Bytes buffered and not yet sent; used for backpressure. */
  readonly bufferedAmount: number;
  onMessage(listener: (text: string) => void): void;
  onClose(listener: () => void): void;
}

export function serveSocket(core: AppServerCore, socket: TextSocket): void {
  const drainWaiters: Array<() => void> = [];
  const connection = core.connect({
    // One complete JSONL line per call (terminator included). Returning false pauses this
    // connection's writer until the callback given to onDrain runs; nothing is dropped.
    write(line) {
      socket.send(line.trimEnd());
      return socket.bufferedAmount < 1_000_000;
    },
    onDrain(callback) {
      drainWaiters.push(callback);
    },
  });
  const pollDrain = setInterval(() => {
    if (socket.bufferedAmount < 1_000_000) drainWaiters.splice(0).forEach((callback) => callback());
  }, 50);
  // Each socket message is one JSON-RPC message: same classification, limits and errors as stdio.
  socket.onMessage((text) => core.receiveLine(connection, text));
  socket.onClose(() => {
    clearInterval(pollDrain);
    // Unsubscribes it everywhere; its pending approvals stay pending for the next connection that resumes.
    core.disconnect(connection);
  });
}
// #endregion socket
