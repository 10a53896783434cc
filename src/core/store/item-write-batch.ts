/**
 * The item states of a batch of projection effects, coalesced into one store write: one version
 * per item, the latest (highest changeSeq) winning, in order of each item's first appearance so
 * new items get their positions in the order they were created (docs/spec/protocol.md §8.5).
 */
import type { ItemVersion } from './records';

export function coalesceItemVersions(versions: readonly ItemVersion[]): ItemVersion[] {
  const latest = new Map<string, ItemVersion>();
  for (const version of versions) {
    const { itemId } = version.item;
    const known = latest.get(itemId);
    // Map keeps the first insertion's order when a key is set again.
    if (known === undefined || version.changeSeq >= known.changeSeq) latest.set(itemId, version);
  }
  return [...latest.values()];
}
