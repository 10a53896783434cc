/**
 * Which items a replay returns (docs/spec/protocol.md §8.8), over stored rows merged with live in-memory state.
 * Pure: the repository and the thread handlers share it.
 */
import type { AppItem } from '../model/types';
import type { ItemReplayQuery, ItemVersion } from './records';
export type { ItemReplayQuery };

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
  return selectOrderedAfter(ordered, anchor?.createdSeq, query.limit);
}

/**
 * The stored side of a replay, already narrowed in SQL (ItemRepository): the rows that can be part
 * of the answer, and where the stored `afterItemId` item was created.
 */
export interface StoredReplayWindow {
  /** In createdSeq order. */
  versions: ItemVersion[];
  /** Undefined when no afterItemId was asked or no stored item of the thread has that id. */
  anchorCreatedSeq?: number;
}

/**
 * Finishes a replay over a stored window: live versions overlay the stored ones, then the §8.8
 * selection. The anchor is the stored item, else the live one (created, not yet persisted), else
 * there is none and every item qualifies. An item's createdSeq never changes, so a stored and a
 * live version of one item name the same anchor.
 */
export function completeReplay(
  window: StoredReplayWindow,
  live: readonly ItemVersion[],
  query: ItemReplayQuery = {},
): AppItem[] {
  const ordered =
    live.length === 0
      ? window.versions
      : overlayLiveVersions(window.versions, live).sort((a, b) => a.createdSeq - b.createdSeq);
  const anchorCreatedSeq =
    window.anchorCreatedSeq ??
    (query.afterItemId === undefined
      ? undefined
      : live.find((v) => v.item.itemId === query.afterItemId)?.createdSeq);
  return selectOrderedAfter(ordered, anchorCreatedSeq, query.limit);
}

/** `ordered` by createdSeq: the versions changed after the anchor's creation, then `limit`. */
function selectOrderedAfter(
  ordered: readonly ItemVersion[],
  anchorCreatedSeq: number | undefined,
  limit: number | undefined,
): AppItem[] {
  const selected =
    anchorCreatedSeq === undefined ? ordered : ordered.filter((v) => v.changeSeq > anchorCreatedSeq);
  const limited = limit === undefined ? selected : selected.slice(0, limit);
  return limited.map((v) => v.item);
}
