/**
 * `--log-format json` for every stderr line, not only the Nest logger's (docs/spec/observability.md
 * §4 "one JSON object per stderr line"): the ready line, the store's and the SDK's lines go through
 * `process.stderr.write`, which this wraps to turn each complete text line into a JSON object.
 * Lines that already are log objects pass unchanged.
 */
import { JSON_LOG_LINE_PREFIX, jsonLogLine, type JsonLogLevel } from '../nest/log-line';

/** The level of a plain line, from how the server words them (`warning: …`, `failed to …`). */
function levelOf(line: string): JsonLogLevel {
  if (/^warning\b/i.test(line)) return 'warn';
  if (/^(error\b|failed\b|fatal\b)|\berror:/i.test(line)) return 'error';
  return 'info';
}

export function installJsonStderr(stream: NodeJS.WriteStream = process.stderr): void {
  const write = stream.write.bind(stream) as (chunk: string) => boolean;
  let partial = '';
  const writeLines = (text: string): boolean => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    let out = '';
    for (const line of lines) {
      if (line === '') continue;
      out += line.startsWith(JSON_LOG_LINE_PREFIX) ? `${line}\n` : jsonLogLine(levelOf(line), line);
    }
    return out === '' ? true : write(out);
  };
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const result = writeLines(text);
    const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
    if (callback !== undefined) process.nextTick(callback);
    return result;
  }) as NodeJS.WriteStream['write'];
}
