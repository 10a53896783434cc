/** Results of the `turn/*` methods (protocol.md §3.9–§3.12). */
export interface TurnStartResponse {
  threadId: string;
  turnId: string;
  status: 'running';
}

/** turn/steer and turn/followUp. */
export interface TurnControlResponse {
  threadId: string;
  turnId: string;
  queued: true;
}

export interface TurnInterruptResponse {
  threadId: string;
  turnId: string;
  cancelled: true;
}
