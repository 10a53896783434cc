/**
 * A turn owner that is a connection of another instance (docs/spec/postgres.md §2: "server requests go to
 * the owner connection, wherever it is"). Its id names the instance and that instance's
 * connection id; no local connection id has this shape (they never contain the separator).
 */
const REMOTE_PREFIX = 'remote\u0000';

export interface RemoteOwner {
  instanceId: string;
  connectionId: string;
}

export function remoteOwnerId(instanceId: string, connectionId: string): string {
  return `${REMOTE_PREFIX}${instanceId}\u0000${connectionId}`;
}

export function parseRemoteOwner(ownerId: string): RemoteOwner | null {
  if (!ownerId.startsWith(REMOTE_PREFIX)) return null;
  const rest = ownerId.slice(REMOTE_PREFIX.length);
  const at = rest.lastIndexOf('\u0000');
  return { instanceId: rest.slice(0, at), connectionId: rest.slice(at + 1) };
}
