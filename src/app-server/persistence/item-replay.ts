/**
 * Which items a replay returns (protocol.md §8.8), over stored rows merged with live in-memory state.
 * Pure: the repository and the thread handlers share it.
 */
import type { AppItem } from '../protocol/wire-types';
import type { ItemVersion } from './stored-records';

export interface ItemReplayQuery {
  /** Return items whose latest change is later than this item's creation; unknown id → all items. */
  afterItemId?: string;
  /** At most this many items, applied after the afterItemId filter. */
  limit?: number;
}

/**
 * Merges stored versions with newer in-memory ones (deltas may be held only in memory, §8.5):
 * per itemId the version with the larger changeSeq wins, live winning ties.
 */
export function overlayLiveVersions(
  stored: readonly ItemVersion[],
  live: readonly ItemVersion[],
): ItemVersion[] {
  const byId = new Map<string, ItemVersion>();
  for (const version of stored) byId.set(version.item.itemId, version);
  for (const version of live) {
    const current = byId.get(version.item.itemId);
    if (!current || version.changeSeq >= current.changeSeq) byId.set(version.item.itemId, version);
  }
  return [...byId.values()];
}

/** Each item once, in order of first appearance, in its latest state; then `limit`. */
export function selectReplayItems(versions: readonly ItemVersion[], query: ItemReplayQuery = {}): AppItem[] {
  const ordered = [...versions].sort((a, b) => a.createdSeq - b.createdSeq);
  const anchor =
    query.afterItemId === undefined ? undefined : ordered.find((v) => v.item.itemId === query.afterItemId);
  const selected = anchor ? ordered.filter((v) => v.changeSeq > anchor.createdSeq) : ordered;
  const limited = query.limit === undefined ? selected : selected.slice(0, query.limit);
  return limited.map((v) => v.item);
}
