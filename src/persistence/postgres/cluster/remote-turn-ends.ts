/**
 * The turns other instances run that this instance's subscribers saw start and not yet end
 * (docs/spec/postgres.md §2 live fan-out). A lost NOTIFY is normally noticed at the sender's next event (a
 * skipped sequence number); a turn's last notifications have no next event. So after a NOTIFY
 * connection was replaced — this instance's own, or the sender's, which says so once it is back —
 * the open turns' final item states and, for those that ended meanwhile, their ends are read back
 * from the store and delivered as the sender sent them: `thread/status/changed(idle)` (unless
 * archived, and only if no turn runs on the thread now) and `turn/completed` with the stored
 * result. If the sender's own copies still arrive after that, they are dropped, so a subscriber
 * gets each once and nothing of a turn after its turn/completed. The other way round, a turn whose start
 * was lost (it began while a connection was being replaced) is announced from the store when the
 * gap shows, before its items: `thread/status/changed(running)` (unless archived) and
 * `turn/started`, and the sender's late copies of those two are dropped.
 */
import type { AppItem } from '../../../core/model/types';
import type { RelayedThreadEvent } from '../../../core/events/thread-event-relay';
import type { StoredThreadSnapshot } from '../../../core/store/records';
import type { ThreadStore } from '../../../core/store/thread-store';
import { emptyProtocolTokenUsage } from '../../../runtime/usage/usage-ledger';

/**
 * The stored state of each item of the turns `includes` accepts, as the item/started (in
 * progress) or item/completed notification that carries it; clients upsert by itemId.
 */
export function storedItemStates(
  snapshot: StoredThreadSnapshot,
  includes: (turnId: string) => boolean,
): RelayedThreadEvent[] {
  const { threadId } = snapshot.thread;
  return snapshot.items.versions
    .map((version): AppItem => version.item)
    .filter((item) => includes(item.turnId))
    .map((item) => ({
      threadId,
      kind: item.status === 'inProgress' ? 'itemStarted' : 'itemCompleted',
      params: item,
    }));
}

/**
 * How long after a restore a sender's copy of what it restored can still arrive: only NOTIFYs
 * already in flight when the store was read, so milliseconds; past this the marks are let go
 * (the events lost with a connection never arrive, and a stale mark would drop a later one).
 */
const LATE_COPY_WINDOW_MS = 2_000;

/** Whether a watch for late copies, set at `at`, is over (read only when one is set). */
function lapsed(mark: { at: number }): boolean {
  return Date.now() - mark.at > LATE_COPY_WINDOW_MS;
}

export class RemoteTurnEnds {
  /** threadId → turnId → the instance running it. */
  private readonly open = new Map<string, Map<string, string>>();
  /** threadId → turnId → its instance, for turns whose end was delivered from the store. */
  private readonly restored = new Map<string, Map<string, string>>();
  /**
   * threadId → a turn whose end was delivered from the store, and its instance: that instance's
   * `thread/status/changed(idle)` for it, if it still comes, is a late copy (or, when a later turn
   * runs, would show the thread idle beside it). It comes before anything of a later turn.
   */
  private readonly idleRestored = new Map<string, { origin: string; turnId: string; at: number }>();
  /**
   * threadId → the turn whose start was delivered from the store. A running status or its
   * turn/started still arriving (from whichever instance runs it) is a late copy; they come before
   * anything else of that turn.
   */
  private readonly startRestored = new Map<string, { turnId: string; at: number }>();
  /** Whether this instance holds the thread's turn slot (its own turn: never announced from the store). */
  private isLocalTurn: (threadId: string) => boolean = () => false;

  constructor(private readonly store: ThreadStore) {}

  setLocalTurns(isLocalTurn: (threadId: string) => boolean): void {
    this.isLocalTurn = isLocalTurn;
  }

  /**
   * Notes an event received from `origin`, in delivery order; false when it repeats what was
   * delivered from the store (a restored turn's start or end, its idle, or any later event of a
   * turn whose end was restored).
   */
  observe(origin: string, event: RelayedThreadEvent): boolean {
    const { threadId } = event;
    const params = event.params as { turnId?: unknown; status?: unknown };
    const turnId = typeof params.turnId === 'string' ? params.turnId : undefined;
    const status = event.kind === 'threadStatusChanged' ? params.status : undefined;
    const idle = this.idleRestored.get(threadId);
    if (idle !== undefined && lapsed(idle)) this.idleRestored.delete(threadId);
    else if (idle?.origin === origin) {
      if (status === 'idle') {
        this.idleRestored.delete(threadId);
        return false;
      }
      if (turnId !== undefined && turnId !== idle.turnId) this.idleRestored.delete(threadId);
    }
    const start = this.startRestored.get(threadId);
    if (start !== undefined && lapsed(start)) this.startRestored.delete(threadId);
    else if (start !== undefined) {
      if (status === 'running') return false;
      if (event.kind === 'turnStarted' || turnId === start.turnId) this.startRestored.delete(threadId);
      if (event.kind === 'turnStarted' && turnId === start.turnId) return false;
    }
    if (turnId === undefined) return true;
    const restored = this.restored.get(threadId);
    if (restored?.has(turnId) === true) {
      if (event.kind === 'turnCompleted') this.forget(this.restored, threadId, turnId);
      return false;
    }
    if (event.kind === 'turnStarted') {
      // One sender's events come in order: a restored end it had not sent before this start
      // never comes.
      for (const [restoredId, from] of restored ?? [])
        if (from === origin) this.forget(this.restored, threadId, restoredId);
      const turns = this.open.get(threadId) ?? new Map<string, string>();
      turns.set(turnId, origin);
      this.open.set(threadId, turns);
    } else if (event.kind === 'turnCompleted') {
      this.forget(this.open, threadId, turnId);
    }
    return true;
  }

  /**
   * Notes an event this instance produced: a turn it starts on the thread means no other runs there
   * (one active turn per thread), and a turn end it announces (a recovered instance's turn) is one
   * the subscribers here have had.
   */
  observeOwn(event: RelayedThreadEvent): void {
    const { threadId } = event;
    const { turnId } = event.params as { turnId?: unknown };
    if (event.kind === 'turnStarted') {
      this.open.delete(threadId);
      this.restored.delete(threadId);
      this.idleRestored.delete(threadId);
      this.startRestored.delete(threadId);
    } else if (event.kind === 'turnCompleted' && typeof turnId === 'string') {
      this.forget(this.open, threadId, turnId);
    }
  }

  /**
   * The start of the thread's running turn when no subscriber here can have seen it: run by another
   * instance (`origin`, whose skipped sequence number showed the loss) and never seen starting.
   */
  restoreStart(snapshot: StoredThreadSnapshot, origin: string): RelayedThreadEvent[] {
    const { threadId } = snapshot.thread;
    const turnId = snapshot.turns.find((turn) => turn.status === 'running')?.turnId;
    if (turnId === undefined || this.isLocalTurn(threadId)) return [];
    if (this.open.get(threadId)?.has(turnId) === true) return [];
    const turns = this.open.get(threadId) ?? new Map<string, string>();
    turns.set(turnId, origin);
    this.open.set(threadId, turns);
    this.startRestored.set(threadId, { turnId, at: Date.now() });
    return [
      ...(snapshot.thread.archivedAt === null
        ? [{ threadId, kind: 'threadStatusChanged' as const, params: { threadId, status: 'running' } }]
        : []),
      { threadId, kind: 'turnStarted', params: { threadId, turnId } },
    ];
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
    if (!this.open.has(threadId)) return [];
    const snapshot = await this.store.readThread(threadId);
    if (snapshot === null) {
      this.open.delete(threadId);
      return [];
    }
    return this.restoreFrom(snapshot);
  }

  /** As `restore`, from a snapshot already read. */
  restoreFrom(snapshot: StoredThreadSnapshot): RelayedThreadEvent[] {
    const { threadId } = snapshot.thread;
    const open = this.open.get(threadId);
    if (open === undefined) return [];
    const events: RelayedThreadEvent[] = [];
    for (const [turnId, origin] of [...open]) {
      const turn = snapshot.turns.find((candidate) => candidate.turnId === turnId);
      if (turn === undefined) {
        this.forget(this.open, threadId, turnId);
        continue;
      }
      events.push(...storedItemStates(snapshot, (itemTurnId) => itemTurnId === turnId));
      if (turn.status === 'running') continue;
      // Idle unless a turn runs on the thread now (its status is its own). Either way the sender's
      // own idle for this turn, if it still comes, is not delivered: it would repeat this one, or
      // show the thread idle beside the running turn.
      if (snapshot.thread.archivedAt === null) {
        if (!snapshot.turns.some((candidate) => candidate.status === 'running'))
          events.push({ threadId, kind: 'threadStatusChanged', params: { threadId, status: 'idle' } });
        this.idleRestored.set(threadId, { origin, turnId, at: Date.now() });
      }
      if (this.startRestored.get(threadId)?.turnId === turnId) this.startRestored.delete(threadId);
      // The stored `result` is the params without these four members (turn-completion.ts).
      const params = {
        threadId,
        turnId,
        runId: turn.runId ?? '',
        status: turn.status,
        ...turn.result,
        tokenUsage: turn.result.tokenUsage ?? emptyProtocolTokenUsage(),
      };
      events.push({ threadId, kind: 'turnCompleted', params });
      this.forget(this.open, threadId, turnId);
      const restored = this.restored.get(threadId) ?? new Map<string, string>();
      restored.set(turnId, origin);
      this.restored.set(threadId, restored);
    }
    return events;
  }

  private forget(turnsByThread: Map<string, Map<string, string>>, threadId: string, turnId: string): void {
    const turns = turnsByThread.get(threadId);
    turns?.delete(turnId);
    if (turns?.size === 0) turnsByThread.delete(threadId);
  }
}
