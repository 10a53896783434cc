/** Temp dirs and seed data shared by the persistence specs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppItem } from '../../../src/core/model/types';
import type { TypeOrmAppServerStore, ItemVersion, NewTurn } from '../../../src/persistence/sqlite';

export interface TempDir {
  path: string;
  file(name: string): string;
  remove(): void;
}

export function makeTempDir(): TempDir {
  const path = mkdtempSync(join(tmpdir(), 'vv-store-'));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

export function agentMessage(
  itemId: string,
  threadId: string,
  turnId: string,
  text: string,
  status: AppItem['status'] = 'completed',
  at = 1_000,
): AppItem {
  return {
    itemId,
    threadId,
    turnId,
    type: 'agentMessage',
    status,
    payload: { text },
    createdAt: at,
    updatedAt: at,
  };
}

export function version(item: AppItem, createdSeq: number, changeSeq = createdSeq): ItemVersion {
  return { item, createdSeq, changeSeq };
}

/**
 * Creates the turns in order, completing a thread's previous turn before its next one starts: the
 * store holds at most one running turn per thread (docs/spec/protocol.md §8.2), so only a thread's last
 * seeded turn stays running.
 */
export async function seedTurns(store: TypeOrmAppServerStore, turns: readonly NewTurn[]): Promise<void> {
  const running = new Map<string, string>();
  for (const turn of turns) {
    const previous = running.get(turn.threadId);
    if (previous !== undefined) {
      await store.turns.complete(previous, { status: 'completed', completedAt: turn.startedAt, result: {} });
    }
    await store.turns.createRunning(turn);
    running.set(turn.threadId, turn.turnId);
  }
}

/** A foreign-key violation as either driver words it. */
export const FOREIGN_KEY_VIOLATION = /FOREIGN KEY constraint failed|violates foreign key constraint/;
