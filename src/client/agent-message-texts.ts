/**
 * Rebuilds each agentMessage's text from the stream (docs/spec/protocol.md §4.8 v1.1): a delta carries only
 * its chunk, so the text so far is what `item/started` (or a replayed in-progress item) held plus
 * every chunk since; `item/completed` carries the whole text and replaces it.
 */
import type { AppItem, ServerMessage } from './client-types';

export class AgentMessageTexts {
  /** itemId → chunks so far; joined on read so that appending stays O(chunk). */
  private readonly chunks = new Map<string, string[]>();

  /** Feeds one server message; anything but agentMessage items is ignored. */
  apply(message: ServerMessage): void {
    if (!('method' in message) || 'id' in message) return;
    const params = message.params as Partial<AppItem> & { delta?: unknown };
    if (params.type !== 'agentMessage' || typeof params.itemId !== 'string') return;
    if (message.method === 'item/agentMessage/delta' && typeof params.delta === 'string') {
      const parts = this.chunks.get(params.itemId);
      if (parts) parts.push(params.delta);
      else this.chunks.set(params.itemId, [params.delta]);
    } else if (message.method === 'item/started' || message.method === 'item/completed') {
      this.seed(params as AppItem);
    }
  }

  /** Items from `thread/read` / `thread/resume`: their text so far is the base for later deltas. */
  applyItems(items: readonly AppItem[]): void {
    for (const item of items) if (item.type === 'agentMessage') this.seed(item);
  }

  /** The text of `itemId` as far as it has streamed; undefined for an item never seen. */
  text(itemId: string): string | undefined {
    const parts = this.chunks.get(itemId);
    if (!parts) return undefined;
    if (parts.length > 1) parts.splice(0, parts.length, parts.join(''));
    return parts[0];
  }

  /** Forgets an item (e.g. once its text has been consumed). */
  delete(itemId: string): void {
    this.chunks.delete(itemId);
  }

  private seed(item: AppItem): void {
    const text = item.payload.text;
    this.chunks.set(item.itemId, [typeof text === 'string' ? text : '']);
  }
}
