/** The raw message log (docs/spec/inspector.md §2): every message both ways, bounded, filterable. */
import { isObject, stringOf, type JsonObject } from '../rpc/json-value';

export interface LogEntry {
  seq: number;
  direction: 'in' | 'out';
  time: number;
  /** The method, or `response #<id>` for a response. */
  method: string;
  threadId: string;
  message: JsonObject;
}

/** The page keeps the newest entries only: a long session must not grow the tab without bound. */
export const LOG_LIMIT = 5000;

let seq = 0;

export function logEntry(direction: 'in' | 'out', message: JsonObject): LogEntry {
  const params = isObject(message.params) ? message.params : isObject(message.result) ? message.result : {};
  const method = stringOf(message.method) ?? `response #${String(message.id ?? '')}`;
  return {
    seq: ++seq,
    direction,
    time: Date.now(),
    method,
    threadId: stringOf(params.threadId) ?? '',
    message,
  };
}

export function appendEntry(log: readonly LogEntry[], entry: LogEntry): LogEntry[] {
  const next = log.length >= LOG_LIMIT ? log.slice(log.length - LOG_LIMIT + 1) : [...log];
  next.push(entry);
  return next;
}

export function filterLog(log: readonly LogEntry[], method: string, threadId: string): LogEntry[] {
  const m = method.trim().toLowerCase();
  const t = threadId.trim();
  return log.filter((entry) => entry.method.toLowerCase().includes(m) && entry.threadId.includes(t));
}

/** "Copy as JSONL": one compact message per line, exactly as on a stdio connection. */
export function asJsonl(entries: readonly LogEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry.message)}\n`).join('');
}
