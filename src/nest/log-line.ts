/**
 * One stderr log line in the `--log-format json` shape of docs/spec/observability.md §4:
 * `{"time", "level", "msg", "threadId"?, "turnId"?, "traceId"?, "spanId"?}`. The trace ids are those
 * of the span current in this async flow (a request being handled), when tracing is on.
 */
import { telemetry } from '../runtime/telemetry/current-telemetry';

export type JsonLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogLineFields {
  threadId?: string;
  turnId?: string;
  context?: string;
}

/** Where the ids of a line come from when its text names them (`thread_…`, `turn_…`). */
const THREAD_ID = /\b(thread_[A-Za-z0-9-]+)/;
const TURN_ID = /\b(turn_[A-Za-z0-9-]+)/;

export function jsonLogLine(level: JsonLogLevel, msg: string, fields: LogLineFields = {}): string {
  const ids = telemetry().activeSpan().ids();
  const line: Record<string, string> = { time: new Date().toISOString(), level, msg };
  if (fields.context !== undefined) line.context = fields.context;
  const threadId = fields.threadId ?? THREAD_ID.exec(msg)?.[1];
  const turnId = fields.turnId ?? TURN_ID.exec(msg)?.[1];
  if (threadId !== undefined) line.threadId = threadId;
  if (turnId !== undefined) line.turnId = turnId;
  if (ids !== undefined) {
    line.traceId = ids.traceId;
    line.spanId = ids.spanId;
  }
  return `${JSON.stringify(line)}\n`;
}

/** The marker by which the stderr wrapper of `--log-format json` recognizes a finished line. */
export const JSON_LOG_LINE_PREFIX = '{"time":"';
