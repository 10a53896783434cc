/** docs/spec/sandbox.md §1: the effective sandbox mode of each thread and turn (null on older rows). */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SandboxModes1790000000700 implements MigrationInterface {
  name = 'SandboxModes1790000000700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "threads" ADD COLUMN "sandbox" text`);
    await runner.query(`ALTER TABLE "turns" ADD COLUMN "sandbox" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "turns" DROP COLUMN "sandbox"`);
    await runner.query(`ALTER TABLE "threads" DROP COLUMN "sandbox"`);
  }
}
