/** Runs DeltaStreamModel in a child process (ts-node) and collects its write timestamps by tag. */
import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { StreamedReport } from './delta-stream-model';

type ChildMessage = { type: 'listening'; port: number } | ({ type: 'streamed' } & StreamedReport);

export class DeltaStreamModelProcess {
  private readonly reports = new Map<string, number[]>();
  private readonly waiters = new Map<string, (times: number[]) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.type !== 'streamed') return;
      const waiter = this.waiters.get(message.tag);
      if (waiter) {
        this.waiters.delete(message.tag);
        waiter(message.writeTimesUs);
      } else this.reports.set(message.tag, message.writeTimesUs);
    });
  }

  static start(): Promise<DeltaStreamModelProcess> {
    const child = fork(resolve(__dirname, 'delta-stream-model.child.ts'), [], {
      execArgv: ['-r', require.resolve('ts-node/register/transpile-only')],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return new Promise((resolveStart, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`model process exited with ${code}`)));
      child.on('message', function onListening(message: ChildMessage) {
        if (message.type !== 'listening') return;
        child.off('message', onListening);
        resolveStart(new DeltaStreamModelProcess(child, message.port));
      });
    });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** The content write times (hrtime µs) of the response streamed for `tag`. */
  writeTimes(tag: string, timeoutMs = 120_000): Promise<number[]> {
    const ready = this.reports.get(tag);
    if (ready) {
      this.reports.delete(tag);
      return Promise.resolve(ready);
    }
    return new Promise((resolveTimes, reject) => {
      const timer = setTimeout(() => reject(new Error(`no timestamps for ${tag}`)), timeoutMs);
      this.waiters.set(tag, (times) => {
        clearTimeout(timer);
        resolveTimes(times);
      });
    });
  }

  async close(): Promise<void> {
    this.child.removeAllListeners('exit');
    const exited = new Promise((resolveExit) => this.child.once('exit', resolveExit));
    this.child.disconnect();
    await exited;
  }
}
