/**
 * The turns other instances run that this instance's subscribers saw start and not yet end
 * (postgres.md §2 live fan-out). A lost NOTIFY is normally noticed at the sender's next event (a
 * skipped sequence number); a turn's last notifications have no next event. So after a NOTIFY
 * connection was replaced — this instance's own, or the sender's, which says so once it is back —
 * the open turns' final item states and, for those that ended meanwhile, their ends are read back
 * from the store and delivered as the sender sent them: `thread/status/changed(idle)` (unless
 * archived) and `turn/completed` with the stored result. If the sender's own end still arrives
 * after that, it is dropped, so a subscriber gets each once.
 */
import type { AppItem } from '../../../core/model/types';
import type { RelayedThreadEvent } from '../../../core/events/thread-event-relay';
import type { ThreadStore } from '../../../core/store/thread-store';
import { emptyProtocolTokenUsage } from '../../../runtime/usage/usage-ledger';

export class RemoteTurnEnds {
  /** threadId → turnId → the instance running it. */
  private readonly open = new Map<string, Map<string, string>>();
  /** threadId → turns whose end was delivered from the store. */
  private readonly restored = new Map<string, Set<string>>();
  /** Threads whose restored end's `thread/status/changed(idle)` may still come from the sender. */
  private readonly idleMayFollow = new Set<string>();

  constructor(private readonly store: ThreadStore) {}

  /** Notes a received event; false when it repeats an end already delivered from the store. */
  observe(origin: string, event: RelayedThreadEvent): boolean {
    const { threadId } = event;
    const params = event.params as { turnId?: unknown; status?: unknown };
    if (
      event.name === 'thread/status/changed' &&
      params.status === 'idle' &&
      this.idleMayFollow.has(threadId)
    ) {
      this.idleMayFollow.delete(threadId);
      return false;
    }
    // Item states may come late too (upserts, delivered); a turn's start or end settles the idle.
    if (event.name === 'turn/started' || event.name === 'turn/completed') this.idleMayFollow.delete(threadId);
    if (typeof params.turnId !== 'string') return true;
    if (event.name === 'turn/started') {
      // The sender's events come in order: an end it had not sent before this start never comes.
      this.restored.delete(threadId);
      const turns = this.open.get(threadId) ?? new Map<string, string>();
      turns.set(params.turnId, origin);
      this.open.set(threadId, turns);
    } else if (event.name === 'turn/completed') {
      if (this.restored.get(threadId)?.delete(params.turnId) === true) return false;
      this.close(threadId, params.turnId);
    }
    return true;
  }

  /** The thread's turns seen starting and not yet ending. */
  openTurnIds(threadId: string): string[] {
    return [...(this.open.get(threadId)?.keys() ?? [])];
  }

  /** Threads with a turn open, run by `origin` (by any instance when undefined). */
  threadsWithOpenTurns(origin?: string): string[] {
    const threads: string[] = [];
    for (const [threadId, turns] of this.open)
      if (origin === undefined || [...turns.values()].includes(origin)) threads.push(threadId);
    return threads;
  }

  /** The events that bring a subscriber up to the store's state of the thread's open turns. */
  async restore(threadId: string): Promise<RelayedThreadEvent[]> {
    const turnIds = this.openTurnIds(threadId);
    if (turnIds.length === 0) return [];
    const snapshot = await this.store.readThread(threadId);
    if (snapshot === null) return [];
    const events: RelayedThreadEvent[] = [];
    for (const turnId of turnIds) {
      for (const version of snapshot.items.versions) {
        const item: AppItem = version.item;
        if (item.turnId !== turnId) continue;
        const name = item.status === 'inProgress' ? 'item/started' : 'item/completed';
        events.push({ threadId, name, params: item });
      }
      const turn = snapshot.turns.find((candidate) => candidate.turnId === turnId);
      if (turn === undefined || turn.status === 'running') continue;
      if (snapshot.thread.archivedAt === null) {
        events.push({ threadId, name: 'thread/status/changed', params: { threadId, status: 'idle' } });
        this.idleMayFollow.add(threadId);
      }
      // The stored `result` is the params without these four members (turn-completion.ts).
      const params = {
        threadId,
        turnId,
        runId: turn.runId ?? '',
        status: turn.status,
        ...turn.result,
        tokenUsage: turn.result.tokenUsage ?? emptyProtocolTokenUsage(),
      };
      events.push({ threadId, name: 'turn/completed', params });
      this.close(threadId, turnId);
      const restored = this.restored.get(threadId) ?? new Set<string>();
      restored.add(turnId);
      this.restored.set(threadId, restored);
    }
    return events;
  }

  private close(threadId: string, turnId: string): void {
    const turns = this.open.get(threadId);
    turns?.delete(turnId);
    if (turns?.size === 0) this.open.delete(threadId);
  }
}
