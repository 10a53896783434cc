/**
 * docs/spec/postgres.md §2: instance heartbeats (a row per running instance, refreshed every 2 s) and the
 * bodies of cluster messages too large for a NOTIFY payload, read by reference.
 */
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Instances1790000000100 implements MigrationInterface {
  name = 'Instances1790000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE "instances" (
      "instance_id" text PRIMARY KEY NOT NULL,
      "host" text NOT NULL,
      "pid" integer NOT NULL,
      "started_at" bigint NOT NULL,
      "heartbeat_at" bigint NOT NULL
    )`);
    await runner.query(`CREATE TABLE "cluster_payloads" (
      "payload_id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      "created_at" bigint NOT NULL,
      "body" text NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "cluster_payloads"`);
    await runner.query(`DROP TABLE "instances"`);
  }
}
