/** Threads: create, read, list (docs/spec/protocol.md §3.6), archive, active turn and `updatedAt` bookkeeping. */
import type { EntityManager } from 'typeorm';
import { runSql } from './sql-dialect';
import { isSandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { ThreadEntity } from './entities';
import type { RowReader } from './row-reader';
import { InvalidThreadCursorError } from './store-errors';
import type { StoreExecutor } from './store-executor';
import { parseJsonObject } from './stored-json';
import { setOwnProperty } from '../../runtime/own-property';
import type { StoredThread } from '../../core/store/records';
import { decodeThreadCursor, encodeThreadCursor } from './thread-cursor';
import type { NewThread, ThreadListQuery, ThreadListPage } from '../../core/store/records';
export type { NewThread, ThreadListQuery, ThreadListPage };

export const DEFAULT_THREAD_LIST_LIMIT = 50;

/** One thread row, its columns aliased to ThreadEntity's property names. */
const SELECT_THREAD_SQL = `
  SELECT "thread_id" AS "threadId", "agent_key" AS "agentKey", "cwd", "metadata_json" AS "metadataJson",
    "created_at" AS "createdAt", "updated_at" AS "updatedAt", "archived_at" AS "archivedAt",
    "active_turn_id" AS "activeTurnId", "forked_from_thread_id" AS "forkedFromThreadId",
    "forked_from_turn_id" AS "forkedFromTurnId", "mcp_servers_json" AS "mcpServersJson", "sandbox"
  FROM "threads" WHERE "thread_id" = ?`;

export class ThreadRepository {
  constructor(private readonly executor: StoreExecutor) {}

  create(thread: NewThread): Promise<StoredThread> {
    const row: ThreadEntity = {
      threadId: thread.threadId,
      agentKey: thread.agentKey,
      cwd: thread.cwd,
      metadataJson: JSON.stringify(thread.metadata),
      createdAt: thread.now,
      updatedAt: thread.now,
      archivedAt: null,
      activeTurnId: null,
      forkedFromThreadId: thread.forkedFrom?.threadId ?? null,
      forkedFromTurnId: thread.forkedFrom?.turnId ?? null,
      promptTokens: null,
      promptMessagesSince: null,
      mcpServersJson: thread.mcpServers === undefined ? null : JSON.stringify(thread.mcpServers),
      sandbox: thread.sandbox ?? null,
    };
    return this.executor.run(async (manager) => {
      await manager.getRepository(ThreadEntity).insert(row);
      return toStoredThread(row);
    });
  }

  get(threadId: string): Promise<StoredThread | null> {
    return this.executor.read((statements) => selectThread(statements, threadId));
  }

  /** Selection and order of docs/spec/protocol.md §3.6; `nextCursor` non-null iff more matching threads exist. */
  async list(query: ThreadListQuery = {}): Promise<ThreadListPage> {
    // Decoding first: a malformed cursor never touches the database.
    const cursor = query.cursor === undefined ? null : decodeThreadCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_THREAD_LIST_LIMIT;
    const include = query.includeArchived === true || query.archived === true;
    return this.executor.run(async (manager) => {
      const repository = manager.getRepository(ThreadEntity);
      if (cursor && !(await repository.exists({ where: { threadId: cursor.threadId } }))) {
        throw new InvalidThreadCursorError();
      }
      const builder = repository.createQueryBuilder('thread');
      if (!include) builder.andWhere('thread.archivedAt IS NULL');
      if (query.archived !== undefined) {
        builder.andWhere(query.archived ? 'thread.archivedAt IS NOT NULL' : 'thread.archivedAt IS NULL');
      }
      if (cursor) {
        builder.andWhere(
          '(thread.updatedAt < :cursorUpdatedAt OR (thread.updatedAt = :cursorUpdatedAt AND thread.threadId < :cursorThreadId))',
          { cursorUpdatedAt: cursor.updatedAt, cursorThreadId: cursor.threadId },
        );
      }
      const rows = await builder
        .orderBy('thread.updatedAt', 'DESC')
        .addOrderBy('thread.threadId', 'DESC')
        .limit(limit + 1)
        .getMany();
      const page = rows.slice(0, limit).map(toStoredThread);
      const last = page[page.length - 1];
      const nextCursor =
        rows.length > limit && last
          ? encodeThreadCursor({ updatedAt: last.updatedAt, threadId: last.threadId })
          : null;
      return { threads: page, nextCursor };
    });
  }

  /** Sets `archivedAt = updatedAt = now` (re-archiving refreshes both). Null when the thread is unknown. */
  archive(threadId: string, now: number): Promise<StoredThread | null> {
    return this.updateAndGet(threadId, { archivedAt: now, updatedAt: now });
  }

  setActiveTurn(threadId: string, turnId: string, now: number): Promise<StoredThread | null> {
    return this.updateAndGet(threadId, { activeTurnId: turnId, updatedAt: now });
  }

  clearActiveTurn(threadId: string, now: number): Promise<StoredThread | null> {
    return this.updateAndGet(threadId, { activeTurnId: null, updatedAt: now });
  }

  /**
   * docs/spec/history.md §3: a shallow patch where `null` deletes the key; read and write in one transaction
   * so two concurrent patches never lose each other's keys. Null when the thread is unknown.
   */
  patchMetadata(threadId: string, patch: Record<string, unknown>, now: number): Promise<StoredThread | null> {
    return this.executor.run(async (manager) => {
      const current = await findThread(manager, threadId);
      if (current === null) return null;
      const metadata = applyMetadataPatch(current.metadata, patch);
      await manager
        .getRepository(ThreadEntity)
        .update({ threadId }, { metadataJson: JSON.stringify(metadata), updatedAt: now });
      return findThread(manager, threadId);
    });
  }

  touch(threadId: string, now: number): Promise<StoredThread | null> {
    return this.updateAndGet(threadId, { updatedAt: now });
  }

  private updateAndGet(threadId: string, changes: Partial<ThreadEntity>): Promise<StoredThread | null> {
    return this.executor.run(async (manager) => {
      await manager.getRepository(ThreadEntity).update({ threadId }, changes);
      return findThread(manager, threadId);
    });
  }
}

export async function findThread(manager: EntityManager, threadId: string): Promise<StoredThread | null> {
  const rows: ThreadEntity[] = await runSql(manager, SELECT_THREAD_SQL, [threadId]);
  return rows.length > 0 ? toStoredThread(rows[0]) : null;
}

/** The hot-path lookup: most thread and turn methods start with it. */
export async function selectThread(statements: RowReader, threadId: string): Promise<StoredThread | null> {
  const [row] = await statements.all<ThreadEntity>(SELECT_THREAD_SQL, [threadId]);
  return row === undefined ? null : toStoredThread(row);
}

export function toStoredThread(row: ThreadEntity): StoredThread {
  return {
    threadId: row.threadId,
    agentKey: row.agentKey,
    cwd: row.cwd,
    metadata: parseJsonObject(row.metadataJson, 'threads.metadata_json'),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    activeTurnId: row.activeTurnId,
    forkedFrom:
      row.forkedFromThreadId != null && row.forkedFromTurnId != null
        ? { threadId: row.forkedFromThreadId, turnId: row.forkedFromTurnId }
        : null,
    mcpServers:
      row.mcpServersJson == null ? null : parseJsonObject(row.mcpServersJson, 'threads.mcp_servers_json'),
    sandbox: isSandboxMode(row.sandbox) ? row.sandbox : null,
  };
}

/** `null` deletes a key, any other value replaces it (docs/spec/history.md §3). */
export function applyMetadataPatch(
  metadata: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  // Spread and defineProperty keep `__proto__` (and every other key) an own member; an assignment
  // would set the prototype instead (docs/spec-interpretations.md, metadata keys).
  const next = { ...metadata };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else setOwnProperty(next, key, value);
  }
  return next;
}
