/**
 * The one NOTIFY channel the instances on a database talk over (postgres.md §2). A dedicated pool
 * connection LISTENs and sends; sends go out one at a time in call order, so receivers see one
 * sender's messages in that order. A body over 7,000 bytes travels by reference: it is stored in
 * `cluster_payloads` and the NOTIFY carries its id; receivers read it back before handling the
 * messages behind it, keeping the order.
 */
import type { DataSource } from 'typeorm';

export const CLUSTER_CHANNEL = 'vv_app_server';
export const MAX_INLINE_PAYLOAD_BYTES = 7_000;

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
  release(error?: Error | boolean): void;
}

interface PoolLike {
  connect(): Promise<PoolClient>;
}

type Handler = (message: ClusterMessage) => void;

export class ClusterChannel {
  private sendTail: Promise<unknown> = Promise.resolve();
  private receiveTail: Promise<unknown> = Promise.resolve();
  private readonly handlers: Handler[] = [];
  private closed = false;

  private constructor(
    readonly instanceId: string,
    private readonly client: PoolClient,
    private readonly onError: (error: unknown) => void,
  ) {
    client.on('notification', (notification) => {
      if (notification.channel !== CLUSTER_CHANNEL || notification.payload === undefined) return;
      const payload = notification.payload;
      this.receiveTail = this.receiveTail.then(() => this.receive(payload)).catch(this.onError);
    });
    client.on('error', (error) => this.onError(error));
  }

  static async open(
    dataSource: DataSource,
    instanceId: string,
    onError: (error: unknown) => void,
  ): Promise<ClusterChannel> {
    const pool = (dataSource.driver as unknown as { master: PoolLike }).master;
    const client = await pool.connect();
    await client.query(`LISTEN ${CLUSTER_CHANNEL}`);
    return new ClusterChannel(instanceId, client, onError);
  }

  onMessage(handler: Handler): void {
    this.handlers.push(handler);
  }

  /** Queues `message` (without `from`) behind every earlier send. */
  send(message: Omit<ClusterMessage, 'from'>): Promise<void> {
    const body = JSON.stringify({ ...message, from: this.instanceId });
    const sent = this.sendTail.then(async () => {
      if (this.closed) return;
      if (Buffer.byteLength(body) <= MAX_INLINE_PAYLOAD_BYTES) {
        await this.client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, body]);
        return;
      }
      const { rows } = await this.client.query(
        `INSERT INTO "cluster_payloads" ("created_at", "body") VALUES ($1, $2) RETURNING "payload_id"`,
        [Date.now(), body],
      );
      const reference = JSON.stringify({ ref: String(rows[0].payload_id), from: this.instanceId });
      await this.client.query('SELECT pg_notify($1, $2)', [CLUSTER_CHANNEL, reference]);
    });
    this.sendTail = sent.catch(this.onError);
    return sent;
  }

  /** Payload bodies older than `maxAgeMs` (every receiver has long read them). */
  async prunePayloads(maxAgeMs: number): Promise<void> {
    await this.query(`DELETE FROM "cluster_payloads" WHERE "created_at" < $1`, [Date.now() - maxAgeMs]);
  }

  /** A statement on the channel's connection, behind the queued sends. */
  query(text: string, values: unknown[] = []): Promise<Array<Record<string, unknown>>> {
    const result = this.sendTail.then(async () => (await this.client.query(text, values)).rows);
    this.sendTail = result.catch(this.onError);
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sendTail;
    await this.client.query(`UNLISTEN ${CLUSTER_CHANNEL}`).catch(() => undefined);
    this.client.release();
  }

  private async receive(payload: string): Promise<void> {
    let message = JSON.parse(payload) as ClusterMessage & { ref?: string };
    if (message.from === this.instanceId) return;
    if (typeof message.ref === 'string') {
      const { rows } = await this.client.query(
        `SELECT "body" FROM "cluster_payloads" WHERE "payload_id" = $1`,
        [message.ref],
      );
      if (rows.length === 0) throw new Error(`cluster payload ${message.ref} is gone`);
      message = JSON.parse(String(rows[0].body)) as ClusterMessage;
    }
    for (const handler of this.handlers) handler(message);
  }
}
