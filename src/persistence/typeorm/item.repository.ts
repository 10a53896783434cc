/**
 * Items: one row per logical item, upserted by itemId (docs/spec/protocol.md §8.5). The row keeps the
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
import { coalesceItemVersions } from '../../core/store/item-write-batch';

export interface ItemReadQuery extends ItemReplayQuery {
  /** Latest in-memory versions of the thread's live turn; they win over older stored rows. */
  live?: readonly ItemVersion[];
}

/**
 * Rows per upsert statement: 7 parameters each stays far below SQLite's 32 766 and PostgreSQL's
 * 65 535 bound parameters, and one statement per model call's worth of items replaces a round trip
 * to the driver per item.
 */
const UPSERT_ROWS_PER_STATEMENT = 500;

/**
 * New rows take positions after the thread's last one, in VALUES order (`column4` is the row's
 * index in the statement). Both databases compute the SELECT before inserting (SQLite because it
 * reads the table it inserts into, PostgreSQL from the statement's snapshot), so every new row of
 * a statement sees the same last position. A row that updates an existing item keeps its position
 * and a row of another thread counts elsewhere, so their indexes leave gaps: positions order a
 * thread's items, nothing counts them. `WHERE true` tells SQLite's
 * parser that ON CONFLICT belongs to the INSERT, not to a join. The casts type PostgreSQL's VALUES.
 */
function upsertItemsSql(rows: number): string {
  const row = '(?, ?, ?, CAST(? AS integer), CAST(? AS integer), CAST(? AS integer), ?)';
  return `
  INSERT INTO "items" ("item_id", "thread_id", "turn_id", "position", "created_seq", "change_seq", "item_json")
  SELECT "batch"."column1", "batch"."column2", "batch"."column3",
    (SELECT COALESCE(MAX("position"), 0) FROM "items" WHERE "thread_id" = "batch"."column2") + "batch"."column4",
    "batch"."column5", "batch"."column6", "batch"."column7"
  FROM (VALUES ${Array.from({ length: rows }, () => row).join(', ')}) AS "batch"
  WHERE true
  ON CONFLICT ("item_id") DO UPDATE SET
    "change_seq" = excluded."change_seq",
    "item_json" = excluded."item_json"
  WHERE excluded."change_seq" >= "items"."change_seq"`;
}

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

  /** All versions atomically, in the given order (positions follow that order for new items). */
  upsertMany(versions: readonly ItemVersion[]): Promise<void> {
    if (versions.length === 0) return Promise.resolve();
    // One statement is atomic by itself; more need a transaction.
    if (versions.length <= UPSERT_ROWS_PER_STATEMENT)
      return this.executor.run((manager) => upsertItems(manager, versions));
    return this.executor.transaction((manager) => upsertItems(manager, versions));
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

  /** thread/read and thread/resume items (docs/spec/protocol.md §3.5, §8.8). */
  async read(threadId: string, query: ItemReadQuery = {}): Promise<AppItem[]> {
    const window = await this.executor.read((statements) => readReplayWindow(statements, threadId, query));
    return completeReplay(window, query.live ?? [], query);
  }

  /** The highest persisted change counter value of the thread; 0 when it has no items. */
  lastChangeSeq(threadId: string): Promise<number> {
    return this.executor.run((manager) => maxChangeSeq(manager, threadId));
  }
}

export function upsertItem(manager: EntityManager, version: ItemVersion): Promise<void> {
  return upsertItems(manager, [version]);
}

/**
 * Writes item states with one statement per `UPSERT_ROWS_PER_STATEMENT`, coalesced first (one
 * version per item, the latest winning) as one statement can touch a row only once. More than one
 * statement needs the caller's transaction to stay atomic.
 */
export async function upsertItems(manager: EntityManager, versions: readonly ItemVersion[]): Promise<void> {
  const rows = coalesceItemVersions(versions);
  for (let start = 0; start < rows.length; start += UPSERT_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + UPSERT_ROWS_PER_STATEMENT);
    const parameters = chunk.flatMap(({ item, createdSeq, changeSeq }, index) => [
      item.itemId,
      item.threadId,
      item.turnId,
      index + 1,
      createdSeq,
      changeSeq,
      JSON.stringify(item),
    ]);
    await runSql(manager, upsertItemsSql(chunk.length), parameters);
  }
}

/**
 * The stored rows a replay can return (docs/spec/protocol.md §8.8), with `afterItemId` and `limit` applied in
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
  // A positive integer past what the drivers bind as an integer (2^63 and up) still means "all".
  const limit = Math.min(query.limit ?? NO_LIMIT, NO_LIMIT);
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
