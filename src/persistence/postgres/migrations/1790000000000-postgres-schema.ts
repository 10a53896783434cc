/**
 * The PostgreSQL schema (its own migration history, docs/spec/postgres.md §1): the tables of protocol.md
 * §8.11 in their current SQLite shape. Timestamps are epoch milliseconds (bigint). `rowid` (an
 * identity column) plays SQLite's rowid: it orders turns and items written in the same
 * millisecond, so the shared SQL reads the same on both drivers.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP: readonly string[] = [
  `CREATE TABLE "threads" (
    "thread_id" text PRIMARY KEY NOT NULL,
    "agent_key" text NOT NULL,
    "cwd" text,
    "metadata_json" text NOT NULL,
    "created_at" bigint NOT NULL,
    "updated_at" bigint NOT NULL,
    "archived_at" bigint,
    "active_turn_id" text,
    "forked_from_thread_id" text,
    "forked_from_turn_id" text,
    "prompt_tokens" integer,
    "prompt_messages_since" integer,
    "mcp_servers_json" text
  )`,
  `CREATE INDEX "idx_threads_list_order" ON "threads" ("updated_at" DESC, "thread_id" DESC)`,
  `CREATE TABLE "turns" (
    "turn_id" text PRIMARY KEY NOT NULL,
    "rowid" bigint GENERATED ALWAYS AS IDENTITY,
    "thread_id" text NOT NULL,
    "run_id" text,
    "status" text NOT NULL,
    "started_at" bigint NOT NULL,
    "completed_at" bigint,
    "input_json" text NOT NULL,
    "result_json" text NOT NULL,
    "owner_pid" integer NOT NULL,
    "owner_host" text NOT NULL,
    "owner_token" text,
    CONSTRAINT "fk_turns_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE
  )`,
  `CREATE INDEX "idx_turns_thread_started" ON "turns" ("thread_id", "started_at", "rowid")`,
  `CREATE INDEX "idx_turns_status" ON "turns" ("status")`,
  // docs/spec/protocol.md §8.2 across every instance on the database (docs/spec/postgres.md §2).
  `CREATE UNIQUE INDEX "idx_turns_one_running_per_thread" ON "turns" ("thread_id") WHERE "status" = 'running'`,
  `CREATE TABLE "items" (
    "item_id" text PRIMARY KEY NOT NULL,
    "rowid" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    "thread_id" text NOT NULL,
    "turn_id" text NOT NULL,
    "position" integer NOT NULL,
    "created_seq" integer NOT NULL,
    "change_seq" integer NOT NULL,
    "item_json" text NOT NULL,
    CONSTRAINT "fk_items_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE,
    CONSTRAINT "fk_items_turn" FOREIGN KEY ("turn_id") REFERENCES "turns" ("turn_id") ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX "idx_items_thread_position" ON "items" ("thread_id", "position")`,
  `CREATE INDEX "idx_items_thread_created" ON "items" ("thread_id", "created_seq", "position")`,
  `CREATE INDEX "idx_items_turn" ON "items" ("turn_id")`,
  `CREATE TABLE "conversation_messages" (
    "thread_id" text NOT NULL,
    "seq" integer NOT NULL,
    "turn_id" text NOT NULL,
    "message_json" text NOT NULL,
    "superseded_by_turn_id" text,
    PRIMARY KEY ("thread_id", "seq"),
    CONSTRAINT "fk_conversation_messages_thread" FOREIGN KEY ("thread_id") REFERENCES "threads" ("thread_id") ON DELETE CASCADE,
    CONSTRAINT "fk_conversation_messages_turn" FOREIGN KEY ("turn_id") REFERENCES "turns" ("turn_id") ON DELETE CASCADE
  )`,
];

export class PostgresSchema1790000000000 implements MigrationInterface {
  name = 'PostgresSchema1790000000000';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of UP) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['conversation_messages', 'items', 'turns', 'threads']) {
      await runner.query(`DROP TABLE "${table}"`);
    }
  }
}
