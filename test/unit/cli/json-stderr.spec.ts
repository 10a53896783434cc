/** `--log-format json`: every stderr line one JSON object (docs/spec/observability.md §4). */
import { Writable } from 'node:stream';
import { installJsonStderr } from '../../../src/cli/json-stderr';
import { jsonLogLine } from '../../../src/nest/log-line';

function fakeStderr(): { stream: NodeJS.WriteStream; written: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString('utf8');
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  return { stream, written: () => text };
}

describe('installJsonStderr', () => {
  it('turns text lines (also split across writes) into log objects and passes log lines through', () => {
    const { stream, written } = fakeStderr();
    installJsonStderr(stream);
    stream.write('vv-agent app-server listening on ws://127.0.0.1:1\nwarning: run event store ');
    stream.write('append failed: disk full\nfailed to open App Server store: boom\n');
    stream.write(jsonLogLine('debug', 'from the logger', { context: 'TurnsService' }));
    stream.write(Buffer.from('turn turn_abc of thread_def could not be finalized\n'));
    const lines = written()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      ['info', 'vv-agent app-server listening on ws://127.0.0.1:1'],
      ['warn', 'warning: run event store append failed: disk full'],
      ['error', 'failed to open App Server store: boom'],
      ['debug', 'from the logger'],
      ['info', 'turn turn_abc of thread_def could not be finalized'],
    ]);
    expect(lines[3].context).toBe('TurnsService');
    expect(lines[4]).toMatchObject({ threadId: 'thread_def', turnId: 'turn_abc' });
    for (const line of lines) expect(Number.isNaN(Date.parse(line.time))).toBe(false);
  });
});
