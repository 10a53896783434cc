/**
 * What makes instances on one PostgreSQL database one service (docs/spec/postgres.md §2): the cluster
 * channel, the thread event relay on it, and the heartbeat that recovers lost instances' turns.
 */
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { TypeOrmAppServerStore } from '../../typeorm/app-server-store';
import { randomUUID } from 'node:crypto';
import { ClusterChannel } from './cluster-channel';
import { DEFAULT_CLUSTER_TIMINGS, InstanceHeartbeat, type ClusterTimings } from './instance-heartbeat';
import { NotifyThreadEventRelay } from './notify-thread-event-relay';
import { NotifyTurnControl } from './notify-turn-control';
import { NotifyRemoteApprovals } from './notify-remote-approvals';

/**
 * Unique per process, whatever else it shares: the process start token is not — it counts 10 ms
 * clock ticks, and an orchestrator spawns replicas within one (same boot id, same tick), which
 * made two instances one id: each dropped the other's NOTIFYs as its own and both kept one
 * heartbeat row fresh. Host and pid only make it readable; which turns are the instance's is told
 * by its row's host, pid and owner token (InstanceHeartbeat).
 */
export function newInstanceId(): string {
  return `${hostname()}:${process.pid}:${randomUUID()}`;
}

export class PostgresCluster {
  private constructor(
    readonly channel: ClusterChannel,
    readonly relay: NotifyThreadEventRelay,
    readonly heartbeat: InstanceHeartbeat,
    readonly control: NotifyTurnControl,
    readonly approvals: NotifyRemoteApprovals,
  ) {}

  static async start(
    dataSource: DataSource,
    store: TypeOrmAppServerStore,
    onError: (error: unknown) => void,
    timings: ClusterTimings = DEFAULT_CLUSTER_TIMINGS,
  ): Promise<PostgresCluster> {
    const instanceId = newInstanceId();
    const channel = await ClusterChannel.open(dataSource, instanceId, onError);
    const relay = new NotifyThreadEventRelay(channel, store);
    const heartbeat = new InstanceHeartbeat(channel, store, onError, timings);
    await heartbeat.start();
    return new PostgresCluster(
      channel,
      relay,
      heartbeat,
      new NotifyTurnControl(channel),
      new NotifyRemoteApprovals(channel),
    );
  }

  get instanceId(): string {
    return this.channel.instanceId;
  }

  async stop(): Promise<void> {
    await this.heartbeat.stop();
    await this.channel.close();
  }
}
