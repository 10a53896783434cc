/**
 * The open connections of this server, by id. Domain modules look connections up here and register
 * close listeners (unsubscribe). A closing connection never resolves anything else (docs/spec/websocket.md §6).
 */
import { Injectable } from '@nestjs/common';
import type { CloseListener, Connection } from './connection';

@Injectable()
export class ConnectionRegistry {
  private readonly connections = new Map<string, Connection>();
  private readonly closeListeners = new Set<CloseListener>();

  /** Tracks `connection` until it closes; then it is dropped and every close listener runs. */
  add(connection: Connection): void {
    this.connections.set(connection.id, connection);
    connection.onClose((closed) => {
      this.connections.delete(closed.id);
      for (const listener of [...this.closeListeners]) listener(closed);
    });
  }

  get(connectionId: string): Connection | undefined {
    return this.connections.get(connectionId);
  }

  all(): Connection[] {
    return [...this.connections.values()];
  }

  /** Runs `listener` for every connection that closes from now on; returns the unregister function. */
  onConnectionClosed(listener: CloseListener): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }
}
