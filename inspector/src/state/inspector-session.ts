/**
 * The page's one controller: the connection, the thread list, the open thread, pending approvals
 * and the raw log. The UI reads `state` and calls the actions; every change notifies subscribers.
 *
 * Reconnect (docs/spec/inspector.md §2): when the socket is lost the session retries with a growing
 * delay, initializes again and calls `thread/resume` with `afterItemId` = the newest item it holds
 * (docs/spec/protocol.md §8.8), merging what comes back, and says so in `notice`. The new connection
 * becomes the turn's owner and receives every still-pending `approval/request` (websocket.md §6).
 */
import { JsonRpcSocket } from '../rpc/json-rpc-socket';
import { arrayOf, isObject, objectOf, stringOf, type JsonObject, type JsonValue } from '../rpc/json-value';
import { appendEntry, logEntry, type LogEntry } from './raw-log';
import { loadSettings, saveConnection, saveThread, wasConnected } from './session-settings';
import {
  applyNotification,
  applySnapshot,
  emptyThreadView,
  lastCreatedItemId,
  type ThreadView,
} from './thread-view';

export const CLIENT_NAME = 'vv-agent-inspector';
const THREAD_PAGE = 20;
const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

export interface PendingApproval {
  id: JsonValue;
  params: JsonObject;
}

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

export interface SessionState {
  status: ConnectionStatus;
  url: string;
  token: string;
  capabilities: JsonObject | null;
  notice: string;
  error: string;
  threads: JsonObject[];
  nextCursor: string | null;
  showArchived: boolean;
  view: ThreadView | null;
  approvals: PendingApproval[];
  log: LogEntry[];
  logPaused: boolean;
}

export class InspectorSession {
  state: SessionState;
  private socket: JsonRpcSocket | null = null;
  private readonly listeners = new Set<() => void>();
  private reconnectAttempt = 0;
  private reconnectTimer: number | undefined;

  constructor() {
    const saved = loadSettings();
    this.state = {
      status: 'disconnected',
      url: saved.url,
      token: saved.token,
      capabilities: null,
      notice: '',
      error: '',
      threads: [],
      nextCursor: null,
      showArchived: false,
      view: saved.threadId === '' ? null : emptyThreadView(saved.threadId),
      approvals: [],
      log: [],
      logPaused: false,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After a reload: connect again with what this tab had. */
  resumeAfterReload(): void {
    if (wasConnected()) void this.connect(this.state.url, this.state.token);
  }

  async connect(url: string, token: string): Promise<void> {
    // A pending automatic reconnect would open a second socket next to this one.
    window.clearTimeout(this.reconnectTimer);
    this.socket?.close();
    this.socket = null;
    this.set({ url, token, status: 'connecting', error: '', notice: '' });
    try {
      await this.open();
      saveConnection(url, token);
      this.reconnectAttempt = 0;
      await this.loadThreads(false);
      const view = this.state.view;
      if (view !== null) await this.resume(view.threadId, undefined);
    } catch (error) {
      // open() may have set it before initialize failed.
      (this.socket as JsonRpcSocket | null)?.close();
      this.socket = null;
      this.set({ status: 'disconnected', error: messageOf(error) });
    }
  }

  async loadThreads(more: boolean): Promise<void> {
    const params: JsonObject = { limit: THREAD_PAGE };
    if (this.state.showArchived) params.archived = true;
    if (more && this.state.nextCursor !== null) params.cursor = this.state.nextCursor;
    const result = objectOf(await this.call('thread/list', params));
    const page = arrayOf(result.threads).filter(isObject);
    this.set({
      threads: more ? [...this.state.threads, ...page] : page,
      nextCursor: stringOf(result.nextCursor) ?? null,
    });
  }

  async setShowArchived(showArchived: boolean): Promise<void> {
    this.set({ showArchived, nextCursor: null });
    await this.loadThreads(false);
  }

  async startThread(cwd: string, agentKey: string, metadata: JsonObject): Promise<void> {
    const params: JsonObject = { metadata };
    if (cwd.trim() !== '') params.cwd = cwd.trim();
    if (agentKey.trim() !== '') params.agentKey = agentKey.trim();
    const result = objectOf(await this.call('thread/start', params));
    const threadId = stringOf(result.threadId);
    if (threadId === undefined) return;
    await this.loadThreads(false);
    await this.openThread(threadId);
  }

  async openThread(threadId: string): Promise<void> {
    const previous = this.state.view;
    if (previous !== null && previous.threadId !== threadId)
      await this.call('thread/unsubscribe', { threadId: previous.threadId }).catch(() => undefined);
    saveThread(threadId);
    this.set({ view: emptyThreadView(threadId), approvals: [] });
    await this.resume(threadId, undefined);
  }

  async archive(threadId: string): Promise<void> {
    await this.call('thread/archive', { threadId });
    await this.loadThreads(false);
  }

  async sendTurn(text: string): Promise<void> {
    await this.turnCall('turn/start', text);
  }

  async steer(text: string): Promise<void> {
    await this.turnCall('turn/steer', text);
  }

  async followUp(text: string): Promise<void> {
    await this.turnCall('turn/followUp', text);
  }

  async interrupt(): Promise<void> {
    const view = this.state.view;
    if (view !== null) await this.call('turn/interrupt', { threadId: view.threadId });
  }

  /** The dialog's answer to an `approval/request` (docs/spec/protocol.md §4.14, §9.4). */
  answerApproval(
    approval: PendingApproval,
    decision: 'allow' | 'allow_session' | 'deny',
    reason: string,
  ): void {
    const result: JsonObject = { decision };
    if (reason.trim() !== '') result.reason = reason.trim();
    this.socket?.respond(approval.id, result);
    this.set({ approvals: this.state.approvals.filter((entry) => entry !== approval) });
  }

  /** "Send a request": any method, its response (or error) lands in the raw log. */
  async sendRaw(method: string, params: JsonValue | undefined): Promise<JsonValue> {
    return this.call(method, params);
  }

  setLogPaused(logPaused: boolean): void {
    this.set({ logPaused });
  }

  clearLog(): void {
    this.set({ log: [] });
  }

  clearError(): void {
    this.set({ error: '' });
  }

  private async turnCall(method: string, text: string): Promise<void> {
    const view = this.state.view;
    if (view === null) throw new Error('open or start a thread first');
    await this.call(method, { threadId: view.threadId, input: [{ type: 'text', text }] });
  }

  private async call(method: string, params?: JsonValue): Promise<JsonValue> {
    if (this.socket === null) throw new Error('not connected');
    try {
      return await this.socket.request(method, params);
    } catch (error) {
      this.set({ error: `${method}: ${messageOf(error)}` });
      throw error;
    }
  }

  private async open(): Promise<void> {
    const socket = await JsonRpcSocket.open(this.state.url, this.state.token, {
      onMessage: (direction, message) => this.record(direction, message),
      onNotification: (method, params) => this.onNotification(method, params),
      onServerRequest: (id, method, params) => this.onServerRequest(id, method, params),
      onClose: () => this.onLost(),
    });
    this.socket = socket;
    const result = objectOf(
      await socket.request('initialize', {
        clientInfo: { name: CLIENT_NAME, title: 'vv-agent Inspector', version: '1' },
        capabilities: {},
      }),
    );
    socket.notify('initialized');
    this.set({ status: 'connected', capabilities: objectOf(result.capabilities) });
  }

  private async resume(threadId: string, afterItemId: string | undefined): Promise<number> {
    const params: JsonObject = { threadId };
    if (afterItemId !== undefined) params.afterItemId = afterItemId;
    const result = await this.call('thread/resume', params);
    const view = this.state.view;
    if (view === null || view.threadId !== threadId) return 0;
    this.set({ view: applySnapshot(view, result) });
    return arrayOf(objectOf(result).items).length;
  }

  private onNotification(method: string, params: JsonObject): void {
    if (method === 'approval/resolved') {
      const requestId = stringOf(params.requestId);
      this.set({
        approvals: this.state.approvals.filter((entry) => stringOf(entry.params.requestId) !== requestId),
      });
    }
    // Another client archived a thread this page watches (thread/started only reaches the
    // requester, which reloads the list itself).
    if (method === 'thread/archived') void this.loadThreads(false).catch(() => undefined);
    const view = this.state.view;
    if (view === null || stringOf(params.threadId) !== view.threadId) return;
    this.set({ view: applyNotification(view, method, params) });
  }

  private onServerRequest(id: JsonValue, method: string, params: JsonObject): void {
    if (method !== 'approval/request') {
      // Nothing else is defined (docs/spec/protocol.md §4); answering keeps the server from waiting.
      this.socket?.respond(id, {});
      return;
    }
    if (this.state.approvals.some((entry) => entry.id === id)) return;
    this.set({ approvals: [...this.state.approvals, { id, params }] });
  }

  private onLost(): void {
    this.socket = null;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.reconnectAttempt, RECONNECT_DELAYS_MS.length - 1)];
    this.reconnectAttempt += 1;
    this.set({
      status: 'reconnecting',
      notice: `Connection lost; reconnecting in ${Math.round(delay / 100) / 10} s…`,
    });
    window.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = window.setTimeout(() => void this.reconnect(), delay);
  }

  private async reconnect(): Promise<void> {
    try {
      await this.open();
      this.reconnectAttempt = 0;
      // Approvals resolved while away would linger; the still-pending ones are sent again right
      // after the resume response (docs/spec/websocket.md §6.2).
      this.set({ approvals: [] });
      await this.loadThreads(false);
      const view = this.state.view;
      if (view === null) {
        this.set({ notice: 'Reconnected.' });
        return;
      }
      const after = lastCreatedItemId(view);
      const count = await this.resume(view.threadId, after);
      this.set({
        notice:
          after === undefined
            ? `Reconnected; resumed the thread (${count} items).`
            : `Reconnected; caught up with thread/resume afterItemId=${after} (${count} items new or changed).`,
      });
    } catch {
      this.onLost();
    }
  }

  private record(direction: 'in' | 'out', message: JsonObject): void {
    if (this.state.logPaused) return;
    this.set({ log: appendEntry(this.state.log, logEntry(direction, message)) });
  }

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
