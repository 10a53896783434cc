/**
 * docs/spec/postgres.md §2 instance loss: a survivor recovered another instance's running turns in the
 * store; their subscribers learn it as from any turn end — `thread/status/changed(idle)` (unless
 * archived), then `turn/completed {status: "interrupted", error}` with the empty token ledger.
 */
import { emptyProtocolTokenUsage } from '../../runtime/usage/usage-ledger';
import type { ThreadEventBus } from '../events/thread-event-bus';
import type { ThreadStore } from '../store/thread-store';

export interface LostTurn {
  threadId: string;
  turnId: string;
}

export async function announceLostTurns(
  store: ThreadStore,
  events: ThreadEventBus,
  turns: readonly LostTurn[],
  error: string,
): Promise<void> {
  for (const { threadId, turnId } of turns) {
    const snapshot = await store.readThread(threadId, { limit: 0 });
    if (snapshot === null) continue;
    const turn = snapshot.turns.find((candidate) => candidate.turnId === turnId);
    if (snapshot.thread.archivedAt === null) {
      await events.broadcast(threadId, 'thread/status/changed', { threadId, status: 'idle' });
    }
    await events.broadcast(threadId, 'turn/completed', {
      threadId,
      turnId,
      runId: turn?.runId ?? '',
      status: 'interrupted',
      error,
      tokenUsage: emptyProtocolTokenUsage(),
    });
  }
}
