/**
 * The text of each agentMessage another instance is streaming, as this instance relayed it: the
 * `item/started` text plus every `item/agentMessage/delta` since (docs/spec/protocol.md §8.5, what a
 * replayed in-progress agentMessage carries). The store keeps only the text an item was created or
 * completed with, so when the streaming instance is lost this is what its subscribers were shown
 * — the text the `item/completed` closing that message carries (docs/spec/postgres.md §2 instance
 * loss). Every instance receives every thread event, so whichever survivor recovers the turn has
 * it. Forgotten at the item's completion or its turn's end.
 */
import type { RelayedThreadEvent } from '../../../core/events/thread-event-relay';

interface StreamedItem {
  itemId?: unknown;
  turnId?: unknown;
  type?: unknown;
  status?: unknown;
  payload?: { text?: unknown };
  delta?: unknown;
}

export class RemoteMessageTexts {
  /** itemId → its turn and the chunks so far (joined on read, so appending stays O(chunk)). */
  private readonly items = new Map<string, { turnId: string; chunks: string[] }>();

  observe(event: RelayedThreadEvent): void {
    const params = event.params as StreamedItem;
    if (event.kind === 'turnCompleted') {
      for (const [itemId, item] of this.items) if (item.turnId === params.turnId) this.items.delete(itemId);
      return;
    }
    if (params.type !== 'agentMessage' || typeof params.itemId !== 'string') return;
    if (event.kind === 'itemCompleted') {
      this.items.delete(params.itemId);
    } else if (event.kind === 'itemStarted' && params.status === 'inProgress') {
      const text = params.payload?.text;
      this.items.set(params.itemId, {
        turnId: String(params.turnId),
        chunks: [typeof text === 'string' ? text : ''],
      });
    } else if (event.kind === 'agentMessageTextDelta' && typeof params.delta === 'string') {
      this.items.get(params.itemId)?.chunks.push(params.delta);
    }
  }

  /** The text relayed so far of an agentMessage still streaming; undefined when none is known. */
  textOf(itemId: string): string | undefined {
    const item = this.items.get(itemId);
    if (item === undefined) return undefined;
    if (item.chunks.length > 1) item.chunks.splice(0, item.chunks.length, item.chunks.join(''));
    return item.chunks[0];
  }
}
