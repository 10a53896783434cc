/**
 * One in-process client connection to an `AppServerCore` (docs/spec/protocol.md §13 in-memory transport): lines
 * go in through `core.receiveLine`, outbound lines arrive on a sink and are parsed. Used by the
 * embedding e2e suite; mirrors the stdio session helper (`request`, `collectUntil`, `drain`).
 */
import { assertValidServerMessage } from './schema-validation';

export type JsonMessage = Record<string, unknown>;

/** The parts of AppServerCore / Connection this driver uses (structural, so src and dist both fit). */
export interface CoreLike<C> {
  connect(sink: { write(line: string): boolean; onDrain(callback: () => void): void }): C;
  receiveLine(connection: C, line: string): void;
  disconnect(connection: C): void;
}

export class InProcessConnection<C> {
  readonly received: JsonMessage[] = [];
  private readonly unread: JsonMessage[] = [];
  private waiters: Array<() => void> = [];
  private nextId = 1;
  private readonly methodsById = new Map<string, string>();
  readonly connection: C;

  constructor(private readonly core: CoreLike<C>) {
    this.connection = core.connect({
      write: (line: string) => {
        const message = JSON.parse(line) as JsonMessage;
        this.received.push(message);
        this.unread.push(message);
        for (const wake of this.waiters.splice(0)) wake();
        return true;
      },
      onDrain: (callback: () => void) => callback(),
    });
  }

  send(message: unknown): void {
    const envelope = message as Record<string, unknown>;
    if (typeof envelope.method === 'string' && 'id' in envelope) {
      this.methodsById.set(JSON.stringify(envelope.id), envelope.method);
    }
    this.core.receiveLine(this.connection, JSON.stringify(message));
  }

  /** Messages received that do not match the committed schemas (responses against their method). */
  transcriptProblems(): string[] {
    const problems: string[] = [];
    for (const message of this.received) {
      const method = 'method' in message ? undefined : this.methodsById.get(JSON.stringify(message.id));
      try {
        assertValidServerMessage(message, method);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return problems;
  }

  async request(method: string, params?: unknown): Promise<JsonMessage> {
    const id = this.nextId++;
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && !('method' in m));
  }

  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const answer = await this.request(method, params);
    if ('error' in answer) throw new Error(`${method} failed: ${JSON.stringify(answer.error)}`);
    return answer.result as T;
  }

  async initialize(): Promise<Record<string, unknown>> {
    const result = await this.call('initialize', { clientInfo: { name: 'embedded-e2e' } });
    this.send({ jsonrpc: '2.0', method: 'initialized' });
    return result;
  }

  /** Removes and returns the first unread message matching `predicate`. */
  async waitFor(predicate: (m: JsonMessage) => boolean, timeoutMs = 15_000): Promise<JsonMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex(predicate);
      if (index !== -1) return this.unread.splice(index, 1)[0];
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; unread: ${JSON.stringify(this.unread)}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** Reads unread messages in order until one matches; returns all of them, the match last. */
  async collectUntil(predicate: (m: JsonMessage) => boolean, timeoutMs = 15_000): Promise<JsonMessage[]> {
    const collected: JsonMessage[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.waitFor(() => true, Math.max(1, deadline - Date.now()));
      collected.push(message);
      if (predicate(message)) return collected;
    }
  }

  /** Everything that arrives before the response to a `model/list` marker request. */
  async drain(): Promise<JsonMessage[]> {
    const id = `marker-${this.nextId++}`;
    this.send({ jsonrpc: '2.0', id, method: 'model/list' });
    const messages = await this.collectUntil((m) => m.id === id && !('method' in m));
    return messages.slice(0, -1);
  }

  disconnect(): void {
    this.core.disconnect(this.connection);
  }
}
