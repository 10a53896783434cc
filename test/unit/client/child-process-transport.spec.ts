/**
 * The typed client's child transport (docs/spec/protocol.md §13): lines rebuilt from any chunking, and
 * `close()` bounded even when a process the child started still holds its stdout.
 */
import {
  CHILD_EXIT_GRACE_MS,
  LineSplitter,
  spawnTransport,
} from '../../../src/client/child-process-transport';

describe('LineSplitter', () => {
  function split(chunks: string[]): string[] {
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line));
    for (const chunk of chunks) splitter.push(chunk);
    splitter.flush();
    return lines;
  }

  it('rebuilds lines from any chunking, CRLF split across chunks included, and flushes an unterminated rest', () => {
    const text = '{"a":1}\r\n{"b":"two"}\n\n{"c":3}\r\n{"tail":true}';
    const expected = ['{"a":1}', '{"b":"two"}', '', '{"c":3}', '{"tail":true}'];
    expect(split([text])).toEqual(expected);
    for (let size = 1; size <= 7; size += 1) {
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.slice(i * size, (i + 1) * size),
      );
      expect(split(chunks)).toEqual(expected);
    }
  });

  it('a line of megabytes in 64 KiB chunks comes out whole, once', () => {
    const long = `{"items":"${'x'.repeat(8 * 1024 * 1024)}"}`;
    const text = `${long}\n{"next":1}\n`;
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 65_536) chunks.push(text.slice(at, at + 65_536));
    const lines = split(chunks);
    expect(lines).toHaveLength(2);
    expect(lines[0] === long).toBe(true);
    expect(lines[1]).toBe('{"next":1}');
  });
});

describe('spawnTransport close()', () => {
  jest.setTimeout(30_000);

  it('resolves soon after the child exits although a process it started keeps stdout open', async () => {
    // The child starts a long sleeper that inherits its stdout, prints its pid, and exits when stdin ends.
    const script = [
      "const { spawn } = require('node:child_process');",
      "const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: ['ignore', 'inherit', 'inherit'] });",
      'process.stdout.write(JSON.stringify({ sleeper: sleeper.pid }) + "\\n");',
      "process.stdin.on('end', () => process.exit(0)).resume();",
    ].join('\n');
    const lines: string[] = [];
    let closed = false;
    const transport = spawnTransport(
      { command: process.execPath, args: ['-e', script] },
      { line: (line) => lines.push(line), closed: () => (closed = true) },
    );
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const { sleeper } = JSON.parse(lines[0]) as { sleeper: number };
    try {
      const began = Date.now();
      await transport.close();
      expect(Date.now() - began).toBeLessThan(CHILD_EXIT_GRACE_MS);
      expect(closed).toBe(true);
    } finally {
      process.kill(sleeper, 'SIGKILL');
    }
  });
});
