/**
 * Items: one row per logical item, upserted by itemId (protocol.md §8.5). The row keeps the
 * position and created_seq of its first appearance; later writes replace item_json and change_seq
 * unless they are older than what is stored.
 */
import type { EntityManager } from 'typeorm';
import type { AppItem } from '../protocol/wire-types';
import { ItemEntity } from './entities';
import { type ItemReplayQuery, overlayLiveVersions, selectReplayItems } from './item-replay';
import type { StoreExecutor } from './store-executor';
import { parseJsonObject } from './stored-json';
import type { ItemVersion } from './stored-records';

export interface ItemReadQuery extends ItemReplayQuery {
  /** Latest in-memory versions of the thread's live turn; they win over older stored rows. */
  live?: readonly ItemVersion[];
}

const UPSERT_ITEM_SQL = `
  INSERT INTO "items" ("item_id", "thread_id", "turn_id", "position", "created_seq", "change_seq", "item_json")
  VALUES (?, ?, ?, (SELECT COALESCE(MAX("position"), 0) + 1 FROM "items" WHERE "thread_id" = ?), ?, ?, ?)
  ON CONFLICT ("item_id") DO UPDATE SET
    "change_seq" = excluded."change_seq",
    "item_json" = excluded."item_json"
  WHERE excluded."change_seq" >= "items"."change_seq"`;

export class ItemRepository {
  constructor(private readonly executor: StoreExecutor) {}

  upsert(version: ItemVersion): Promise<void> {
    return this.executor.run((manager) => upsertItem(manager, version));
  }

  /** All versions in one transaction, in the given order (positions follow that order for new items). */
  upsertMany(versions: readonly ItemVersion[]): Promise<void> {
    if (versions.length === 0) return Promise.resolve();
    return this.executor.transaction(async (manager) => {
      for (const version of versions) await upsertItem(manager, version);
    });
  }

  get(itemId: string): Promise<AppItem | null> {
    return this.executor.run(async (manager) => {
      const row = await manager.getRepository(ItemEntity).findOneBy({ itemId });
      return row ? toItem(row) : null;
    });
  }

  /** Every stored item of the thread with its sequence numbers, in order of first appearance. */
  listVersions(threadId: string): Promise<ItemVersion[]> {
    return this.executor.run((manager) => findThreadVersions(manager, threadId));
  }

  /** thread/read and thread/resume items (protocol.md §3.5, §8.8). */
  async read(threadId: string, query: ItemReadQuery = {}): Promise<AppItem[]> {
    const stored = await this.listVersions(threadId);
    const versions = query.live ? overlayLiveVersions(stored, query.live) : stored;
    return selectReplayItems(versions, query);
  }

  /** The highest persisted change counter value of the thread; 0 when it has no items. */
  lastChangeSeq(threadId: string): Promise<number> {
    return this.executor.run((manager) => maxChangeSeq(manager, threadId));
  }
}

export async function upsertItem(manager: EntityManager, version: ItemVersion): Promise<void> {
  const { item } = version;
  await manager.query(UPSERT_ITEM_SQL, [
    item.itemId,
    item.threadId,
    item.turnId,
    item.threadId,
    version.createdSeq,
    version.changeSeq,
    JSON.stringify(item),
  ]);
}

export async function findThreadVersions(manager: EntityManager, threadId: string): Promise<ItemVersion[]> {
  const rows = await manager
    .getRepository(ItemEntity)
    .find({ where: { threadId }, order: { position: 'ASC' } });
  return rows.map(toVersion);
}

export async function findTurnVersions(manager: EntityManager, turnId: string): Promise<ItemVersion[]> {
  const rows = await manager
    .getRepository(ItemEntity)
    .find({ where: { turnId }, order: { position: 'ASC' } });
  return rows.map(toVersion);
}

export async function maxChangeSeq(manager: EntityManager, threadId: string): Promise<number> {
  const value: unknown = await manager
    .getRepository(ItemEntity)
    .createQueryBuilder('item')
    .select('MAX(item.changeSeq)', 'max')
    .where('item.threadId = :threadId', { threadId })
    .getRawOne()
    .then((raw: { max: unknown } | undefined) => raw?.max);
  return typeof value === 'number' ? value : 0;
}

function toVersion(row: ItemEntity): ItemVersion {
  return { item: toItem(row), createdSeq: row.createdSeq, changeSeq: row.changeSeq };
}

function toItem(row: ItemEntity): AppItem {
  return parseJsonObject(row.itemJson, 'items.item_json') as unknown as AppItem;
}
