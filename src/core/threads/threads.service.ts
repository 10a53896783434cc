/**
 * Thread lifecycle (docs/spec/protocol.md §3.3–§3.8): create, snapshot (read/resume with the running turn's
 * in-memory items), list with reported statuses, archive, unsubscribe. Store failures propagate and
 * answer -32603 with the cause's message; notifications are sent by the v1 handlers after the response.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { SandboxMode } from '../../runtime/sandbox/sandbox-mode';
import {
  checkRequestedMode,
  effectiveMode,
  SERVER_SANDBOX,
  type ServerSandbox,
} from '../sandbox/server-sandbox';
import { newItemId, newThreadId, newTurnId } from '../ids';
import { THREAD_STORE, type ThreadStore } from '../store/thread-store';
import { completeReplay } from '../store/item-replay';
import { toAppThread, type StoredThread } from '../store/records';
import { maskMcpServers } from '../model/mcp-secret-mask';
import { DomainError, DomainErrors } from '../domain-error';
import type {
  AppThread,
  ThreadForkSummary,
  ThreadPage,
  ThreadSnapshot,
  ThreadStatus,
  ThreadSummary,
  ThreadUnsubscription,
} from '../model/types';
import { ActiveTurns } from '../turns/active-turns';
import { TurnOwnership } from '../turns/turn-ownership';
import type {
  ThreadForkRequest,
  ThreadListRequest,
  ThreadReadRequest,
  ThreadResumeRequest,
  ThreadStartRequest,
} from './thread-requests';
import { THREAD_EVENT_BUS, type ThreadEventBus, type ThreadEventKind } from '../events/thread-event-bus';
import { reportedThreadStatus } from './thread-status';
import { plannedToolArguments } from './planned-tool-arguments';
import { ThreadSubscriptions } from '../events/thread-subscriptions';
import { REMOTE_THREAD_JOIN, type RemoteThreadJoin } from '../events/remote-thread-join';
import type { RelayMark } from '../events/thread-event-relay';
import {
  TURN_CONTROL_FORWARDER,
  type ForwardedReply,
  type TurnControlForwarder,
} from '../turns/turn-control-forwarding';
import { remoteOwnerId } from '../approvals/remote-owner';
import type { ItemVersion } from '../store/records';

export const DEFAULT_AGENT_KEY = 'default';

function sandboxMember(mode: SandboxMode | undefined): { sandbox?: SandboxMode } {
  return mode === undefined ? {} : { sandbox: mode };
}

const LIVE_STATE_OPERATION = 'readLiveState';

/** A running turn's live items as its instance answers `readLiveState`. */
interface LiveState {
  items: ItemVersion[];
  mark: RelayMark;
}

export interface ItemWindow {
  afterItemId?: string;
  limit?: number;
}

/** An event a thread change announces to its subscribers (and its requester): §3.7, docs/spec/history.md §3. */
export interface ThreadNotice {
  kind: Extract<ThreadEventKind, 'threadArchived' | 'threadStatusChanged' | 'threadUpdated'>;
  params: object;
}

/** A resume answer plus the step that ends the requester's hold right after the response. */
export interface ResumeOutcome {
  response: ThreadSnapshot;
  afterResponse: (() => Promise<void>) | null;
}

@Injectable()
export class ThreadsService {
  constructor(
    @Inject(THREAD_STORE) private readonly store: ThreadStore,
    @Inject(ThreadSubscriptions) private readonly subscriptions: ThreadSubscriptions,
    @Inject(THREAD_EVENT_BUS) private readonly events: ThreadEventBus,
    @Inject(ActiveTurns) private readonly activeTurns: ActiveTurns,
    @Inject(TurnOwnership) private readonly ownership: TurnOwnership,
    @Inject(TURN_CONTROL_FORWARDER) private readonly remote: TurnControlForwarder | null,
    @Inject(REMOTE_THREAD_JOIN) private readonly join: RemoteThreadJoin | null,
    @Optional() @Inject(SERVER_SANDBOX) private readonly sandbox: ServerSandbox | null = null,
  ) {
    remote?.answerWith((operation, params, origin) =>
      operation === LIVE_STATE_OPERATION ? this.answerLiveState(params, origin) : undefined,
    );
  }

  /** Creates the thread and subscribes the requester (§3.3). */
  async start(params: ThreadStartRequest, requesterId: string): Promise<ThreadSummary> {
    checkRequestedMode(this.sandbox, params.sandbox);
    const thread = await this.store.threads.create({
      threadId: newThreadId(),
      agentKey: params.agentKey ?? DEFAULT_AGENT_KEY,
      cwd: params.cwd ?? null,
      metadata: params.metadata ?? {},
      now: Date.now(),
      ...(params.mcpServers !== undefined ? { mcpServers: params.mcpServers } : {}),
      ...sandboxMember(effectiveMode(this.sandbox, params.sandbox)),
    });
    return this.subscribeRequester(thread, requesterId);
  }

  /**
   * §3.4: clears the closed flag; with `subscribe` the requester is subscribed and held BEFORE the
   * snapshot is taken, so every notification produced after the snapshot reaches it after the response.
   * A subscribing resume also takes over a live turn that has no owner (docs/spec/websocket.md §6.2): its
   * pending approval questions follow the held notifications, right after the response.
   */
  async resume(params: ThreadResumeRequest, requesterId: string): Promise<ResumeOutcome> {
    const { threadId } = await this.requireThread(params.threadId);
    this.subscriptions.clearClosed(threadId);
    const window = { afterItemId: params.afterItemId };
    if (params.subscribe === false)
      return { response: await this.snapshot(threadId, window), afterResponse: null };

    const remote = await this.resumeRemote(threadId, window, requesterId);
    if (remote !== null) return remote;

    this.events.hold(threadId, requesterId);
    // The running turn's items as of the hold, in the same tick: every later change of them is in
    // what the hold keeps, so the answer's text ends exactly where the held deltas begin
    // (docs/spec/websocket.md §5: no gap, no duplicate). The store is read after, and may be newer.
    const heldLive = this.liveVersions(threadId);
    const newlySubscribed = this.subscriptions.subscribe(threadId, requesterId);
    try {
      const response = await this.snapshot(threadId, window, heldLive);
      this.ownership.claimIfUnowned(threadId, requesterId);
      return { response, afterResponse: () => this.events.release(threadId, requesterId) };
    } catch (error) {
      if (newlySubscribed) {
        this.subscriptions.unsubscribe(threadId, requesterId);
        this.events.discardHold(threadId, requesterId);
      } else {
        void this.events.release(threadId, requesterId);
      }
      throw error;
    }
  }

  /**
   * docs/spec/postgres.md §2 resume across instances: the thread's turn runs on another instance of the
   * store. The stored rows are read first (older than what follows), then the owner's live items
   * overlay them; the owner says up to which of its events they go, and the requester is
   * subscribed and held exactly there, so the owner's later events follow gapless and without
   * duplicates. Null when the turn is not elsewhere (the local path applies).
   */
  private async resumeRemote(
    threadId: string,
    window: ItemWindow,
    requesterId: string,
  ): Promise<ResumeOutcome | null> {
    if (this.remote === null || this.join === null || this.activeTurns.live(threadId) !== undefined)
      return null;
    const stored = await this.store.readThread(threadId, window);
    if (stored === null) throw DomainErrors.threadNotFound();
    if (stored.thread.activeTurnId == null) return null;
    const seam = this.join.openSeam(threadId, requesterId, () => {
      this.events.hold(threadId, requesterId);
      this.subscriptions.subscribe(threadId, requesterId);
    });
    const answer = await this.remote.forward(LIVE_STATE_OPERATION, { threadId, requesterId });
    if ('error' in answer) {
      seam.cancel();
      // The owner finished meanwhile (nobody runs it now): the stored snapshot is the live one.
      const now = await this.store.threads.get(threadId);
      if (now !== null && now.activeTurnId !== stored.thread.activeTurnId) return null;
      throw new DomainError(answer.error.kind, answer.error.message, answer.error.data);
    }
    const live = answer.result as LiveState;
    seam.at(live.mark);
    const status = reportedThreadStatus({
      closed: false,
      archived: stored.thread.archivedAt !== null,
      running: true,
    });
    return {
      response: {
        thread: toAppThread(stored.thread, status),
        turns: stored.turns,
        items: completeReplay(stored.items, live.items, window),
      },
      afterResponse: () =>
        new Promise<void>((resolve) =>
          this.join?.afterJoin(threadId, requesterId, () => {
            void this.events.release(threadId, requesterId).then(resolve);
          }),
        ),
    };
  }

  /**
   * Another instance resumes a thread whose turn runs here: the live items and how far this
   * instance's events of the thread go; then, as a resume here would, its requester takes the turn
   * over when the turn has no reachable owner (docs/spec/websocket.md §6) — after the answer, so its
   * approval questions follow the snapshot.
   */
  private answerLiveState(params: Record<string, unknown>, origin: string): ForwardedReply | undefined {
    const threadId = params.threadId;
    if (typeof threadId !== 'string' || this.join === null) return undefined;
    const turn = this.activeTurns.live(threadId);
    if (turn === undefined) return undefined;
    const state: LiveState = { items: turn.projector.liveItems(), mark: this.join.markOf(threadId) };
    // A read (or a resume without subscribe) takes nothing over.
    if (params.requesterId === undefined) return { result: state };
    const requester = remoteOwnerId(origin, String(params.requesterId));
    return { result: state, afterAnswer: () => void this.ownership.claimIfUnowned(threadId, requester) };
  }

  /** §3.5: does not subscribe. */
  read(params: ThreadReadRequest): Promise<ThreadSnapshot> {
    return this.snapshot(params.threadId, { afterItemId: params.afterItemId, limit: params.limit });
  }

  /** §3.6; a cursor this store did not hand out rejects with the store's InvalidCursor DomainError. */
  async list(params: ThreadListRequest): Promise<ThreadPage> {
    const page = await this.store.threads.list({
      archived: params.archived,
      includeArchived: params.includeArchived,
      limit: params.limit,
      cursor: params.cursor,
    });
    return { threads: page.threads.map((thread) => this.toWire(thread)), nextCursor: page.nextCursor };
  }

  /**
   * §3.7: sets archivedAt = updatedAt = now and clears the closed flag; subscriptions and turns
   * untouched. Returns the notices for the subscribers and the requester (announce).
   */
  async archive(threadId: string): Promise<ThreadNotice[]> {
    const archived = await this.store.threads.archive(threadId, Date.now());
    if (archived === null) throw DomainErrors.threadNotFound();
    this.subscriptions.clearClosed(threadId);
    return [
      { kind: 'threadArchived', params: { threadId, archived: true } },
      { kind: 'threadStatusChanged', params: { threadId, status: 'archived' } },
    ];
  }

  /**
   * Sends a change's notices to every subscriber of the thread, whichever instance of the store
   * (docs/spec/postgres.md §2) and protocol serves it; the caller adds the requester if it is not one.
   */
  async announce(threadId: string, notices: readonly ThreadNotice[]): Promise<void> {
    for (const { kind, params } of notices) await this.events.broadcast(threadId, kind, params);
  }

  /** docs/spec/history.md §2: the copy is never archived; the requester is subscribed to it. */
  async fork(params: ThreadForkRequest, requesterId: string): Promise<ThreadForkSummary> {
    const outcome = await this.store.forkThread({
      sourceThreadId: params.threadId,
      turnId: params.turnId,
      newThreadId: newThreadId(),
      metadata: params.metadata,
      now: Date.now(),
      newTurnId,
      newItemId,
    });
    if (outcome.kind === 'threadNotFound') throw DomainErrors.threadNotFound();
    if (outcome.kind === 'turnNotFound') throw DomainErrors.forkTurnNotFound();
    if (outcome.kind === 'noFinishedTurn') throw DomainErrors.forkNoFinishedTurn();
    const { thread } = outcome;
    return { ...this.subscribeRequester(thread, requesterId), forkedFrom: outcome.origin };
  }

  /** A new thread (started or forked) is the requester's: subscribed, answered with its start shape. */
  private subscribeRequester(thread: StoredThread, requesterId: string): ThreadSummary {
    this.subscriptions.subscribe(thread.threadId, requesterId);
    return {
      threadId: thread.threadId,
      agentKey: thread.agentKey,
      cwd: thread.cwd,
      status: this.statusOf(thread),
      ...(thread.mcpServers === null ? {} : { mcpServers: maskMcpServers(thread.mcpServers) }),
    };
  }

  /**
   * docs/spec/history.md §3; archived threads can be updated too. The thread as this server reports it (the
   * response), and the `threadUpdated` notice for the subscribers: it carries the status without
   * this server's closed flag, which is in memory per server (§8.1), and a subscriber's own server
   * never reports its thread closed (subscribing clears the flag).
   */
  async updateMetadata(
    threadId: string,
    patch: Record<string, unknown>,
  ): Promise<{ thread: AppThread; notices: ThreadNotice[] }> {
    const updated = await this.store.threads.patchMetadata(threadId, patch, Date.now());
    if (updated === null) throw DomainErrors.threadNotFound();
    const forSubscribers = toAppThread(updated, this.statusOf(updated, false));
    return {
      thread: this.toWire(updated),
      notices: [{ kind: 'threadUpdated', params: { thread: forSubscribers } }],
    };
  }

  /**
   * §3.8: closed when no subscriber remains and no turn is active (or starting / finishing) — here,
   * or on another instance of the store, whose turn the stored thread names (docs/spec/postgres.md §2).
   */
  async unsubscribe(threadId: string, requesterId: string): Promise<ThreadUnsubscription> {
    const thread = await this.requireThread(threadId);
    this.subscriptions.unsubscribe(threadId, requesterId);
    const closed =
      !this.subscriptions.hasSubscribers(threadId) &&
      !this.activeTurns.isBusy(threadId) &&
      thread.activeTurnId == null;
    if (closed) this.subscriptions.markClosed(threadId);
    return { threadId, subscribed: false, closed };
  }

  /** The thread's reported status now (§8.1); `withClosedFlag` false leaves this server's closed flag out. */
  statusOf(
    thread: Pick<StoredThread, 'threadId' | 'archivedAt' | 'activeTurnId'>,
    withClosedFlag = true,
  ): ThreadStatus {
    return reportedThreadStatus({
      closed: withClosedFlag && this.subscriptions.isClosed(thread.threadId),
      archived: thread.archivedAt !== null,
      // Running here, or on another instance (or process) of the store: the thread answers
      // a turn start with -32602 either way, and its stored turn says running (§8.1, docs/spec/postgres.md §2).
      running: this.activeTurns.isRunning(thread.threadId) || thread.activeTurnId != null,
    });
  }

  /**
   * The arguments the model sent for these tool calls, from the thread's stored conversation: for
   * protocols that show calls which never ran with their arguments (docs/spec/acp.md §3). Calls of a running
   * turn or compacted out of the history are not found.
   */
  async plannedToolArguments(
    threadId: string,
    toolCallIds: ReadonlySet<string>,
  ): Promise<Map<string, Record<string, unknown>>> {
    if (toolCallIds.size === 0) return new Map();
    return plannedToolArguments(await this.store.conversations.load(threadId), toolCallIds);
  }

  private async requireThread(threadId: string): Promise<StoredThread> {
    const thread = await this.store.threads.get(threadId);
    if (thread === null) throw DomainErrors.threadNotFound();
    return thread;
  }

  /**
   * The thread, all turns, and the items of §8.8 in their latest state: stored rows (one store
   * read) overlaid with the live turn's in-memory versions, taken last so the snapshot is as recent
   * as possible. With `heldLive` (a resume: the live items as of its hold) those win over stored
   * versions of the same items even when a stored one is newer, because the newer state reaches
   * the resumer through the hold. An unknown thread is `Thread not found`.
   */
  private async snapshot(
    threadId: string,
    window: ItemWindow,
    heldLive?: readonly ItemVersion[],
  ): Promise<ThreadSnapshot> {
    let stored = await this.store.readThread(threadId, window);
    if (stored === null) throw DomainErrors.threadNotFound();
    let live = heldLive ?? (await this.currentLiveVersions(threadId, stored.thread.activeTurnId));
    if (live === null) {
      // The owner did not answer: its turn may have ended meanwhile, so the store is read again.
      stored = await this.store.readThread(threadId, window);
      if (stored === null) throw DomainErrors.threadNotFound();
      live = [];
    }
    const held = heldLive === undefined ? null : new Set(heldLive.map((version) => version.item.itemId));
    const storedItems =
      held === null
        ? stored.items
        : {
            ...stored.items,
            versions: stored.items.versions.filter((version) => !held.has(version.item.itemId)),
          };
    const items = completeReplay(storedItems, live, window);
    return { thread: this.toWire(stored.thread), turns: stored.turns, items };
  }

  private liveVersions(threadId: string): ItemVersion[] {
    return this.activeTurns.live(threadId)?.projector.liveItems() ?? [];
  }

  /**
   * The running turn's in-memory items (docs/spec/protocol.md §8.5: a read returns an in-progress item's
   * latest state), asked of the instance that runs it when that is another one (docs/spec/postgres.md §2).
   * null when it does not answer.
   */
  private async currentLiveVersions(
    threadId: string,
    activeTurnId: string | null,
  ): Promise<ItemVersion[] | null> {
    const local = this.activeTurns.live(threadId);
    if (local !== undefined) return local.projector.liveItems();
    if (activeTurnId === null || this.remote === null) return [];
    const answer = await this.remote.forward(LIVE_STATE_OPERATION, { threadId }).catch(() => null);
    return answer !== null && 'result' in answer ? (answer.result as LiveState).items : null;
  }

  private toWire(thread: StoredThread): AppThread {
    return toAppThread(thread, this.statusOf(thread));
  }
}
