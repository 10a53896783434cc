/**
 * thread/fork (docs/spec/history.md §2) as one store transaction: the new thread, copies of the source's
 * finished turns up to and including the fork turn, their items with fresh ids (same order and
 * content), and the conversation history as it stood after that turn.
 */
import type { EntityManager } from 'typeorm';
import { runSql } from './sql-dialect';
import type { AppItem } from '../../core/model/types';
import { parseJsonObject } from './stored-json';
import type { StoredThread } from '../../core/store/records';
import type { ForkRequest, ForkOutcome } from '../../core/store/records';
export type { ForkRequest, ForkOutcome };

interface TurnRow {
  turnId: string;
  status: string;
}

interface ItemRow {
  itemId: string;
  turnId: string;
  position: number;
  createdSeq: number;
  changeSeq: number;
  itemJson: string;
}

export async function forkThread(
  manager: EntityManager,
  request: ForkRequest,
  findThread: (manager: EntityManager, threadId: string) => Promise<StoredThread | null>,
): Promise<ForkOutcome> {
  const source = await findThread(manager, request.sourceThreadId);
  if (source === null) return { kind: 'threadNotFound' };
  const turns: TurnRow[] = await runSql(
    manager,
    `SELECT "turn_id" AS "turnId", "status" FROM "turns" WHERE "thread_id" = ? ORDER BY "started_at", "rowid"`,
    [source.threadId],
  );
  const finished = turns.filter((turn) => turn.status !== 'running');
  const cut =
    request.turnId === undefined
      ? finished.length - 1
      : finished.findIndex((turn) => turn.turnId === request.turnId);
  if (cut < 0) return request.turnId === undefined ? { kind: 'noFinishedTurn' } : { kind: 'turnNotFound' };
  const copied = finished.slice(0, cut + 1);
  const forkTurnId = copied[copied.length - 1].turnId;
  const turnIds = new Map(copied.map((turn) => [turn.turnId, request.newTurnId()]));

  await runSql(
    manager,
    `INSERT INTO "threads" ("thread_id", "agent_key", "cwd", "metadata_json", "created_at", "updated_at",
       "archived_at", "active_turn_id", "forked_from_thread_id", "forked_from_turn_id",
       "mcp_servers_json", "sandbox")
     VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)`,
    [
      request.newThreadId,
      source.agentKey,
      source.cwd,
      JSON.stringify(request.metadata ?? source.metadata),
      request.now,
      request.now,
      source.threadId,
      forkTurnId,
      // A fork keeps the source's thread-level MCP servers (docs/spec/mcp.md §1: stored with the thread).
      source.mcpServers === null ? null : JSON.stringify(source.mcpServers),
      // ...and its sandbox mode (docs/spec/sandbox.md §1): a fork is never looser than its source.
      source.sandbox,
    ],
  );
  for (const [oldTurnId, newTurnId] of turnIds) {
    await runSql(
      manager,
      `INSERT INTO "turns" ("turn_id", "thread_id", "run_id", "status", "started_at", "completed_at",
         "input_json", "result_json", "owner_pid", "owner_host", "sandbox")
       SELECT ?, ?, "run_id", "status", "started_at", "completed_at", "input_json", "result_json",
         "owner_pid", "owner_host", "sandbox" FROM "turns" WHERE "turn_id" = ?`,
      [newTurnId, request.newThreadId, oldTurnId],
    );
  }
  await copyItems(manager, request, turnIds);
  await copyConversation(manager, request, source.threadId, turnIds);
  const thread = await findThread(manager, request.newThreadId);
  if (thread === null) throw new Error('forked thread vanished inside its transaction');
  return { kind: 'forked', thread, origin: { threadId: source.threadId, turnId: forkTurnId } };
}

async function copyItems(
  manager: EntityManager,
  request: ForkRequest,
  turnIds: ReadonlyMap<string, string>,
): Promise<void> {
  const items: ItemRow[] = await runSql(
    manager,
    `SELECT "item_id" AS "itemId", "turn_id" AS "turnId", "position", "created_seq" AS "createdSeq",
       "change_seq" AS "changeSeq", "item_json" AS "itemJson"
     FROM "items" WHERE "thread_id" = ? ORDER BY "position"`,
    [request.sourceThreadId],
  );
  let position = 1;
  for (const row of items) {
    const turnId = turnIds.get(row.turnId);
    if (turnId === undefined) continue;
    const item = parseJsonObject(row.itemJson, 'items.item_json') as unknown as AppItem;
    const copy: AppItem = { ...item, itemId: request.newItemId(), threadId: request.newThreadId, turnId };
    await runSql(
      manager,
      `INSERT INTO "items" ("item_id", "thread_id", "turn_id", "position", "created_seq", "change_seq", "item_json")
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        copy.itemId,
        request.newThreadId,
        turnId,
        position,
        row.createdSeq,
        row.changeSeq,
        JSON.stringify(copy),
      ],
    );
    position += 1;
  }
}

/**
 * The history after the fork turn: the messages appended by the copied turns, with their
 * compaction marks (docs/spec/history.md §1). A mark by a later turn is dropped: that compaction happened
 * after the fork turn, so for the fork those messages are still the history.
 */
async function copyConversation(
  manager: EntityManager,
  request: ForkRequest,
  sourceThreadId: string,
  turnIds: ReadonlyMap<string, string>,
): Promise<void> {
  const rows: Array<{ turnId: string; messageJson: string; supersededBy: string | null }> = await runSql(
    manager,
    `SELECT "turn_id" AS "turnId", "message_json" AS "messageJson",
         "superseded_by_turn_id" AS "supersededBy"
       FROM "conversation_messages" WHERE "thread_id" = ? ORDER BY "seq"`,
    [sourceThreadId],
  );
  let seq = 1;
  for (const row of rows) {
    const turnId = turnIds.get(row.turnId);
    if (turnId === undefined) continue;
    const supersededBy = row.supersededBy === null ? null : (turnIds.get(row.supersededBy) ?? null);
    await runSql(
      manager,
      `INSERT INTO "conversation_messages" ("thread_id", "seq", "turn_id", "message_json", "superseded_by_turn_id")
       VALUES (?, ?, ?, ?, ?)`,
      [request.newThreadId, seq, turnId, row.messageJson, supersededBy],
    );
    seq += 1;
  }
}
