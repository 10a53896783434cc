/**
 * Restart recovery (docs/spec/protocol.md §8.11): runs when the store opens, before stdin is read. A running
 * turn is recovered when its owner is on this host and its process is gone (or is this process);
 * turns owned by live processes, or by other hosts, are left alone. A live pid whose start token
 * differs from the stored owner token is a reused pid: its turn is recovered too. No notifications are emitted
 * and no conversation messages are appended (the run's messages were lost).
 */
import { hostname } from 'node:os';
import type { EntityManager } from 'typeorm';
import { runSql } from './sql-dialect';
import { findTurnVersions, maxChangeSeq, upsertItem } from './item.repository';
import { processStartToken } from '../../runtime/process-identity';
import type { StoreExecutor } from './store-executor';
import type { TurnOwnership } from '../../core/store/records';
import { completeTurn, findRunningTurns } from './turn.repository';

export const RESTART_RECOVERY_ERROR = 'server restarted before the turn finished';

/** Only the recovered turn is released; a thread never points at another running turn. */
const RELEASE_THREAD_SQL = `
  UPDATE "threads" SET
    "updated_at" = ?,
    "active_turn_id" = CASE WHEN "active_turn_id" = ? THEN NULL ELSE "active_turn_id" END
  WHERE "thread_id" = ?`;

export interface RecoveryEnvironment {
  hostname: string;
  pid: number;
  isProcessAlive: (pid: number) => boolean;
  /** processStartToken of a live pid; null when unknown. */
  processToken: (pid: number) => string | null;
  now: () => number;
}

export interface RecoveredTurn {
  turnId: string;
  threadId: string;
  /** Items that were inProgress and are now interrupted, in order of first appearance. */
  interruptedItemIds: string[];
}

/** `process.kill(pid, 0)`: ESRCH means no such process; EPERM means it exists under another user. */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export function currentRecoveryEnvironment(): RecoveryEnvironment {
  return {
    hostname: hostname(),
    pid: process.pid,
    isProcessAlive,
    processToken: processStartToken,
    now: () => Date.now(),
  };
}

export function isRecoverable(turn: TurnOwnership, env: RecoveryEnvironment): boolean {
  if (turn.ownerHost !== env.hostname) return false;
  if (turn.ownerPid === env.pid || !env.isProcessAlive(turn.ownerPid)) return true;
  // The pid is alive: it is the owner only if it is the same process (a legacy row cannot tell).
  if (turn.ownerToken === null) return false;
  const current = env.processToken(turn.ownerPid);
  return current !== null && current !== turn.ownerToken;
}

export function recoverInterruptedTurns(
  executor: StoreExecutor,
  env: RecoveryEnvironment = currentRecoveryEnvironment(),
): Promise<RecoveredTurn[]> {
  return executor.transaction(async (manager) => {
    const recovered: RecoveredTurn[] = [];
    for (const turn of await findRunningTurns(manager)) {
      if (isRecoverable(turn, env)) recovered.push(await recoverTurn(manager, turn, env.now()));
    }
    return recovered;
  });
}

/**
 * One running turn recovered: turn interrupted with `result: {error}`, its inProgress items
 * interrupted, its thread released. Restart recovery and lost-instance recovery share it.
 */
export async function recoverTurn(
  manager: EntityManager,
  turn: Pick<TurnOwnership, 'turnId' | 'threadId'>,
  now: number,
  error = RESTART_RECOVERY_ERROR,
): Promise<RecoveredTurn> {
  await completeTurn(manager, turn.turnId, {
    status: 'interrupted',
    completedAt: now,
    result: { error },
  });
  // Each interrupted item is a change: it takes the thread's next counter value (§8.8).
  let changeSeq = await maxChangeSeq(manager, turn.threadId);
  const interruptedItemIds: string[] = [];
  for (const version of await findTurnVersions(manager, turn.turnId)) {
    if (version.item.status !== 'inProgress') continue;
    changeSeq += 1;
    await upsertItem(manager, {
      item: { ...version.item, status: 'interrupted', updatedAt: now },
      createdSeq: version.createdSeq,
      changeSeq,
    });
    interruptedItemIds.push(version.item.itemId);
  }
  await runSql(manager, RELEASE_THREAD_SQL, [now, turn.turnId, turn.threadId]);
  return { turnId: turn.turnId, threadId: turn.threadId, interruptedItemIds };
}
