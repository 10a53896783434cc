/**
 * docs/spec/history.md §1: a compaction replaces a thread's conversation. Replaced messages stay, marked with
 * the turn whose compaction superseded them, so a fork at an earlier turn still finds the history
 * as it stood then (§2). The thread keeps the last provider-reported prompt size of its
 * conversation (RunResult.promptSize), the figure the next run's compaction estimate starts from.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ContextCompaction1780000001500 implements MigrationInterface {
  name = 'ContextCompaction1780000001500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "conversation_messages" ADD COLUMN "superseded_by_turn_id" text`);
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "prompt_tokens" integer`);
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "prompt_messages_since" integer`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "prompt_messages_since"`);
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "prompt_tokens"`);
    await runner.query(`ALTER TABLE "conversation_messages" DROP COLUMN "superseded_by_turn_id"`);
  }
}
