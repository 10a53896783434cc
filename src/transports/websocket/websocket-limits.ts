/** The WebSocket transport's numbers (docs/spec/websocket.md §3, §4). */

/** §4: serialized bytes a connection may have queued but not yet written before it is closed `4001`. */
export const DEFAULT_OUTBOUND_QUEUE_BYTES = 8 * 1024 * 1024;

/** §3: the server pings every 30 s; two unanswered pings close the connection. */
export const DEFAULT_PING_INTERVAL_MS = 30_000;

/** The close codes the server uses (RFC 6455 §7.4.1 and the application range). */
export const CLOSE_CODES = {
  goingAway: 1001,
  unsupportedData: 1003,
  invalidPayload: 1007,
  messageTooBig: 1009,
  internalError: 1011,
  outboundQueueOverflow: 4001,
} as const;
