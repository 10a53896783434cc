import { describeEachStore } from '../../support/store-drivers';
/**
 * The replay read narrows items in SQL (afterItemId, limit) before the live overlay (protocol.md
 * §8.8). These cases hold it to the in-memory reference: every stored row, overlaid, then selected.
 */
import {
  TypeOrmAppServerStore,
  overlayLiveVersions,
  selectReplayItems,
  type ItemReplayQuery,
  type ItemVersion,
} from '../../../src/persistence/sqlite';
import { agentMessage, seedTurns, version } from './store-test-support';

const item = (id: string, text: string, turnId = 'turn_1') => agentMessage(id, 'thread_t', turnId, text);

/**
 * Stored final states, written in this order so positions (E, A, B, D, C, G) differ from creation
 * order (A 1, B 2, C 3, D 4, E 5, G 12): the replay follows creation order. G was persisted while
 * F (created at 10) was still only in memory.
 */
const STORED: ItemVersion[] = [
  version(item('item_E', 'e', 'turn_2'), 5, 5),
  version(item('item_A', 'a changed at 6'), 1, 6),
  version(item('item_B', 'b changed at 9'), 2, 9),
  version(item('item_D', 'd changed at 7', 'turn_2'), 4, 7),
  version(item('item_C', 'c'), 3, 3),
  version(item('item_G', 'g', 'turn_2'), 12, 12),
];

/** The running turn's in-memory versions: newer D and C, a stale B, and F not persisted yet. */
const LIVE: ItemVersion[] = [
  version(item('item_D', 'd streamed at 8', 'turn_2'), 4, 8),
  version(item('item_B', 'b stale', 'turn_1'), 2, 2),
  version(item('item_F', 'f only in memory', 'turn_2'), 10, 10),
  version(item('item_C', 'c changed at 11'), 3, 11),
];

describeEachStore('replay read narrowed in SQL (docs/spec/protocol.md §8.8)', (driver) => {
  let store: TypeOrmAppServerStore;

  beforeEach(async () => {
    store = await driver().open(await driver().newLocation());
    for (const threadId of ['thread_t', 'thread_u']) {
      await store.threads.create({ threadId, agentKey: 'default', cwd: null, metadata: {}, now: 1 });
    }
    await seedTurns(
      store,
      (
        [
          ['turn_1', 'thread_t', 2],
          ['turn_2', 'thread_t', 3],
          ['turn_u', 'thread_u', 4],
        ] as const
      ).map(([turnId, threadId, startedAt]) => ({ turnId, threadId, runId: null, input: [], startedAt })),
    );
    await store.items.upsertMany(STORED);
    await store.items.upsert(version(agentMessage('item_X', 'thread_u', 'turn_u', 'x'), 1, 1));
  });

  afterEach(async () => {
    await store.close();
  });

  const texts = (items: Array<{ itemId: string; payload: Record<string, unknown> }>) =>
    items.map((i) => `${i.itemId}: ${String(i.payload.text)}`);

  it.each<[string, ItemReplayQuery, readonly ItemVersion[], string[]]>([
    [
      'creation order, not position order',
      {},
      [],
      [
        'item_A: a changed at 6',
        'item_B: b changed at 9',
        'item_C: c',
        'item_D: d changed at 7',
        'item_E: e',
        'item_G: g',
      ],
    ],
    [
      'after C: stored rows changed later, then the live overlay (newer C and D, F; stale B ignored)',
      { afterItemId: 'item_C' },
      LIVE,
      [
        'item_A: a changed at 6',
        'item_B: b changed at 9',
        'item_C: c changed at 11',
        'item_D: d streamed at 8',
        'item_E: e',
        'item_F: f only in memory',
        'item_G: g',
      ],
    ],
    [
      'after C, limit 2',
      { afterItemId: 'item_C', limit: 2 },
      LIVE,
      ['item_A: a changed at 6', 'item_B: b changed at 9'],
    ],
    [
      'after E without live: only rows changed after 5',
      { afterItemId: 'item_E' },
      [],
      ['item_A: a changed at 6', 'item_B: b changed at 9', 'item_D: d changed at 7', 'item_G: g'],
    ],
    [
      'after a live-only item, with its turn live: a stored row far down the thread qualifies',
      { afterItemId: 'item_F', limit: 2 },
      LIVE,
      ['item_C: c changed at 11', 'item_G: g'],
    ],
    [
      'after a live-only item, without it: unknown, so all items',
      { afterItemId: 'item_F', limit: 1 },
      [],
      ['item_A: a changed at 6'],
    ],
    [
      'an item of another thread is unknown',
      { afterItemId: 'item_X', limit: 2 },
      [],
      ['item_A: a changed at 6', 'item_B: b changed at 9'],
    ],
  ])('%s', async (_name, query, live, expected) => {
    expect(texts(await store.items.read('thread_t', { ...query, live }))).toEqual(expected);
  });

  const ANCHORS = [
    undefined,
    'item_A',
    'item_B',
    'item_C',
    'item_D',
    'item_E',
    'item_F',
    'item_unknown',
    'item_X',
  ];
  // Past 2^53 and 2^63: still positive integers (docs/spec/protocol.md §3.5), so every item, no driver error.
  const LIMITS = [undefined, 1, 2, 3, 4, 10, 2 ** 63, 1e20];
  const CASES = ANCHORS.flatMap((afterItemId) =>
    LIMITS.flatMap((limit) => [
      { afterItemId, limit, live: [] as ItemVersion[] },
      { afterItemId, limit, live: LIVE },
    ]),
  );

  it(`matches the in-memory selection over every stored row (${CASES.length} combinations)`, async () => {
    const allStored = await store.items.listVersions('thread_t');
    for (const { afterItemId, limit, live } of CASES) {
      const expected = selectReplayItems(overlayLiveVersions(allStored, live), { afterItemId, limit });
      const label = JSON.stringify({ afterItemId, limit, live: live.length });
      expect({ label, items: await store.items.read('thread_t', { afterItemId, limit, live }) }).toEqual({
        label,
        items: expected,
      });
    }
  });
});
