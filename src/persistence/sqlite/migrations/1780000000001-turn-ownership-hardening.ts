/**
 * Issue 12 items 3 and 11: the one-active-turn rule (docs/spec/protocol.md §8.2) enforced by the store, so
 * two servers on one file cannot both start a turn on a thread; and an owner token next to
 * owner_pid that a reused pid does not match (NULL on rows written before it: pid only).
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the running-turn index needs: a thread with two running turns (only possible before it). */
const SETTLE_DUPLICATE_RUNNING_TURNS = `
  UPDATE "turns" SET "status" = 'interrupted', "completed_at" = "started_at",
    "result_json" = '{"error":"server restarted before the turn finished"}'
  WHERE "status" = 'running' AND rowid NOT IN (
    SELECT max(rowid) FROM "turns" WHERE "status" = 'running' GROUP BY "thread_id")`;

export class TurnOwnershipHardening1780000000001 implements MigrationInterface {
  name = 'TurnOwnershipHardening1780000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "turns" ADD COLUMN "owner_token" text`);
    await queryRunner.query(SETTLE_DUPLICATE_RUNNING_TURNS);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_turns_one_running_per_thread" ON "turns" ("thread_id") WHERE "status" = 'running'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_turns_one_running_per_thread"`);
    await queryRunner.query(`ALTER TABLE "turns" DROP COLUMN "owner_token"`);
  }
}
