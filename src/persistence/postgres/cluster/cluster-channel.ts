/**
 * The one NOTIFY channel the instances on a database talk over (docs/spec/postgres.md §2). A dedicated pool
 * connection LISTENs and sends; sends go out one at a time in call order, so receivers see one
 * sender's messages in that order. A body over 7,000 bytes travels by reference: it is stored in
 * `cluster_payloads` and the NOTIFY carries its id; receivers read it back before handling the
 * messages behind it, keeping the order.
 *
 * When that connection is lost (a database restart, a terminated backend) the channel takes a new
 * one and LISTENs again, retrying with backoff; meanwhile sends and queries fail at once. What
 * was missed is the receivers' to repair: event sequence gaps re-read the store, forwarded
 * requests time out, heartbeats resume.
 */
import type { DataSource } from 'typeorm';

export const CLUSTER_CHANNEL = 'vv_app_server';
export const MAX_INLINE_PAYLOAD_BYTES = 7_000;
/** The cluster connection's `application_name`, followed by the process id. */
export const CLUSTER_APPLICATION_NAME = 'vv-agent-app-server cluster';

export interface ClusterMessage {
  /** Sender instance id. */
  from: string;
  kind: string;
  [field: string]: unknown;
}

interface PoolClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'end', listener: () => void): void;
  release(error?: Error | boolean): void;
}

/**
 * What a send or query gets while the connection is being replaced. Not reported again: the loss
 * itself was, once.
 */
export class ClusterConnectionLost extends Error {
  constructor() {
    super('cluster connection lost; reconnecting');
    this.name = 'ClusterConnectionLost';
  }
}

/** First retry after a lost connection, doubling up to the cap. */
export const RECONNECT_FIRST_DELAY_MS = 250;
export const RECONNECT_MAX_DELAY_MS = 5_000;

interface PoolLike {
  connect(): Promise<PoolClient>;
}

type Handler = (message: ClusterMessage) => void;

export class ClusterChannel {
  private sendTail: Promise<unknown> = Promise.resolve();
  private receiveTail: Promise<unknown> = Promise.resolve();
  private readonly handlers: Handler[] = [];
  private readonly reconnectListeners: Array<() => void> = [];
  private closed = false;
  /** null while the connection is lost and a new one is being taken. */
  private client: PoolClient | null = null;
  private attachedAt = 0;
  /** Reports a failure unless it is only the connection being replaced. */
  private readonly report = (error: unknown): void => {
    if (!(error instanceof ClusterConnectionLost)) this.onError(error);
  };

  private constructor(
    readonly instanceId: string,
    private readonly pool: PoolLike,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async open(
    dataSource: DataSource,
    instanceId: string,
    onError: (error: unknown) => void,
  ): Promise<ClusterChannel> {
    const pool = (dataSource.driver as unknown as { master: PoolLike }).master;
    const channel = new ClusterChannel(instanceId, pool, onError);
    channel.attach(await channel.listeningClient());
    return channel;
  }

  private async listeningClient(): Promise<PoolClient> {
    const client = await this.pool.connect();
    try {
      // Which backend is which process's LISTEN connection, for whoever looks at pg_stat_activity.
      await client.query(`SET application_name TO '${CLUSTER_APPLICATION_NAME} ${process.pid}'`);
      await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
      return client;
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  }

  /** When the current connection was taken (ms since the epoch); 0 while there is none. */
  get connectedAt(): number {
    return this.client === null ? 0 : this.attachedAt;
  }

  private attach(client: PoolClient): void {
    this.client = client;
    this.attachedAt = Date.now();
    client.on('notification', (notification) => {
      if (client !== this.client) return;
      if (notification.channel !== CLUSTER_CHANNEL || notification.payload === undefined) return;
      const payload = notification.payload;
      this.receiveTail = this.receiveTail.then(() => this.receive(payload)).catch(this.onError);
    });
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error('cluster connection ended')));
  }

  /** Drops a broken connection (destroyed, not returned to the pool) and starts taking a new one. */
  private lose(client: PoolClient, error: Error): void {
    if (client !== this.client) return;
    this.client = null;
    client.release(error);
    if (this.closed) return;
    this.onError(error);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (
      let delay = RECONNECT_FIRST_DELAY_MS;
      !this.closed;
      delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS)
    ) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      if (this.closed) return;
      try {
        const client = await this.listeningClient();
        if (this.closed) {
          // Still LISTENing: destroyed rather than handed back to the pool.
          client.release(true);
          return;
        }
        this.attach(client);
        for (const listener of this.reconnectListeners) listener();
        return;
      } catch {
        // The database is still away: try again later (the loss itself was reported).
      }
    }
  }

  /** The live connection, or an error at once while it is being replaced. */
  private connection(): PoolClient {
    if (this.client === null) throw new ClusterConnectionLost();
    return this.client;
  }

  onMessage(handler: Handler): void {
    this.handlers.push(handler);
  }

  /** Called each time a lost connection has been replaced (LISTENing again); not for the first. */
  onReconnected(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** Queues `message` (without `from`) behind every earlier send. */
  send(message: Omit<ClusterMessage, 'from'>): Promise<void> {
    const body = JSON.stringify({ ...message, from: this.instanceId });
    const sent = this.sendTail.then(async () => {
      if (this.closed) return;
      const client = this.connection();
      if (Buffer.byteLength(body) <= MAX_INLINE_PAYLOAD_BYTES) {
        await client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, body]);
        return;
      }
      const { rows } = await client.query(
        `INSERT INTO "cluster_payloads" ("created_at", "body") VALUES ($1, $2) RETURNING "payload_id"`,
        [Date.now(), body],
      );
      const reference = JSON.stringify({ ref: String(rows[0].payload_id), from: this.instanceId });
      await client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, reference]);
    });
    this.sendTail = sent.catch(this.report);
    return sent;
  }

  /** Payload bodies older than `maxAgeMs` (every receiver has long read them). */
  async prunePayloads(maxAgeMs: number): Promise<void> {
    await this.query(`DELETE FROM "cluster_payloads" WHERE "created_at" < $1`, [Date.now() - maxAgeMs]);
  }

  /** A statement on the channel's connection, behind the queued sends. */
  query(text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    const result = this.sendTail.then(async () => (await this.connection().query(text, values)).rows);
    this.sendTail = result.catch(this.report);
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sendTail.catch(() => undefined);
    const client = this.client;
    if (client === null) return;
    this.client = null;
    await client.query(`UNLISTEN ${CLUSTER_CHANNEL}`).catch(() => undefined);
    client.release(true);
  }

  private async receive(payload: string): Promise<void> {
    let message = JSON.parse(payload) as ClusterMessage & { ref?: string };
    if (message.from === this.instanceId) return;
    if (typeof message.ref === 'string') {
      const { rows } = await this.connection().query(
        `SELECT "body" FROM "cluster_payloads" WHERE "payload_id" = $1`,
        [message.ref],
      );
      if (rows.length === 0) throw new Error(`cluster payload ${message.ref} is gone`);
      message = JSON.parse(String(rows[0].body)) as ClusterMessage;
    }
    for (const handler of this.handlers) handler(message);
  }
}
