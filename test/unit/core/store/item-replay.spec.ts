import { overlayLiveVersions, selectReplayItems, type ItemVersion } from '../../../../src/persistence/sqlite';
import { agentMessage, version } from '../../persistence/store-test-support';

/**
 * Timeline of one thread (change counter values):
 *   1 A created … 2 B created … 3 A updated … 4 C created … 5 B completed … 6 D created
 */
const A = version(agentMessage('item_A', 'thread_t', 'turn_1', 'a', 'completed'), 1, 3);
const B = version(agentMessage('item_B', 'thread_t', 'turn_1', 'b', 'completed'), 2, 5);
const C = version(agentMessage('item_C', 'thread_t', 'turn_1', 'c', 'completed'), 4, 4);
const D = version(agentMessage('item_D', 'thread_t', 'turn_2', 'd', 'inProgress'), 6, 6);
const ALL: ItemVersion[] = [D, B, A, C];

const ids = (versions: ItemVersion[], query: Parameters<typeof selectReplayItems>[1]) =>
  selectReplayItems(versions, query).map((item) => item.itemId);

describe('selectReplayItems (docs/spec/protocol.md §8.8)', () => {
  it.each([
    [
      'no afterItemId: every item, in order of first appearance',
      {},
      ['item_A', 'item_B', 'item_C', 'item_D'],
    ],
    [
      'unknown afterItemId: every item',
      { afterItemId: 'item_nope' },
      ['item_A', 'item_B', 'item_C', 'item_D'],
    ],
    [
      'after A (created at 1): everything changed later, A included since it changed at 3',
      { afterItemId: 'item_A' },
      ['item_A', 'item_B', 'item_C', 'item_D'],
    ],
    [
      'after B (created at 2): A updated at 3 reappears, B itself changed at 5',
      { afterItemId: 'item_B' },
      ['item_A', 'item_B', 'item_C', 'item_D'],
    ],
    [
      'after C (created at 4): A omitted (last change 3), B completed at 5 included, C unchanged omitted',
      { afterItemId: 'item_C' },
      ['item_B', 'item_D'],
    ],
    ['after D (created at 6): nothing changed since', { afterItemId: 'item_D' }, []],
    ['limit applies after the filter', { afterItemId: 'item_C', limit: 1 }, ['item_B']],
    ['limit without afterItemId', { limit: 2 }, ['item_A', 'item_B']],
  ])('%s', (_name, query, expected) => {
    expect(ids(ALL, query)).toEqual(expected);
  });

  it('overlays newer live versions (deltas held in memory) over stored rows, and adds unpersisted items', () => {
    const liveD = version(agentMessage('item_D', 'thread_t', 'turn_2', 'd and more', 'inProgress'), 6, 8);
    const liveE = version(agentMessage('item_E', 'thread_t', 'turn_2', 'e', 'inProgress'), 7, 7);
    const staleB = version(agentMessage('item_B', 'thread_t', 'turn_1', 'stale', 'inProgress'), 2, 2);
    const merged = overlayLiveVersions(ALL, [liveD, liveE, staleB]);
    expect(selectReplayItems(merged).map((i) => [i.itemId, i.payload.text])).toEqual([
      ['item_A', 'a'],
      ['item_B', 'b'],
      ['item_C', 'c'],
      ['item_D', 'd and more'],
      ['item_E', 'e'],
    ]);
    // D changed at 8 (> E's creation at 7): it is returned after E.
    expect(ids(merged, { afterItemId: 'item_E' })).toEqual(['item_D']);
  });
});
