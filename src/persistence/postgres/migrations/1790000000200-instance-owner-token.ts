/**
 * docs/spec/postgres.md §2 instance loss: an instance row names the process whose turns a survivor
 * recovers — host, pid and the process start token its turns carry as `owner_token`. The instance
 * id itself is unique per process and no longer doubles as that token: two processes spawned in
 * the same clock tick share a start token (issue 45 item 2).
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InstanceOwnerToken1790000000200 implements MigrationInterface {
  name = 'InstanceOwnerToken1790000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "instances" ADD COLUMN "owner_token" text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "instances" DROP COLUMN "owner_token"`);
  }
}
