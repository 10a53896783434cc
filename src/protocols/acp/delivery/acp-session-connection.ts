/**
 * One ACP client connection as the core's delivery sees it: the sessions (threads) it shows, the
 * `session/update`s of their events written in thread order, the `session/load` hold, the
 * `session/prompt`s waiting for their turn to end, and the permission requests it was asked.
 * The SDK connection stays behind `AcpClientPort`, so this file loads nothing of it.
 */
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import { Logger } from '@nestjs/common';
import type { OwnerAnswer } from '../../../core/approvals/approval-channel';
import type { ThreadEventDetail, ThreadEventKind } from '../../../core/events/thread-event-bus';
import type { ApprovalRequestParams, TurnCompletedParams } from '../../../core/model/types';
import { causeMessage } from '../../../runtime/cause-message';
import { SessionUpdates } from '../session-updates';
import { permissionAnswer, permissionRequest } from '../permission-request';

/** What delivery needs of the SDK's agent-side connection. */
export interface AcpClientPort {
  sessionUpdate(sessionId: string, update: SessionUpdate): Promise<void>;
  requestPermission(
    params: RequestPermissionRequest,
    cancellation: AbortSignal,
  ): Promise<RequestPermissionResponse>;
}

/**
 * docs/spec/protocol.md §1.8 for `vv-agent acp`, a stdio server (docs/spec/acp.md §1): once this many
 * messages produced for the client are not yet written — the editor stopped reading stdout — turn
 * forwarding waits (the runtime's events wait in its compact journal) instead of this connection
 * queueing every `session/update` of the turn. The v1 stdio outbound queue's capacity.
 */
export const ACP_PAUSE_AT = 1024;
/** …and goes on once the connection is down to this many (so it does not wake for every message). */
export const ACP_RESUME_AT = 256;

const NOW: Promise<void> = Promise.resolve();

interface PendingPrompt {
  turnId: string;
  resolve(completion: TurnCompletedParams): void;
  reject(error: Error): void;
}

interface HeldThread {
  /** Events and sends that arrived while `session/load` replays, in order. */
  readonly backlog: Array<() => void>;
}

export class AcpSessionConnection {
  private readonly sessions = new Map<string, SessionUpdates>();
  private readonly held = new Map<string, HeldThread>();
  private readonly prompts = new Map<string, PendingPrompt>();
  private readonly permissions = new Map<
    string,
    { abort: AbortController; settle(answer: OwnerAnswer): void }
  >();
  /** Every write to the client, chained so they leave in the order they were produced. */
  private written: Promise<void> = Promise.resolve();
  /** Writes in the chain that have not settled yet (what a stalled client makes us hold). */
  private unwritten = 0;
  /** Settles once `unwritten` is down to ACP_RESUME_AT; shared by every turn that waits. */
  private drained: { promise: Promise<void>; resolve: () => void } | null = null;
  private closed = false;
  private readonly logger = new Logger('AcpConnection');

  constructor(
    readonly id: string,
    private readonly port: AcpClientPort,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** A fresh view of the session (session/new, session/load); replaces an earlier one. */
  openSession(threadId: string, cwd: string | null): SessionUpdates {
    const view = new SessionUpdates(cwd);
    this.sessions.set(threadId, view);
    return view;
  }

  hasSession(threadId: string): boolean {
    return this.sessions.has(threadId);
  }

  /** Sends updates of the session, after everything already produced. */
  send(threadId: string, updates: readonly SessionUpdate[]): void {
    for (const update of updates) this.write(() => this.port.sessionUpdate(threadId, update));
  }

  /** Settles once everything produced so far was handed to the client's stream. */
  flushed(): Promise<void> {
    return this.written;
  }

  /** Messages produced for the client and not yet written. */
  get backlog(): number {
    return this.unwritten;
  }

  /**
   * At once unless ACP_PAUSE_AT messages wait to be written; then once the client has read them down
   * to ACP_RESUME_AT, or the connection closed.
   */
  caughtUp(): Promise<void> {
    if (this.closed || this.unwritten < ACP_PAUSE_AT) return NOW;
    if (this.drained === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((settle) => (resolve = settle));
      this.drained = { promise, resolve };
    }
    return this.drained.promise;
  }

  /** A thread event: its updates now, or after the hold; a `turnCompleted` ends the waiting prompt. */
  deliver(threadId: string, kind: ThreadEventKind, params: object, detail?: ThreadEventDetail): void {
    this.inThreadOrder(threadId, () => {
      const view = this.sessions.get(threadId) ?? this.openSession(threadId, null);
      this.send(threadId, view.live(kind, params, detail));
      if (kind === 'turnCompleted') this.completeTurn(threadId, params as TurnCompletedParams);
    });
  }

  hold(threadId: string): void {
    if (!this.held.has(threadId)) this.held.set(threadId, { backlog: [] });
  }

  release(threadId: string): void {
    const held = this.held.get(threadId);
    this.held.delete(threadId);
    for (const run of held?.backlog ?? []) run();
  }

  discardHold(threadId: string): void {
    this.held.delete(threadId);
  }

  inThreadOrder(threadId: string, run: () => void): void {
    const held = this.held.get(threadId);
    if (held === undefined) run();
    else held.backlog.push(run);
  }

  /** Registered before the turn begins, so its `turn/completed` cannot be missed. */
  awaitTurn(threadId: string, turnId: string): Promise<TurnCompletedParams> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => this.prompts.set(threadId, { turnId, resolve, reject }));
  }

  hasActivePrompt(threadId: string): boolean {
    return this.prompts.has(threadId);
  }

  /** docs/spec/acp.md §4: asks through `session/request_permission`, after the updates already produced. */
  askPermission(params: ApprovalRequestParams): Promise<OwnerAnswer> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    return new Promise((resolve) => {
      const abort = new AbortController();
      let settled = false;
      const settle = (answer: OwnerAnswer): void => {
        if (settled) return;
        settled = true;
        this.permissions.delete(params.requestId);
        resolve(answer);
      };
      this.permissions.set(params.requestId, { abort, settle });
      this.write(async () => {
        if (settled) return;
        const request = this.port.requestPermission(permissionRequest(params), abort.signal);
        void request.then(
          (response) => settle(permissionAnswer(response)),
          () => settle(this.closed ? { kind: 'closed' } : permissionAnswer(null)),
        );
      });
    });
  }

  withdrawPermission(requestId: string): void {
    const pending = this.permissions.get(requestId);
    if (pending === undefined) return;
    pending.settle({ kind: 'withdrawn' });
    pending.abort.abort();
  }

  /** The client went away: waiting prompts fail, open questions settle as `closed`. */
  close(): void {
    this.closed = true;
    this.wakeWaiters();
    for (const prompt of this.prompts.values()) prompt.reject(new Error('connection closed'));
    this.prompts.clear();
    for (const pending of [...this.permissions.values()]) pending.settle({ kind: 'closed' });
  }

  private completeTurn(threadId: string, completion: TurnCompletedParams): void {
    const prompt = this.prompts.get(threadId);
    if (prompt === undefined || prompt.turnId !== completion.turnId) return;
    this.prompts.delete(threadId);
    // The prompt answers after every update of its turn has been written.
    void this.written.then(() => prompt.resolve(completion));
  }

  /** A write that fails (the SDK refused the message, or the client is gone) is logged, never thrown. */
  private write(send: () => Promise<void>): void {
    this.unwritten += 1;
    this.written = this.written
      .then(send)
      .catch((error: unknown) => {
        if (!this.closed) this.logger.warn(`message to the ACP client not sent: ${causeMessage(error)}`);
      })
      .then(() => {
        this.unwritten -= 1;
        if (this.unwritten <= ACP_RESUME_AT) this.wakeWaiters();
      });
  }

  private wakeWaiters(): void {
    const drained = this.drained;
    this.drained = null;
    drained?.resolve();
  }
}
