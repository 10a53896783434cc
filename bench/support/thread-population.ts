/** Creates many threads through `thread/start`, at most `window` requests in flight (below the FIFO limit of 128). */
import type { BenchWorkspace } from './app-server-launch';
import type { JsonlPeer } from './jsonl-peer';

export async function createThreads(
  peer: JsonlPeer,
  workspace: BenchWorkspace,
  count: number,
  window = 100,
): Promise<string[]> {
  const threadIds: string[] = [];
  for (let first = 0; first < count; first += window) {
    const batch = Array.from({ length: Math.min(window, count - first) }, (_, index) =>
      peer.call(`populate-${first + index}`, 'thread/start', { cwd: workspace.threadCwd }),
    );
    for (const result of await Promise.all(batch)) threadIds.push(result.threadId as string);
  }
  return threadIds;
}
