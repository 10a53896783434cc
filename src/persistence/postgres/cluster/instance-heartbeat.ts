/**
 * docs/spec/postgres.md §2 instance loss: each instance keeps a row in `instances` fresh every 2 s; an
 * instance whose row is older than 15 s is lost. The survivor that deletes the row (one DELETE
 * wins) recovers the lost instance's running turns and reports them to its listeners.
 */
import { hostname } from 'node:os';
import type { RecoveredTurn } from '../../typeorm/restart-recovery';
import type { TypeOrmAppServerStore } from '../../typeorm/app-server-store';
import type { InstanceLease } from '../../../core/lifecycle/instance-lease';
import { ownProcessToken } from '../../../runtime/process-identity';
import { ClusterConnectionLost, type ClusterChannel } from './cluster-channel';

export const HEARTBEAT_INTERVAL_MS = 2_000;
export const INSTANCE_LOST_AFTER_MS = 15_000;
export const INSTANCE_LOST_ERROR = 'server instance lost';
/**
 * How long after its last confirmed heartbeat this instance acts for its turns without checking
 * again (InstanceLease): well under the 15 s after which others may declare it lost.
 */
export const LEASE_MS = 10_000;

/** The heartbeat's periods; docs/spec/postgres.md §2's by default. */
export interface ClusterTimings {
  heartbeatIntervalMs: number;
  lostAfterMs: number;
  leaseMs: number;
}

export const DEFAULT_CLUSTER_TIMINGS: ClusterTimings = {
  heartbeatIntervalMs: HEARTBEAT_INTERVAL_MS,
  lostAfterMs: INSTANCE_LOST_AFTER_MS,
  leaseMs: LEASE_MS,
};

/** The test hook's variable: a heartbeat interval in ms (see clusterTimingsFromEnv). */
export const TEST_HEARTBEAT_VARIABLE = 'VV_AGENT_TEST_HEARTBEAT_MS';

/**
 * Test hook: `VV_AGENT_TEST_HEARTBEAT_MS=N` beats every N ms and keeps the spec's proportions
 * (2 s / 15 s / 10 s: lost after 7.5 N, lease 5 N), so a suite can lose an instance many times
 * in a row in seconds. Absent or not a positive integer: the spec's periods.
 */
export function clusterTimingsFromEnv(env: NodeJS.ProcessEnv): ClusterTimings {
  const value = env[TEST_HEARTBEAT_VARIABLE];
  const interval = value !== undefined && /^[1-9]\d*$/.test(value) ? Number(value) : null;
  if (interval === null) return DEFAULT_CLUSTER_TIMINGS;
  return { heartbeatIntervalMs: interval, lostAfterMs: interval * 7.5, leaseMs: interval * 5 };
}

/** Large cluster payloads are read within moments; a minute is ample. */
const PAYLOAD_RETENTION_MS = 60_000;

export class InstanceHeartbeat implements InstanceLease {
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private readonly listeners: Array<(turns: RecoveredTurn[]) => void> = [];
  private readonly lostListeners: Array<() => Promise<void> | void> = [];
  /** Beats that still tell the lost listeners after this instance found its row gone. */
  private lostChecksLeft = 0;
  /** When the last beat that found this instance's row (or wrote it) started. */
  private confirmedAt = 0;
  /** Callers of check() waiting for the next beat. */
  private checking: Array<() => void> = [];

  constructor(
    private readonly channel: ClusterChannel,
    private readonly store: TypeOrmAppServerStore,
    private readonly onError: (error: unknown) => void,
    private readonly timings: ClusterTimings = DEFAULT_CLUSTER_TIMINGS,
  ) {}

  get instanceId(): string {
    return this.channel.instanceId;
  }

  /** Writes this instance's row, then beats every 2 s. */
  async start(): Promise<void> {
    const now = Date.now();
    await this.register(now);
    this.confirmedAt = now;
    this.timer = setInterval(() => {
      this.beating = this.beating
        .then(() => this.beat())
        .catch((error: unknown) => {
          // A beat while the channel reconnects fails quietly: the loss was reported once.
          if (!(error instanceof ClusterConnectionLost)) this.onError(error);
        });
    }, this.timings.heartbeatIntervalMs);
    this.timer.unref();
  }

  onTurnsRecovered(listener: (turns: RecoveredTurn[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Called when a beat finds this instance's row gone — another instance declared it lost (it was
   * silent over 15 s) and recovers its running turns, which must now stop here — and once more at
   * the next beat: the survivor deletes the row first and recovers the turns in a transaction of
   * its own right after, which this beat may have come between.
   */
  onDeclaredLost(listener: () => Promise<void> | void): void {
    this.lostListeners.push(listener);
  }

  /**
   * InstanceLease: after LEASE_MS without a confirmed beat (this process was paused, or the
   * database unreachable) another instance may have declared this one lost; callers wait for the
   * next beat, which stops the turns it recovered first. After a beat that found the row gone they
   * wait for the check at the following beat as well.
   */
  check(): Promise<void> | null {
    if (this.timer === undefined) return null;
    if (Date.now() - this.confirmedAt < this.timings.leaseMs && this.lostChecksLeft === 0) return null;
    return new Promise((resolve) => this.checking.push(resolve));
  }

  /** The row also names this process as its turns do (owner host, pid and token), for a survivor. */
  private async register(now: number): Promise<void> {
    await this.channel.query(
      `INSERT INTO "instances" ("instance_id", "host", "pid", "owner_token", "started_at", "heartbeat_at")
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT ("instance_id") DO UPDATE SET "heartbeat_at" = EXCLUDED."heartbeat_at"`,
      [this.instanceId, hostname(), process.pid, ownProcessToken(), now],
    );
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.releaseChecks();
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
      await this.register(now);
      this.lostChecksLeft = 2;
    }
    if (this.lostChecksLeft > 0) {
      // A listener that failed (the store unreachable) has stopped nothing: checked again next beat.
      await Promise.all(this.lostListeners.map((listener) => listener()));
      this.lostChecksLeft -= 1;
    }
    this.confirmedAt = now;
    // Held until the last check after a loss: the survivor recovers the turns just after deleting
    // the row. And a beat sent before a pause answers only after it: it confirms nothing about now.
    if (this.lostChecksLeft === 0 && Date.now() - now < this.timings.leaseMs) this.releaseChecks();
    // Right after this instance (re)connected, the others may still be reconnecting themselves (a
    // database restart): silence is only counted once this instance has watched for the full period.
    if (now - this.channel.connectedAt >= this.timings.lostAfterMs) await this.recoverLostInstances(now);
    await this.channel.prunePayloads(PAYLOAD_RETENTION_MS);
  }

  private releaseChecks(): void {
    for (const resolve of this.checking.splice(0)) resolve();
  }

  /** Deletes the rows of instances silent for 15 s (one DELETE wins) and recovers their turns. */
  private async recoverLostInstances(now: number): Promise<void> {
    const lost = await this.channel.query(
      `DELETE FROM "instances" WHERE "heartbeat_at" < $1 AND "instance_id" <> $2
       RETURNING "host", "pid", "owner_token"`,
      [now - this.timings.lostAfterMs, this.instanceId],
    );
    for (const row of lost) {
      const owner = {
        ownerHost: String(row.host),
        ownerPid: Number(row.pid),
        ownerToken: typeof row.owner_token === 'string' ? row.owner_token : null,
      };
      const turns = await this.store.recoverTurnsOwnedBy(owner, INSTANCE_LOST_ERROR, Date.now());
      if (turns.length > 0) for (const listener of this.listeners) listener(turns);
    }
  }
}
