/**
 * docs/spec/postgres.md §2 instance loss: a survivor recovered another instance's running turns in the
 * store; their subscribers learn it as from any turn end — `itemCompleted` of each item the
 * recovery interrupted, as stored (an agentMessage they saw streaming: a bubble to close,
 * docs/spec/protocol.md §8.3; its text is the one relayed so far, which the store never had: clients
 * replace a message's text with itemCompleted's), then `threadStatusChanged(idle)` (unless archived), then
 * `turnCompleted {status: "interrupted", error}` with the empty token ledger.
 */
import { emptyProtocolTokenUsage } from '../../runtime/usage/usage-ledger';
import type { ThreadEventBus } from '../events/thread-event-bus';
import type { ThreadStore } from '../store/thread-store';

export interface LostTurn {
  threadId: string;
  turnId: string;
  /** Items the recovery turned from inProgress to interrupted, in order of first appearance. */
  interruptedItemIds?: readonly string[];
}

export async function announceLostTurns(
  store: ThreadStore,
  events: ThreadEventBus,
  turns: readonly LostTurn[],
  error: string,
  streamedText: (itemId: string) => string | undefined = () => undefined,
): Promise<void> {
  for (const { threadId, turnId, interruptedItemIds = [] } of turns) {
    // The items are read only when some were interrupted: their stored state is what is sent.
    const snapshot = await store.readThread(threadId, interruptedItemIds.length > 0 ? {} : { limit: 0 });
    if (snapshot === null) continue;
    const turn = snapshot.turns.find((candidate) => candidate.turnId === turnId);
    const stored = new Map(snapshot.items.versions.map((version) => [version.item.itemId, version.item]));
    for (const itemId of interruptedItemIds) {
      const item = stored.get(itemId);
      if (item === undefined) continue;
      const text = item.type === 'agentMessage' ? streamedText(itemId) : undefined;
      const closed = text === undefined ? item : { ...item, payload: { ...item.payload, text } };
      await events.broadcast(threadId, 'itemCompleted', closed);
    }
    if (snapshot.thread.archivedAt === null) {
      await events.broadcast(threadId, 'threadStatusChanged', { threadId, status: 'idle' });
    }
    await events.broadcast(threadId, 'turnCompleted', {
      threadId,
      turnId,
      runId: turn?.runId ?? '',
      status: 'interrupted',
      error,
      tokenUsage: emptyProtocolTokenUsage(),
    });
  }
}
