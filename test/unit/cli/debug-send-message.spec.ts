/**
 * The debug command's core (docs/spec/protocol.md §12.6) in-process: the printed lines, and the inactivity
 * timeout (`timed out waiting for App Server message`, exit 1) with a model that stalls.
 */
import type { LoggerService } from '@nestjs/common';
import {
  DEBUG_INSTRUCTIONS,
  debugServerOptions,
  runDebugSendMessage,
} from '../../../src/cli/debug-send-message';
import { ScriptedModelProvider, finish } from '../../../src/runtime/model/scripted-model';
import { Runner } from '../../../src/runtime/runner';

class Collector {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  get lines(): Array<Record<string, unknown>> {
    return this.text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

const quiet: LoggerService = { log() {}, error() {}, warn() {} };

/** stdout whose reader goes away (or fails otherwise) after `remaining` lines. */
class FailingOutput extends Collector {
  private readonly listeners: Array<(error: Error) => void> = [];
  constructor(
    private remaining: number,
    private readonly failure: Error,
  ) {
    super();
  }
  override write(chunk: string): boolean {
    if (this.remaining === 0) {
      // An 'error' event nobody listens to is thrown, as a stream's would be.
      if (this.listeners.length === 0) throw this.failure;
      for (const listener of this.listeners) listener(this.failure);
      return false;
    }
    this.remaining -= 1;
    return super.write(chunk);
  }
  on(_event: 'error', listener: (error: Error) => void): void {
    this.listeners.push(listener);
  }
}

describe('runDebugSendMessage', () => {
  it('a reader that goes away (EPIPE) ends the output quietly; the turn still completes, exit 0', async () => {
    const stdout = new FailingOutput(1, Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    const stderr = new Collector();
    const code = await runDebugSendMessage('hi', { stdout, stderr }, { logger: quiet });
    expect(code).toBe(0);
    expect(stderr.text).toBe('');
    expect(stdout.lines.map((line) => line.method)).toEqual(['debug/input']);
  });

  it('another stdout failure is fatal I/O: its message on stderr, exit 1', async () => {
    const stdout = new FailingOutput(1, Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }));
    const stderr = new Collector();
    const code = await runDebugSendMessage('hi', { stdout, stderr }, { logger: quiet });
    expect(code).toBe(1);
    expect(stderr.text).toBe('write ENOSPC\n');
  });

  it('prints debug/input first (no jsonrpc), then full envelopes up to turn/completed; exit 0', async () => {
    const stdout = new Collector();
    const stderr = new Collector();
    const code = await runDebugSendMessage('hi there', { stdout, stderr }, { logger: quiet });
    expect(code).toBe(0);
    expect(stderr.text).toBe('');
    const lines = stdout.lines;
    expect(lines[0]).toEqual({ jsonrpc: '2.0', method: 'debug/input', params: { message: 'hi there' } });
    expect(lines.slice(1).every((line) => line.jsonrpc === '2.0')).toBe(true);
    expect(lines.at(-1)?.method).toBe('turn/completed');
    expect(lines.filter((line) => 'id' in line)).toEqual([]);
  });

  it('fails after the inactivity timeout with "timed out waiting for App Server message", exit 1', async () => {
    const stdout = new Collector();
    const stderr = new Collector();
    const base = debugServerOptions('slow');
    const stalled = new ScriptedModelProvider({ steps: [{ ...finish('slow'), delay_ms: 5_000 }] });
    const code = await runDebugSendMessage(
      'slow',
      { stdout, stderr },
      {
        inactivityTimeoutMs: 300,
        serverOptions: { ...base, runner: new Runner({ modelProvider: stalled }) },
        logger: quiet,
      },
    );
    expect(code).toBe(1);
    expect(stderr.text).toBe('timed out waiting for App Server message\n');
    expect(stdout.lines.map((line) => line.method)).toEqual([
      'debug/input',
      'thread/started',
      'thread/status/changed',
      'turn/started',
      'item/completed',
    ]);
  });

  it('builds the §12.6 server: scripted demo-model, agent assistant, in-memory store, on-request', () => {
    const options = debugServerOptions('x');
    expect(options.store).toEqual({ path: ':memory:' });
    expect(options.approvalPolicy).toBe('on-request');
    expect(options.runner).toBeInstanceOf(Runner);
    expect(DEBUG_INSTRUCTIONS).toBe('Answer the user, then finish.');
  });
});
