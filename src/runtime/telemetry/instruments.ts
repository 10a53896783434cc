/**
 * The instruments of docs/spec/observability.md §3, declared once: the OpenTelemetry implementation
 * creates exactly these, and callers can only name these.
 */
export interface InstrumentSpec {
  readonly type: 'histogram' | 'counter' | 'up-down-counter';
  readonly unit: string;
  readonly description: string;
  /** Histogram bucket boundaries, when the SDK's defaults (made for milliseconds) do not fit. */
  readonly boundaries?: readonly number[];
}

/** Seconds: from 10 ms to ~80 s, the GenAI conventions' advice for operation durations. */
const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304];
const MESSAGES = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

export const INSTRUMENTS = {
  'gen_ai.client.token.usage': {
    type: 'histogram',
    unit: '{token}',
    description: 'Tokens used per model call',
    boundaries: TOKENS,
  },
  'gen_ai.client.operation.duration': {
    type: 'histogram',
    unit: 's',
    description: 'Duration of model calls',
    boundaries: SECONDS,
  },
  'vv_agent.turns.active': { type: 'up-down-counter', unit: '{turn}', description: 'Turns running' },
  'vv_agent.turn.duration': {
    type: 'histogram',
    unit: 's',
    description: 'Duration of turns',
    boundaries: SECONDS,
  },
  'vv_agent.tool.calls': { type: 'counter', unit: '{call}', description: 'Executed tool calls' },
  'vv_agent.approvals.pending': {
    type: 'up-down-counter',
    unit: '{request}',
    description: 'Approvals waiting for a decision',
  },
  'vv_agent.connections.active': {
    type: 'up-down-counter',
    unit: '{connection}',
    description: 'Open client connections',
  },
  'vv_agent.rpc.server.duration': {
    type: 'histogram',
    unit: 's',
    description: 'Duration of JSON-RPC requests',
    boundaries: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  },
  'vv_agent.outbound.queue.depth': {
    type: 'histogram',
    unit: '{message}',
    description: 'Outbound queue depth of a connection, sampled when a message is queued',
    boundaries: MESSAGES,
  },
} as const satisfies Record<string, InstrumentSpec>;

export type InstrumentName = keyof typeof INSTRUMENTS;
export type HistogramName = {
  [K in InstrumentName]: (typeof INSTRUMENTS)[K]['type'] extends 'histogram' ? K : never;
}[InstrumentName];
export type CounterName = Exclude<InstrumentName, HistogramName>;
