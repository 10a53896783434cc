/** The four tables of docs/spec/protocol.md §8.11 and the indexes their queries use. */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP: readonly string[] = [
  `CREATE TABLE "threads" (
    "thread_id" text PRIMARY KEY NOT NULL,
    "agent_key" text NOT NULL,
    "cwd" text,
    "metadata_json" text NOT NULL,
    "created_at" integer NOT NULL,
    "updated_at" integer NOT NULL,
    "archived_at" integer,
    "active_turn_id" text
  )`,
  // thread/list order: updatedAt DESC, threadId DESC (§3.6).
  `CREATE INDEX "idx_threads_list_order" ON "threads" ("updated_at" DESC, "thread_id" DESC)`,
  `CREATE TABLE "turns" (
    "turn_id" text PRIMARY KEY NOT NULL,
    "thread_id" text NOT NULL,
    "run_id" text,
    "status" text NOT NULL,
    "started_at" integer NOT NULL,
    "completed_at" integer,
    "input_json" text NOT NULL,
    "result_json" text NOT NULL,
    "owner_pid" integer NOT NULL,
    "owner_host" text NOT NULL,
    CONSTRAINT "fk_turns_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE
  )`,
  // A thread's turns in creation order (§3.5), and running turns for restart recovery (§8.11).
  `CREATE INDEX "idx_turns_thread_started" ON "turns" ("thread_id", "started_at")`,
  `CREATE INDEX "idx_turns_status" ON "turns" ("status")`,
  `CREATE TABLE "items" (
    "item_id" text PRIMARY KEY NOT NULL,
    "thread_id" text NOT NULL,
    "turn_id" text NOT NULL,
    "position" integer NOT NULL,
    "created_seq" integer NOT NULL,
    "change_seq" integer NOT NULL,
    "item_json" text NOT NULL,
    CONSTRAINT "fk_items_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE,
    CONSTRAINT "fk_items_turn" FOREIGN KEY ("turn_id") REFERENCES "turns" ("turn_id") ON DELETE CASCADE
  )`,
  // Items of a thread in first-appearance order (§8.8); items of a turn for recovery.
  `CREATE UNIQUE INDEX "idx_items_thread_position" ON "items" ("thread_id", "position")`,
  `CREATE INDEX "idx_items_turn" ON "items" ("turn_id")`,
  `CREATE TABLE "conversation_messages" (
    "thread_id" text NOT NULL,
    "seq" integer NOT NULL,
    "turn_id" text NOT NULL,
    "message_json" text NOT NULL,
    PRIMARY KEY ("thread_id", "seq"),
    CONSTRAINT "fk_conversation_messages_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE,
    CONSTRAINT "fk_conversation_messages_turn" FOREIGN KEY ("turn_id") REFERENCES "turns" ("turn_id") ON DELETE CASCADE
  )`,
];

const DOWN: readonly string[] = [
  `DROP TABLE "conversation_messages"`,
  `DROP INDEX "idx_items_turn"`,
  `DROP INDEX "idx_items_thread_position"`,
  `DROP TABLE "items"`,
  `DROP INDEX "idx_turns_status"`,
  `DROP INDEX "idx_turns_thread_started"`,
  `DROP TABLE "turns"`,
  `DROP INDEX "idx_threads_list_order"`,
  `DROP TABLE "threads"`,
];

export class InitialSchema1780000000000 implements MigrationInterface {
  name = 'InitialSchema1780000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) await queryRunner.query(statement);
  }
}
