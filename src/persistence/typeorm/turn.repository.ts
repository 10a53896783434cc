/** Turns: a running turn with its owner process, its completion, and a thread's turns in creation order. */
import { isSandboxMode } from '../../runtime/sandbox/sandbox-mode';
import { hostname } from 'node:os';
import type { EntityManager } from 'typeorm';
import type { AppTurn, TurnStatus } from '../../core/model/types';
import { TurnEntity } from './entities';
import type { RowReader } from './row-reader';
import { runSql } from './sql-dialect';
import type { StoreExecutor } from './store-executor';
import { ownProcessToken } from '../../runtime/process-identity';
import { parseJsonObject, parseJsonObjectArray } from './stored-json';
import type { TurnOwnership } from '../../core/store/records';
import type { NewTurn, TurnCompletion } from '../../core/store/records';
export type { NewTurn, TurnCompletion };

/** The columns of a wire turn (docs/spec/protocol.md §3.5). */
export type TurnFields = Pick<
  TurnEntity,
  | 'turnId'
  | 'threadId'
  | 'runId'
  | 'status'
  | 'startedAt'
  | 'completedAt'
  | 'inputJson'
  | 'resultJson'
  | 'sandbox'
>;

/**
 * A thread's turns in creation order, columns aliased to TurnEntity's property names. rowid breaks
 * ties between turns started in the same millisecond (e.g. follow-ups).
 */
const SELECT_THREAD_TURNS_SQL = `
  SELECT "turn_id" AS "turnId", "thread_id" AS "threadId", "run_id" AS "runId", "status",
    "started_at" AS "startedAt", "completed_at" AS "completedAt", "input_json" AS "inputJson",
    "result_json" AS "resultJson", "sandbox"
  FROM "turns" WHERE "thread_id" = ? ORDER BY "started_at", rowid`;

export class TurnRepository {
  constructor(private readonly executor: StoreExecutor) {}

  createRunning(turn: NewTurn): Promise<AppTurn> {
    return this.executor.run((manager) => insertRunningTurn(manager, turn));
  }

  /** Null when the turn is unknown. */
  complete(turnId: string, completion: TurnCompletion): Promise<AppTurn | null> {
    return this.executor.run(async (manager) => {
      await completeTurn(manager, turnId, completion);
      return findTurn(manager, turnId);
    });
  }

  setRunId(turnId: string, runId: string): Promise<AppTurn | null> {
    return this.executor.run(async (manager) => {
      await manager.getRepository(TurnEntity).update({ turnId }, { runId });
      return findTurn(manager, turnId);
    });
  }

  get(turnId: string): Promise<AppTurn | null> {
    return this.executor.run((manager) => findTurn(manager, turnId));
  }

  /** All turns of the thread in creation order (docs/spec/protocol.md §3.5). */
  listByThread(threadId: string): Promise<AppTurn[]> {
    return this.executor.read((statements) => selectThreadTurns(statements, threadId));
  }

  /** Every turn still marked running, with its owner (restart recovery, §8.11). */
  listRunning(): Promise<TurnOwnership[]> {
    return this.executor.run((manager) => findRunningTurns(manager));
  }
}

/*
 * The turn writes of every turn/start and every finalization are plain statements: TypeORM's query
 * builders cost ~8 ms of a process's first turn (cold code) and ~1 ms of every later one, on the
 * path between turn/start and the first delta.
 */
const INSERT_RUNNING_TURN_SQL = `
  INSERT INTO "turns" ("turn_id", "thread_id", "run_id", "status", "started_at", "completed_at", "input_json",
    "result_json", "owner_pid", "owner_host", "owner_token", "sandbox")
  VALUES (?, ?, ?, 'running', ?, NULL, ?, '{}', ?, ?, ?, ?)`;

const COMPLETE_TURN_SQL = `UPDATE "turns" SET "status" = ?, "completed_at" = ?, "result_json" = ? WHERE "turn_id" = ?`;

export async function insertRunningTurn(manager: EntityManager, turn: NewTurn): Promise<AppTurn> {
  const row: TurnEntity = {
    turnId: turn.turnId,
    threadId: turn.threadId,
    runId: turn.runId,
    status: 'running',
    startedAt: turn.startedAt,
    completedAt: null,
    inputJson: JSON.stringify(turn.input),
    resultJson: '{}',
    ownerPid: turn.ownerPid ?? process.pid,
    ownerHost: turn.ownerHost ?? hostname(),
    ownerToken:
      turn.ownerToken !== undefined
        ? turn.ownerToken
        : turn.ownerPid === undefined
          ? ownProcessToken()
          : null,
    sandbox: turn.sandbox ?? null,
  };
  await runSql(manager, INSERT_RUNNING_TURN_SQL, [
    row.turnId,
    row.threadId,
    row.runId,
    row.startedAt,
    row.inputJson,
    row.ownerPid,
    row.ownerHost,
    row.ownerToken,
    row.sandbox,
  ]);
  return toAppTurn(row);
}

export async function completeTurn(
  manager: EntityManager,
  turnId: string,
  completion: TurnCompletion,
): Promise<void> {
  await runSql(manager, COMPLETE_TURN_SQL, [
    completion.status,
    completion.completedAt,
    JSON.stringify(completion.result),
    turnId,
  ]);
}

export async function findRunningTurns(manager: EntityManager): Promise<TurnOwnership[]> {
  const rows = await manager.getRepository(TurnEntity).find({
    where: { status: 'running' },
    select: { turnId: true, threadId: true, ownerPid: true, ownerHost: true, ownerToken: true },
  });
  return rows.map((row) => ({
    turnId: row.turnId,
    threadId: row.threadId,
    ownerPid: row.ownerPid,
    ownerHost: row.ownerHost,
    ownerToken: row.ownerToken,
  }));
}

async function selectThreadTurns(statements: RowReader, threadId: string): Promise<AppTurn[]> {
  const rows = await statements.all<TurnFields>(SELECT_THREAD_TURNS_SQL, [threadId]);
  return rows.map(toAppTurn);
}

async function findTurn(manager: EntityManager, turnId: string): Promise<AppTurn | null> {
  const row = await manager.getRepository(TurnEntity).findOneBy({ turnId });
  return row ? toAppTurn(row) : null;
}

export function toAppTurn(row: TurnFields): AppTurn {
  return {
    turnId: row.turnId,
    threadId: row.threadId,
    runId: row.runId,
    status: row.status as TurnStatus,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    input: parseJsonObjectArray(row.inputJson, 'turns.input_json'),
    result: parseJsonObject(row.resultJson, 'turns.result_json'),
    ...(isSandboxMode(row.sandbox) ? { sandbox: row.sandbox } : {}),
  };
}
