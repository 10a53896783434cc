/**
 * postgres.md §2 instance loss: each instance keeps a row in `instances` fresh every 2 s; an
 * instance whose row is older than 15 s is lost. The survivor that deletes the row (one DELETE
 * wins) recovers the lost instance's running turns and reports them to its listeners.
 */
import { hostname } from 'node:os';
import type { RecoveredTurn } from '../../typeorm/restart-recovery';
import type { TypeOrmAppServerStore } from '../../typeorm/app-server-store';
import type { ClusterChannel } from './cluster-channel';

export const HEARTBEAT_INTERVAL_MS = 2_000;
export const INSTANCE_LOST_AFTER_MS = 15_000;
export const INSTANCE_LOST_ERROR = 'server instance lost';
/** Large cluster payloads are read within moments; a minute is ample. */
const PAYLOAD_RETENTION_MS = 60_000;

export class InstanceHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private readonly listeners: Array<(turns: RecoveredTurn[]) => void> = [];
  private readonly lostListeners: Array<() => void> = [];
  /** Times this instance found its row gone (declared lost by another, then registered again). */
  declaredLost = 0;

  constructor(
    private readonly channel: ClusterChannel,
    private readonly store: TypeOrmAppServerStore,
    private readonly onError: (error: unknown) => void,
  ) {}

  get instanceId(): string {
    return this.channel.instanceId;
  }

  /** Writes this instance's row, then beats every 2 s. */
  async start(): Promise<void> {
    await this.register(Date.now());
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat()).catch(this.onError);
    }, HEARTBEAT_INTERVAL_MS);
    this.timer.unref();
  }

  onTurnsRecovered(listener: (turns: RecoveredTurn[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Called when a beat finds this instance's row gone: another instance declared it lost (it was
   * silent over 15 s) and recovered its running turns, which must now stop here.
   */
  onDeclaredLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  private async register(now: number): Promise<void> {
    await this.channel.query(
      `INSERT INTO "instances" ("instance_id", "host", "pid", "started_at", "heartbeat_at") VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT ("instance_id") DO UPDATE SET "heartbeat_at" = EXCLUDED."heartbeat_at"`,
      [this.instanceId, hostname(), process.pid, now],
    );
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.channel
      .query(`DELETE FROM "instances" WHERE "instance_id" = $1`, [this.instanceId])
      .catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    const beaten = await this.channel.query(
      `UPDATE "instances" SET "heartbeat_at" = $1 WHERE "instance_id" = $2 RETURNING "instance_id"`,
      [now, this.instanceId],
    );
    if (beaten.length === 0) {
      this.declaredLost += 1;
      await this.register(now);
      for (const listener of this.lostListeners) listener();
    }
    const lost = await this.channel.query(
      `DELETE FROM "instances" WHERE "heartbeat_at" < $1 AND "instance_id" <> $2 RETURNING "instance_id"`,
      [now - INSTANCE_LOST_AFTER_MS, this.instanceId],
    );
    for (const row of lost) {
      const turns = await this.store.recoverTurnsOwnedBy(
        String(row.instance_id),
        INSTANCE_LOST_ERROR,
        Date.now(),
      );
      if (turns.length > 0) for (const listener of this.listeners) listener(turns);
    }
    await this.channel.prunePayloads(PAYLOAD_RETENTION_MS);
  }
}
