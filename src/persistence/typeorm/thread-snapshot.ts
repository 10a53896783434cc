/**
 * The store read behind thread/read and thread/resume (docs/spec/protocol.md §3.4, §3.5, §8.8). It is a hot
 * path and every statement is a round trip to sqlite's worker thread, so the thread row comes with
 * its turns in one statement (a LEFT JOIN: a thread without turns is one row whose turn columns are
 * NULL) and the item replay window comes in a second one.
 */
import type { ThreadEntity } from './entities';
import type { ItemReplayQuery } from '../../core/store/item-replay';
import { readReplayWindow } from './item.repository';
import type { RowReader } from './row-reader';
import { toStoredThread } from './thread.repository';
import { toAppTurn, type TurnFields } from './turn.repository';
import type { StoredThreadSnapshot } from '../../core/store/records';
export type { StoredThreadSnapshot };

/**
 * Columns aliased to ThreadEntity's and TurnEntity's property names; turns in creation order, rowid
 * breaking ties between turns started in the same millisecond (as in TurnRepository.listByThread).
 */
const SELECT_THREAD_WITH_TURNS_SQL = `
  SELECT th."thread_id" AS "threadId", th."agent_key" AS "agentKey", th."cwd",
    th."metadata_json" AS "metadataJson", th."created_at" AS "createdAt", th."updated_at" AS "updatedAt",
    th."archived_at" AS "archivedAt", th."active_turn_id" AS "activeTurnId",
    th."forked_from_thread_id" AS "forkedFromThreadId", th."forked_from_turn_id" AS "forkedFromTurnId",
    th."mcp_servers_json" AS "mcpServersJson", th."sandbox",
    tu."turn_id" AS "turnId", tu."run_id" AS "runId", tu."status", tu."started_at" AS "startedAt",
    tu."completed_at" AS "completedAt", tu."input_json" AS "inputJson", tu."result_json" AS "resultJson",
    tu."sandbox" AS "turnSandbox"
  FROM "threads" th LEFT JOIN "turns" tu ON tu."thread_id" = th."thread_id"
  WHERE th."thread_id" = ?
  ORDER BY tu."started_at", tu.rowid`;

/** The turn's `sandbox` comes as `turnSandbox`: the thread row has a `sandbox` of its own. */
type TurnColumns = Omit<TurnFields, 'threadId' | 'sandbox'> & { turnSandbox: string | null };
type ThreadTurnRow = ThreadEntity & ({ [K in keyof TurnColumns]: null } | TurnColumns);

function hasTurn(row: ThreadTurnRow): row is ThreadEntity & TurnColumns {
  return row.turnId !== null;
}

/** Null when the thread does not exist. */
export async function readThreadSnapshot(
  statements: RowReader,
  threadId: string,
  query: ItemReplayQuery,
): Promise<StoredThreadSnapshot | null> {
  // Issued together, so the connection runs them back to back; both settle before this returns, so
  // no statement of this store operation still runs when the next one starts.
  const rows = statements.all<ThreadTurnRow>(SELECT_THREAD_WITH_TURNS_SQL, [threadId]);
  const items = readReplayWindow(statements, threadId, query);
  await Promise.allSettled([rows, items]);
  const threadRows = await rows;
  if (threadRows.length === 0) return null;
  return {
    thread: toStoredThread(threadRows[0]),
    turns: threadRows.filter(hasTurn).map((row) => toAppTurn({ ...row, sandbox: row.turnSandbox })),
    items: await items,
  };
}
