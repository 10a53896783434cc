/**
 * The App Server's durable store over TypeORM, for either driver: exposes the repositories and
 * offers the multi-table writes of the turn lifecycle as single transactions. A driver module
 * (src/persistence/sqlite, src/persistence/postgres) opens and migrates the DataSource, then hands
 * it over as a StoreBackend; restart recovery (docs/spec/protocol.md §8.11) runs here, before the store is used.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { AppTurn } from '../../core/model/types';
import {
  ConversationRepository,
  replaceHistory,
  storePromptSize,
  writeConversation,
} from './conversation.repository';
import type { ItemReplayQuery } from '../../core/store/item-replay';
import { ItemRepository, upsertItem, upsertItems } from './item.repository';
import {
  currentRecoveryEnvironment,
  type RecoveredTurn,
  type RecoveryEnvironment,
  recoverInterruptedTurns,
  recoverTurn,
} from './restart-recovery';
import type { RowReader } from './row-reader';
import { dialectOf, runSql } from './sql-dialect';
import { isRunningTurnConflict, StoreError } from './store-errors';
import { ThreadHasActiveTurnError } from '../../core/store/turn-conflict';
import type { ThreadStore } from '../../core/store/thread-store';
import type { CompactionCompletion, TurnOwnership } from '../../core/store/records';
import { StoreExecutor } from './store-executor';
import { readThreadSnapshot, type StoredThreadSnapshot } from './thread-snapshot';
import { forkThread, type ForkOutcome, type ForkRequest } from './thread-fork';
import { findThread, ThreadRepository } from './thread.repository';
import { completeTurn, insertRunningTurn, type NewTurn, TurnRepository } from './turn.repository';
import type { TurnFinish } from '../../core/store/records';
export type { TurnFinish };

/** An initialized, migrated DataSource and what its driver does differently. */
export interface StoreBackend {
  /** A file path, `:memory:`, or a URL without its password. */
  readonly location: string;
  readonly dataSource: DataSource;
  readonly reader: RowReader;
  /** The statement that opens a write transaction. */
  readonly beginSql: string;
  /** Driver work before the DataSource is destroyed (SQLite finalizes its prepared statements). */
  beforeDestroy(): Promise<void>;
}

export interface StoreOpenOptions {
  /** Host, pid, liveness check and clock used by restart recovery; default: this process. */
  recovery?: RecoveryEnvironment;
}

export class TypeOrmAppServerStore implements ThreadStore {
  readonly threads: ThreadRepository;
  readonly turns: TurnRepository;
  readonly items: ItemRepository;
  readonly conversations: ConversationRepository;
  private closed = false;
  /**
   * Finishes the store refused (e.g. disk full), by turn id: written before the next turn begins
   * or finishes, and at close, so a failure the client was told about is stored once space is back
   * (and the thread's running-turn slot is freed in the store too).
   */
  private readonly deferredFinishes = new Map<string, TurnFinish>();

  protected constructor(
    private readonly backend: StoreBackend,
    private readonly executor: StoreExecutor,
    /** Turns recovered when this store was opened. */
    readonly recoveredTurns: readonly RecoveredTurn[],
  ) {
    this.threads = new ThreadRepository(executor);
    this.turns = new TurnRepository(executor);
    this.items = new ItemRepository(executor);
    this.conversations = new ConversationRepository(executor);
  }

  /** Runs restart recovery on an opened backend; destroys its DataSource when that fails. */
  static async openBackend(
    backend: StoreBackend,
    options: StoreOpenOptions = {},
  ): Promise<TypeOrmAppServerStore> {
    const executor = new StoreExecutor(backend.dataSource, backend.reader, backend.beginSql);
    const recovered = await TypeOrmAppServerStore.recover(backend, executor, options);
    return new TypeOrmAppServerStore(backend, executor, recovered);
  }

  static async recover(
    backend: StoreBackend,
    executor: StoreExecutor,
    options: StoreOpenOptions,
  ): Promise<RecoveredTurn[]> {
    try {
      return await recoverInterruptedTurns(executor, options.recovery ?? currentRecoveryEnvironment());
    } catch (error) {
      await backend.beforeDestroy().catch(() => undefined);
      await backend.dataSource.destroy().catch(() => undefined);
      throw StoreError.from(error);
    }
  }

  /** A file path, `:memory:`, or a URL without its password. */
  get path(): string {
    return this.backend.location;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * thread/read and thread/resume (docs/spec/protocol.md §3.4, §3.5, §8.8): the thread, its turns and the
   * stored replay window, read as one store operation. Null when the thread does not exist.
   */
  readThread(threadId: string, query: ItemReplayQuery = {}): Promise<StoredThreadSnapshot | null> {
    return this.executor.read((statements) => readThreadSnapshot(statements, threadId, query));
  }

  /**
   * turn/start step 7 (docs/spec/protocol.md §3.9): the running turn and the thread's active turn, atomically.
   * ThreadHasActiveTurnError when the thread already has a running turn in the store (§8.2).
   */
  beginTurn(turn: NewTurn): Promise<AppTurn> {
    return this.withDeferredFinishes(async (manager) => {
      const created = await insertRunningTurn(manager, turn).catch((error: unknown) => {
        throw isRunningTurnConflict(error)
          ? new ThreadHasActiveTurnError(turn.threadId, { cause: error })
          : error;
      });
      // The turn's foreign key has already refused a thread that does not exist.
      await runSql(
        manager,
        `UPDATE "threads" SET "active_turn_id" = ?, "updated_at" = ? WHERE "thread_id" = ?`,
        [turn.turnId, turn.startedAt, turn.threadId],
      );
      return created;
    });
  }

  /** Finalization step 2 (docs/spec/protocol.md §8.5): items, turn, history and thread, atomically. */
  finishTurn(finish: TurnFinish): Promise<boolean> {
    return this.withDeferredFinishes((manager) => writeTurnFinish(manager, finish));
  }

  /**
   * docs/spec/history.md §1: the completed compaction item and the compacted history in one transaction, so
   * after a crash the next turn starts from the compacted conversation. The prompt-size figure is
   * dropped with the old history it described.
   */
  completeCompaction(completion: CompactionCompletion): Promise<void> {
    const { threadId, turnId, version, history } = completion;
    return this.executor.transaction(async (manager) => {
      await upsertItem(manager, version);
      await replaceHistory(manager, threadId, turnId, history);
      await storePromptSize(manager, threadId, undefined);
    });
  }

  /** Keeps `finish` to be written with the next turn transaction (or at close), then tries it now. */
  deferTurnFinish(finish: TurnFinish): Promise<void> {
    this.deferredFinishes.set(finish.turnId, finish);
    return this.withDeferredFinishes(async () => undefined);
  }

  /** `work` in one transaction after the deferred finishes; they are forgotten once committed. */
  private async withDeferredFinishes<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const deferred = [...this.deferredFinishes.values()];
    const result = await this.executor.transaction(async (manager) => {
      for (const finish of deferred) await writeTurnFinish(manager, finish);
      return work(manager);
    });
    for (const finish of deferred) {
      if (this.deferredFinishes.get(finish.turnId) === finish) this.deferredFinishes.delete(finish.turnId);
    }
    return result;
  }

  /** thread/fork (docs/spec/history.md §2): the new thread with its copied turns, items and history, atomically. */
  forkThread(request: ForkRequest): Promise<ForkOutcome> {
    return this.executor.transaction((manager) => forkThread(manager, request, findThread));
  }

  /**
   * docs/spec/postgres.md §2 instance loss: every running turn of the process `owner` names (host, pid
   * and start token together: a start token alone is shared by processes spawned in one clock
   * tick), recovered as restart recovery does (§8.11) but with `result: {error}`. Row-locked, so
   * two survivors never recover one turn twice: a turn already finished by another is skipped.
   */
  recoverTurnsOwnedBy(
    owner: Pick<TurnOwnership, 'ownerHost' | 'ownerPid' | 'ownerToken'>,
    error: string,
    now: number,
  ): Promise<RecoveredTurn[]> {
    return this.executor.transaction(async (manager) => {
      // Without procfs an owner has no token: its turns have none either.
      const token = owner.ownerToken === null ? '"owner_token" IS NULL' : '"owner_token" = ?';
      const rows: Array<{ turnId: string; threadId: string }> = await runSql(
        manager,
        `SELECT "turn_id" AS "turnId", "thread_id" AS "threadId" FROM "turns"
         WHERE "status" = 'running' AND "owner_host" = ? AND "owner_pid" = ? AND ${token}${
           dialectOf(manager) === 'postgres' ? ' FOR UPDATE' : ''
         }`,
        [owner.ownerHost, owner.ownerPid, ...(owner.ownerToken === null ? [] : [owner.ownerToken])],
      );
      const recovered: RecoveredTurn[] = [];
      for (const row of rows) recovered.push(await recoverTurn(manager, row, now, error));
      return recovered;
    });
  }

  /** Raw SQL for diagnostics and tests (e.g. PRAGMA checks); serialized like every other operation. */
  query(sql: string, parameters: unknown[] = []): Promise<unknown[]> {
    return this.executor.run(async (manager) => {
      const rows: unknown = await runSql(manager, sql, parameters);
      return Array.isArray(rows) ? rows : [];
    });
  }

  /** Waits for queued operations, then closes the connection. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.executor.drain();
    if (this.deferredFinishes.size > 0)
      await this.withDeferredFinishes(async () => undefined).catch(() => undefined);
    try {
      await this.backend.beforeDestroy();
      if (this.backend.dataSource.isInitialized) await this.backend.dataSource.destroy();
    } catch (error) {
      throw StoreError.from(error);
    }
  }
}

/** Finalization step 2's writes (docs/spec/protocol.md §8.5). */
async function writeTurnFinish(manager: EntityManager, finish: TurnFinish): Promise<boolean> {
  // Terminal statuses are final (§8.2): a turn that another instance already ended as lost
  // (docs/spec/postgres.md §2) keeps that end, whatever its paused owner finishes with later.
  const [turn]: Array<{ status: string }> = await runSql(
    manager,
    `SELECT "status" FROM "turns" WHERE "turn_id" = ?${dialectOf(manager) === 'postgres' ? ' FOR UPDATE' : ''}`,
    [finish.turnId],
  );
  if (turn !== undefined && turn.status !== 'running') return false;
  await upsertItems(manager, finish.items ?? []);
  await completeTurn(manager, finish.turnId, finish.completion);
  await writeConversation(manager, finish.threadId, finish.turnId, finish);
  await runSql(
    manager,
    `UPDATE "threads" SET "active_turn_id" = CASE WHEN "active_turn_id" = ? THEN NULL ELSE "active_turn_id" END,
       "updated_at" = ? WHERE "thread_id" = ?`,
    [finish.turnId, finish.now, finish.threadId],
  );
  return true;
}
