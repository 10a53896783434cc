/**
 * The item states a turn persisted, written again through the server's own store on a fresh file:
 * `AppServerStore.items.upsertMany`, the call the turn forwarder makes per burst, with the file
 * options the server opens (WAL). The states are the turn's `item/started` and `item/completed`
 * params in the order the server sent them. Each was durable before its notification (§8.11) and
 * streamed deltas are sent one by one, never batched with states, so the states between two runs
 * of deltas share a transaction, and an agentMessage's start (committed before its first delta)
 * has one of its own: about two per model call, no fewer than the forwarder's bursts.
 */
import { randomUUID } from 'node:crypto';
import type { AppItem } from '../../src/core/model/types';
import { AppServerStore, type ItemVersion } from '../../src/persistence/sqlite';

export interface PersistedState {
  method: 'item/started' | 'item/completed';
  item: AppItem;
}

/** A turn's notifications as far as persistence goes: item states, and where deltas were sent. */
export type TurnWrite = PersistedState | { method: 'item/agentMessage/delta' };

export interface StoreWriteReplay {
  /** Distinct items written. */
  items: number;
  states: number;
  transactions: number;
  /** Time spent in upsertMany, transaction after transaction. */
  seconds: number;
}

const isState = (write: TurnWrite): write is PersistedState => 'item' in write;

function transactionsOf(writes: readonly TurnWrite[]): ItemVersion[][] {
  const createdSeq = new Map<string, number>();
  const transactions: ItemVersion[][] = [];
  let open: ItemVersion[] | null = null;
  let seq = 0;
  for (const write of writes) {
    if (!isState(write)) {
      open = null;
      continue;
    }
    seq += 1;
    const { itemId } = write.item;
    if (!createdSeq.has(itemId)) createdSeq.set(itemId, seq);
    const version = { item: write.item, createdSeq: createdSeq.get(itemId) ?? seq, changeSeq: seq };
    const messageStart = write.item.type === 'agentMessage' && write.method === 'item/started';
    if (open === null || messageStart) {
      open = [];
      transactions.push(open);
    }
    open.push(version);
    if (messageStart) open = null;
  }
  return transactions;
}

export async function replayStoreWrites(
  path: string,
  writes: readonly TurnWrite[],
): Promise<StoreWriteReplay> {
  const states = writes.filter(isState);
  if (states.length === 0) throw new Error('no item states to write');
  const { threadId, turnId, createdAt } = states[0].item;
  const transactions = transactionsOf(writes);
  const store = await AppServerStore.open(path);
  try {
    await store.threads.create({ threadId, agentKey: 'default', cwd: null, metadata: {}, now: createdAt });
    const runId = `run_${randomUUID().replace(/-/g, '')}`;
    await store.beginTurn({ turnId, threadId, runId, input: [], startedAt: createdAt });
    const began = process.hrtime.bigint();
    for (const versions of transactions) await store.items.upsertMany(versions);
    const seconds = Number(process.hrtime.bigint() - began) / 1e9;
    const items = new Set(states.map((state) => state.item.itemId)).size;
    return { items, states: states.length, transactions: transactions.length, seconds };
  } finally {
    await store.close();
  }
}
