/** The open ACP client connections of this server, by id (ids never collide with v1 connection ids). */
import { Inject, Injectable } from '@nestjs/common';
import { ThreadSubscriptions } from '../../../core/events/thread-subscriptions';
import { AcpSessionConnection, type AcpClientPort } from './acp-session-connection';

const ID_PREFIX = 'acp-';

@Injectable()
export class AcpConnections {
  private readonly connections = new Map<string, AcpSessionConnection>();
  private nextNumber = 1;

  constructor(@Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions) {}

  open(port: AcpClientPort): AcpSessionConnection {
    const connection = new AcpSessionConnection(`${ID_PREFIX}${this.nextNumber++}`, port);
    this.connections.set(connection.id, connection);
    return connection;
  }

  /** The connection went away: it leaves every thread, its prompts and questions settle. */
  close(connection: AcpSessionConnection): void {
    this.connections.delete(connection.id);
    this.subscriptions.dropSubscriber(connection.id);
    connection.close();
  }

  get(id: string): AcpSessionConnection | undefined {
    return this.connections.get(id);
  }

  /** True for ids this registry hands out, open or not. */
  owns(id: string): boolean {
    return id.startsWith(ID_PREFIX);
  }
}
