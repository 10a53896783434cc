/**
 * What makes instances on one PostgreSQL database one service (docs/spec/postgres.md §2): the cluster
 * channel, the thread event relay on it, and the heartbeat that recovers lost instances' turns.
 */
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { TypeOrmAppServerStore } from '../../typeorm/app-server-store';
import { ownProcessToken } from '../../../runtime/process-identity';
import { ClusterChannel } from './cluster-channel';
import { InstanceHeartbeat } from './instance-heartbeat';
import { NotifyThreadEventRelay } from './notify-thread-event-relay';
import { NotifyTurnControl } from './notify-turn-control';
import { NotifyRemoteApprovals } from './notify-remote-approvals';

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
  ): Promise<PostgresCluster> {
    // The owner token of this process's turns, so a survivor finds them (null only without procfs).
    const instanceId = ownProcessToken() ?? `${hostname()}:${process.pid}`;
    const channel = await ClusterChannel.open(dataSource, instanceId, onError);
    const relay = new NotifyThreadEventRelay(channel, store);
    const heartbeat = new InstanceHeartbeat(channel, store, onError);
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
