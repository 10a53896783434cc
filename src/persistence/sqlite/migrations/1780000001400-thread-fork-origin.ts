/** docs/spec/history.md §2: a forked thread remembers its source thread and turn (`AppThread.forkedFrom`). */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ThreadForkOrigin1780000001400 implements MigrationInterface {
  name = 'ThreadForkOrigin1780000001400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "forked_from_thread_id" text`);
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "forked_from_turn_id" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "forked_from_turn_id"`);
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "forked_from_thread_id"`);
  }
}
