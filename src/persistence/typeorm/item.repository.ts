/**
 * Items: one row per logical item, upserted by itemId (protocol.md §8.5). The row keeps the
 * position and created_seq of its first appearance; later writes replace item_json and change_seq
 * unless they are older than what is stored.
 */
import type { EntityManager } from 'typeorm';
import { runSql } from './sql-dialect';
import type { AppItem } from '../../core/model/types';
import { ItemEntity } from './entities';
import { completeReplay, type ItemReplayQuery, type StoredReplayWindow } from '../../core/store/item-replay';
import type { RowReader } from './row-reader';
import type { StoreExecutor } from './store-executor';
import { parseJsonObject } from './stored-json';
import type { ItemVersion } from '../../core/store/records';

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

type VersionFields = Pick<ItemEntity, 'createdSeq' | 'changeSeq' | 'itemJson'>;

/** "No limit" for both drivers: SQLite reads a negative LIMIT so, PostgreSQL refuses one. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * A thread's items in replay order (created_seq; position breaks ties, which are not expected),
 * optionally only those changed after `?`, then LIMIT. Only the keys go through sqlite's sorter and
 * item_json is joined afterwards: sorting whole rows of a 10 000-item thread took ~95 ms, sorting
 * keys ~40 ms. The outer ORDER BY follows the subquery's order, so sqlite does not sort again.
 */
function replaySql(changedAfterAnchor: boolean): string {
  return `
    SELECT "item"."created_seq" AS "createdSeq", "item"."change_seq" AS "changeSeq", "item"."item_json" AS "itemJson"
    FROM (
      SELECT rowid AS "row", "created_seq", "position" FROM "items"
      WHERE "thread_id" = ?${changedAfterAnchor ? ' AND "change_seq" > ?' : ''}
      ORDER BY "created_seq", "position" LIMIT ?
    ) AS "key" JOIN "items" AS "item" ON "item".rowid = "key"."row"
    ORDER BY "key"."created_seq", "key"."position"`;
}
const SELECT_REPLAY_SQL = replaySql(false);
const SELECT_REPLAY_AFTER_SQL = replaySql(true);
const SELECT_ANCHOR_SQL = `SELECT "created_seq" AS "createdSeq" FROM "items" WHERE "item_id" = ? AND "thread_id" = ?`;

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
    const window = await this.executor.read((statements) => readReplayWindow(statements, threadId, query));
    return completeReplay(window, query.live ?? [], query);
  }

  /** The highest persisted change counter value of the thread; 0 when it has no items. */
  lastChangeSeq(threadId: string): Promise<number> {
    return this.executor.run((manager) => maxChangeSeq(manager, threadId));
  }
}

export async function upsertItem(manager: EntityManager, version: ItemVersion): Promise<void> {
  const { item } = version;
  await runSql(manager, UPSERT_ITEM_SQL, [
    item.itemId,
    item.threadId,
    item.turnId,
    item.threadId,
    version.createdSeq,
    version.changeSeq,
    JSON.stringify(item),
  ]);
}

/**
 * The stored rows a replay can return (protocol.md §8.8), with `afterItemId` and `limit` applied in
 * SQL; `completeReplay` then overlays the live turn and selects again. Filtering first is exact:
 * a live version only replaces a stored one when it is newer, so a row failing `change_seq > anchor`
 * could only be replaced by a version that the same test judges. Limiting first is exact too: every
 * stored row ranked before a returned one is returned (or replaced by a newer live version), so
 * the answer's stored rows are among the first `limit`. A live-only anchor (an item created but not
 * yet persisted) is the exception: then nothing is narrowed here.
 */
export async function readReplayWindow(
  statements: RowReader,
  threadId: string,
  query: ItemReplayQuery,
): Promise<StoredReplayWindow> {
  const limit = query.limit ?? NO_LIMIT;
  if (query.afterItemId === undefined) {
    return { versions: await selectVersions(statements, SELECT_REPLAY_SQL, [threadId, limit]) };
  }
  const [anchor] = await statements.all<{ createdSeq: number }>(SELECT_ANCHOR_SQL, [
    query.afterItemId,
    threadId,
  ]);
  if (anchor === undefined) {
    return { versions: await selectVersions(statements, SELECT_REPLAY_SQL, [threadId, NO_LIMIT]) };
  }
  const { createdSeq } = anchor;
  const versions = await selectVersions(statements, SELECT_REPLAY_AFTER_SQL, [threadId, createdSeq, limit]);
  return { versions, anchorCreatedSeq: createdSeq };
}

async function selectVersions(
  statements: RowReader,
  sql: string,
  parameters: readonly unknown[],
): Promise<ItemVersion[]> {
  return (await statements.all<VersionFields>(sql, parameters)).map(toVersion);
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

function toVersion(row: VersionFields): ItemVersion {
  return { item: toItem(row), createdSeq: row.createdSeq, changeSeq: row.changeSeq };
}

function toItem(row: Pick<ItemEntity, 'itemJson'>): AppItem {
  return parseJsonObject(row.itemJson, 'items.item_json') as unknown as AppItem;
}
