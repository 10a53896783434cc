/**
 * RunEvent → item / notification projection of one turn (docs/spec/protocol.md §8.3–§8.6). PURE: no I/O,
 * the clock and the id generator are injected. The caller persists `item` effects whose `persist`
 * is true and sends the notifications, in effect order; the approval route adds the
 * owner's approval question and `approvalResolved` (§9.2), which are not effects here.
 */
import type { RunEvent, RunEventOf } from '../../runtime/events/types';
import type { Message } from '../../runtime/messages';
import type { ToolMetadata } from '../../runtime/tools/types';
import type { McpToolPayload } from '../../runtime/tools/mcp/mcp-tool-source';
import { MCP_SERVER_UNAVAILABLE } from '../../runtime/tools/mcp/call-result';
import type { ItemVersion } from '../store/records';
import type {
  AppItem,
  AppItemStatus,
  AppItemType,
  ApprovalRequestParams,
  ErrorWarningParams,
  TurnCompletedParams,
} from '../model/types';
import { copyJson } from '../model/json-copy';
import { toAppToolMetadata } from './app-tool-metadata';
import {
  approvalPreview,
  argumentsFromRequestedEvent,
  decisionFromResolvedEvent,
} from '../approvals/approval-projection';
import type { ChangeCounter } from './change-counter';
import { conversationChangeOf, type TurnKind } from './conversation-change';
import type { ConversationWrite } from '../store/records';
import { deriveInputText } from './input-text';
import type { ItemEffect, ProjectedNotification, ProjectionEffect } from './projection-effects';
import { modelResponseEndingOf, type ModelResponseEnding } from './model-response-ending';
import { type FinalTurnStatus, projectTurnCompleted, type TurnOutcome } from './turn-completion';

/** `model_call_failed` error code of a request aborted by cancellation (docs/spec/runtime.md §12.3). */
export const MODEL_REQUEST_CANCELLED = 'model_request_cancelled';

export interface RunProjectorContext {
  threadId: string;
  turnId: string;
  runId: string;
  /** Default `agent`. A compaction turn projects no userMessage (docs/spec/history.md §1). */
  kind?: TurnKind;
  /** The turn's input array, verbatim (userMessage `payload.input`). */
  input: readonly Record<string, unknown>[];
  /** Epoch ms for changes the server makes itself (final agentMessage, rejection, interruptions). */
  now: () => number;
  /** `item_` + 32 hex. */
  newItemId: () => string;
  /** The thread's change counter (§8.8), shared across its turns. */
  changeCounter: ChangeCounter;
  /** docs/spec/mcp.md §5: exposed name → `payload.mcp` of the turn's MCP tools. */
  mcpTools?: ReadonlyMap<string, McpToolPayload>;
}

export interface SteerRegistration {
  /** The id `RunHandle.steer` returned; matched against `steer_applied.steer_id`. */
  steerId?: string;
  /** The derived text passed to `RunHandle.steer`; fallback match against `steer_applied.input`. */
  text: string;
  /** The steering input array. */
  input: readonly Record<string, unknown>[];
}

/** What the approval route needs for one request (§9.2 step 2). */
export interface ProjectedApproval {
  item: AppItem;
  params: ApprovalRequestParams;
}

/**
 * `messages`, `compactedHistory`, `promptSize`: what the turn does to the thread history (§8.10,
 * docs/spec/history.md §1) — the run's new messages or just the user message, or the compacted history.
 */
export interface TurnFinalization extends ConversationWrite {
  /** Step 1 of §8.5 (and the outcome's own items/warnings): apply before persisting the turn. */
  effects: ProjectionEffect[];
  status: FinalTurnStatus;
  completedAt: number;
  /** Broadcast as `turnCompleted` after `threadStatusChanged(idle)`. */
  turnCompleted: TurnCompletedParams;
  /** `AppTurn.result` to store. */
  result: Record<string, unknown>;
  messages: Message[];
}

interface LiveItem {
  item: AppItem;
  createdSeq: number;
  changeSeq: number;
}

interface PendingSteer extends SteerRegistration {
  consumed: boolean;
}

const NO_EFFECTS: readonly ProjectionEffect[] = [];

export class RunProjector {
  /** Insertion order = first appearance. */
  private readonly items = new Map<string, LiveItem>();
  private openAgentMessageId: string | null = null;
  /** The contextCompaction item between `context_compaction_started` and its end. */
  private openCompactionId: string | null = null;
  private lastAgentMessageId: string | null = null;
  /** tool_call_id → itemId of a started, not yet completed toolCall. */
  private readonly startedToolCalls = new Map<string, string>();
  /**
   * tool_call_id → arguments of `tool_call_planned`: for approval requests, and as the detail of a
   * call that never started (never on its App Server item).
   */
  private readonly plannedArguments = new Map<string, Record<string, unknown>>();
  private readonly approvals = new Map<string, { itemId: string; params: ApprovalRequestParams }>();
  private readonly steers: PendingSteer[] = [];
  private userMessageProjected = false;
  private readonly errorMessages = new Set<string>();
  private done = false;
  private lastModelResponseEnding: ModelResponseEnding | null = null;

  constructor(private readonly context: RunProjectorContext) {}

  get finalized(): boolean {
    return this.done;
  }

  /** How the latest model response of the run ended; null before the first one. */
  get modelResponseEnding(): ModelResponseEnding | null {
    return this.lastModelResponseEnding;
  }

  /** Remember a queued steer so its `steer_applied` userMessage carries the steer input array. */
  registerSteer(steer: SteerRegistration): void {
    this.steers.push({ ...steer, input: copyJson([...steer.input]), consumed: false });
  }

  /** The effects of one runtime event, in order. Nothing after finalize (§7.5). */
  project(event: RunEvent): ProjectionEffect[] {
    if (this.done) return [];
    const out: ProjectionEffect[] = [];
    switch (event.type) {
      case 'run_started':
        if (this.kind === 'agent') {
          this.projectUserMessage(out, event.input, this.context.input, eventTime(event), false);
        }
        break;
      case 'steer_applied':
        this.projectSteer(out, event);
        break;
      case 'assistant_delta':
        this.projectAssistantDelta(out, event);
        break;
      case 'model_call_completed':
        // A summary call streams no assistant text (docs/spec/history.md §1): it has no agentMessage.
        if (event.operation === 'context_compaction') break;
        this.closeAgentMessage(out, 'completed', eventTime(event));
        break;
      case 'model_call_failed':
        if (event.operation === 'context_compaction') break;
        this.closeAgentMessage(
          out,
          event.error_code === MODEL_REQUEST_CANCELLED ? 'interrupted' : 'failed',
          eventTime(event),
        );
        break;
      case 'tool_call_planned':
        this.plannedArguments.set(event.tool_call_id, copyJson(event.arguments));
        break;
      case 'approval_requested':
        this.projectApprovalRequested(out, event);
        break;
      case 'approval_resolved':
        this.projectApprovalResolved(out, event);
        break;
      case 'tool_call_started':
        this.projectToolCallStarted(out, event);
        break;
      case 'tool_call_completed':
        this.projectToolCallCompleted(out, event);
        break;
      case 'context_compaction_started':
        this.projectCompactionStarted(out, event);
        break;
      case 'context_compaction_completed':
        this.projectCompactionCompleted(out, event);
        break;
      case 'context_compaction_failed':
        this.projectCompactionFailed(out, event);
        break;
      case 'run_completed':
        this.projectFinalAgentMessage(out, event);
        break;
      case 'run_failed':
        this.projectRunError(out, event.error, eventTime(event));
        break;
      case 'diagnostic':
        this.lastModelResponseEnding = modelResponseEndingOf(event) ?? this.lastModelResponseEnding;
        // docs/spec/mcp.md §2: a server that failed to start, found before the run's first model call.
        if (event.level === 'warning' && event.code === MCP_SERVER_UNAVAILABLE)
          this.notify(out, {
            kind: 'warning',
            params: this.warning('mcp_server_unavailable', String(event.details.message)),
          });
        break;
      default:
        // run_cancelled, reasoning, streamed tool-call progress, lifecycle, diagnostics, budgets: none.
        break;
    }
    return out;
  }

  /**
   * Ends the turn (§8.5 step 1, §8.6): the outcome's own items (rejection) or warning (thrown
   * stream), every still-inProgress item completed as `interrupted`, and the turn completion.
   */
  finalize(outcome: TurnOutcome): TurnFinalization {
    if (this.done) throw new Error('turn already finalized');
    const out: ProjectionEffect[] = [];
    if (outcome.kind === 'rejected') {
      if (!this.userMessageProjected && this.kind === 'agent') {
        this.projectUserMessage(
          out,
          deriveInputText(this.context.input),
          this.context.input,
          this.context.now(),
          false,
        );
      }
      this.projectRunError(out, outcome.error, this.context.now());
    } else if (outcome.kind === 'streamFailed') {
      this.notify(out, {
        kind: 'warning',
        params: this.warning('event_stream', outcome.error),
      });
    }
    const interruptedAt = this.context.now();
    for (const live of this.items.values()) {
      if (live.item.status === 'inProgress')
        this.complete(out, live.item.itemId, 'interrupted', interruptedAt);
    }
    this.openAgentMessageId = null;
    this.openCompactionId = null;
    this.startedToolCalls.clear();
    this.done = true;

    const { threadId, turnId, runId } = this.context;
    const completion = projectTurnCompleted({ threadId, turnId, runId }, outcome);
    const result = outcome.kind === 'rejected' ? null : outcome.result;
    const conversation = conversationChangeOf(result, this.context.input, this.kind);
    return {
      effects: out,
      status: completion.status,
      completedAt: this.context.now(),
      turnCompleted: completion.params,
      result: completion.result,
      ...conversation,
      messages: [...conversation.messages],
    };
  }

  /** Latest in-memory state of every item of the turn, in order of first appearance (replay overlay). */
  liveItems(): ItemVersion[] {
    return [...this.items.values()].map((live) => snapshotVersion(live));
  }

  item(itemId: string): AppItem | undefined {
    const live = this.items.get(itemId);
    return live ? copyJson(live.item) : undefined;
  }

  /** The approval item (latest state) and the `approvalRequested` params of a request. */
  approval(requestId: string): ProjectedApproval | undefined {
    const entry = this.approvals.get(requestId);
    const live = entry && this.items.get(entry.itemId);
    return entry && live ? { item: copyJson(live.item), params: copyJson(entry.params) } : undefined;
  }

  private get kind(): TurnKind {
    return this.context.kind ?? 'agent';
  }

  // --- per-event projections -------------------------------------------------------------------

  private projectUserMessage(
    out: ProjectionEffect[],
    text: string,
    input: readonly Record<string, unknown>[] | undefined,
    at: number,
    steered: boolean,
  ): void {
    const payload: Record<string, unknown> = { text };
    if (input) payload.input = copyJson([...input]);
    if (steered) payload.steered = true;
    else this.userMessageProjected = true;
    const item = this.create(out, 'userMessage', 'completed', payload, at);
    this.notify(out, { kind: 'itemCompleted', params: item });
  }

  private projectSteer(out: ProjectionEffect[], event: RunEventOf<'steer_applied'>): void {
    const steer =
      this.steers.find((s) => !s.consumed && s.steerId !== undefined && s.steerId === event.steer_id) ??
      this.steers.find((s) => !s.consumed && s.text === event.input);
    if (steer) steer.consumed = true;
    this.projectUserMessage(out, event.input, steer?.input, eventTime(event), true);
  }

  /**
   * The `itemStarted` of the agentMessage an assistant delta opens (none when a message is open,
   * the chunk is empty or the turn is finalized). It carries the full state (text `''`), like any
   * other item state, so it can share a commit with the events before the delta; `project` of the
   * same delta then only appends the chunk.
   */
  openAgentMessage(event: RunEventOf<'assistant_delta'>): readonly ProjectionEffect[] {
    // Called for every streamed delta: the usual case (a message is open) allocates nothing.
    // An empty chunk changes nothing; it must not open an empty message either.
    if (this.done || this.openAgentMessageId !== null || event.delta.length === 0) return NO_EFFECTS;
    const out: ProjectionEffect[] = [];
    this.openedAgentMessageId(out, eventTime(event));
    return out;
  }

  /** The open agentMessage's id, opening one (its `itemStarted`) when none is. */
  private openedAgentMessageId(out: ProjectionEffect[], at: number): string {
    if (this.openAgentMessageId !== null) return this.openAgentMessageId;
    const started = this.create(out, 'agentMessage', 'inProgress', { text: '' }, at);
    this.openAgentMessageId = started.itemId;
    this.lastAgentMessageId = started.itemId;
    this.notify(out, { kind: 'itemStarted', params: started });
    return started.itemId;
  }

  private projectAssistantDelta(out: ProjectionEffect[], event: RunEventOf<'assistant_delta'>): void {
    if (event.delta.length === 0) return;
    const at = eventTime(event);
    const live = this.mustGet(this.openedAgentMessageId(out, at));
    // O(chunk): V8 appends to a rope without copying, the in-memory version is a shallow snapshot
    // (strings are immutable, an agentMessage payload holds only them) and the notification
    // carries the chunk alone (§4.8 v1.1), so nothing here grows with the message.
    const text = `${String(live.item.payload.text ?? '')}${event.delta}`;
    live.item = { ...live.item, payload: { ...live.item.payload, text }, updatedAt: at };
    live.changeSeq = this.context.changeCounter.next();
    out.push({ kind: 'item', version: shallowVersion(live), persist: false });
    // Named fields in the item's key order (payload moved last, as before): a rest/spread copy of
    // the item took V8's generic property-copy path on every delta and was the largest self time
    // of a streamed delta, and gave each params object a shape that JSON.stringify walks slowly.
    const { itemId, threadId, turnId, createdAt, updatedAt } = live.item;
    this.notify(out, {
      kind: 'agentMessageTextDelta',
      // type and status are restated with their (unchanged) values, so the delta's type is exact.
      params: {
        itemId,
        threadId,
        turnId,
        type: 'agentMessage',
        status: 'inProgress',
        createdAt,
        updatedAt,
        payload: { text: event.delta },
        delta: event.delta,
      },
    });
  }

  private closeAgentMessage(out: ProjectionEffect[], status: AppItemStatus, at: number): void {
    if (this.openAgentMessageId === null) return;
    this.complete(out, this.openAgentMessageId, status, at);
    this.openAgentMessageId = null;
  }

  private projectApprovalRequested(out: ProjectionEffect[], event: RunEventOf<'approval_requested'>): void {
    const args =
      this.plannedArguments.get(event.tool_call_id) ??
      argumentsFromRequestedEvent(event) ??
      ({} as Record<string, unknown>);
    const preview = approvalPreview(event.tool_name, args, this.context.mcpTools?.get(event.tool_name));
    // docs/spec/sandbox.md §4: a dialog can say "runs sandboxed, no network".
    const sandbox = event.sandbox !== undefined ? { sandbox: { ...event.sandbox } } : {};
    const item = this.create(
      out,
      'approval',
      'inProgress',
      {
        requestId: event.request_id,
        toolCallId: event.tool_call_id,
        toolName: event.tool_name,
        preview,
        arguments: copyJson(args),
        ...sandbox,
      },
      eventTime(event),
    );
    const params: ApprovalRequestParams = {
      requestId: event.request_id,
      threadId: this.context.threadId,
      turnId: this.context.turnId,
      toolCallId: event.tool_call_id,
      toolName: event.tool_name,
      preview,
      arguments: copyJson(args),
      ...sandbox,
    };
    this.approvals.set(event.request_id, { itemId: item.itemId, params });
    this.notify(out, { kind: 'itemStarted', params: item });
    this.notify(out, { kind: 'approvalRequested', params: copyJson(params) });
  }

  private projectApprovalResolved(out: ProjectionEffect[], event: RunEventOf<'approval_resolved'>): void {
    const entry = this.approvals.get(event.request_id);
    const live = entry && this.items.get(entry.itemId);
    // A resolution without a projected request has no item to complete; nothing is fabricated.
    if (!live || live.item.status !== 'inProgress') return;
    const payload = { ...live.item.payload, ...decisionFromResolvedEvent(event) };
    const item = this.change(out, live, { status: 'completed', payload }, eventTime(event), true);
    this.notify(out, { kind: 'itemCompleted', params: item });
  }

  private projectToolCallStarted(out: ProjectionEffect[], event: RunEventOf<'tool_call_started'>): void {
    const payload: Record<string, unknown> = {
      toolCallId: event.tool_call_id,
      toolName: event.tool_name,
      arguments: copyJson(event.arguments),
      ...toolMetadataMember(event.tool_metadata),
      ...this.mcpMember(event.tool_name),
    };
    const item = this.create(out, 'toolCall', 'inProgress', payload, eventTime(event));
    this.startedToolCalls.set(event.tool_call_id, item.itemId);
    this.notify(out, { kind: 'itemStarted', params: item });
    this.notify(out, {
      kind: 'toolCallArgumentsDelta',
      params: {
        ...copyJson(item),
        type: 'toolCall',
        status: 'inProgress',
        delta: copyJson(event.arguments),
      },
    });
  }

  private projectToolCallCompleted(out: ProjectionEffect[], event: RunEventOf<'tool_call_completed'>): void {
    const at = eventTime(event);
    const status = toolCallItemStatus(event.status);
    const startedId = this.startedToolCalls.get(event.tool_call_id);
    const started = startedId === undefined ? undefined : this.items.get(startedId);
    if (started && started.item.status === 'inProgress') {
      this.startedToolCalls.delete(event.tool_call_id);
      const payload = {
        ...started.item.payload,
        ...(started.item.payload.toolMetadata === undefined ? toolMetadataMember(event.tool_metadata) : {}),
        ...completionMembers(event),
      };
      const item = this.change(out, started, { status, payload }, at, true);
      this.notify(out, { kind: 'itemCompleted', params: item });
      return;
    }
    // Never started (policy, validation, approval deny/timeout, steering skip, cancellation): born final, no arguments.
    const payload: Record<string, unknown> = {
      toolCallId: event.tool_call_id,
      toolName: event.tool_name,
      ...toolMetadataMember(event.tool_metadata),
      ...this.mcpMember(event.tool_name),
      ...completionMembers(event),
    };
    const item = this.create(out, 'toolCall', status, payload, at);
    const planned = this.plannedArguments.get(event.tool_call_id);
    this.notify(out, {
      kind: 'itemCompleted',
      params: item,
      ...(planned !== undefined ? { detail: { plannedArguments: planned } } : {}),
    });
  }

  /** docs/spec/history.md §1: the contextCompaction item starts `inProgress` with its trigger. */
  private projectCompactionStarted(
    out: ProjectionEffect[],
    event: RunEventOf<'context_compaction_started'>,
  ): void {
    const payload = { trigger: event.trigger };
    const item = this.create(out, 'contextCompaction', 'inProgress', payload, eventTime(event));
    this.openCompactionId = item.itemId;
    this.notify(out, { kind: 'itemStarted', params: item });
  }

  /** Completed with the figures (and the summary unless skipped); the history replacement rides along. */
  private projectCompactionCompleted(
    out: ProjectionEffect[],
    event: RunEventOf<'context_compaction_completed'>,
  ): void {
    const payload: Record<string, unknown> = {
      trigger: event.trigger,
      ...(event.summary !== undefined ? { summary: event.summary } : {}),
      messagesBefore: event.messages_before,
      messagesAfter: event.messages_after,
      estimatedTokensBefore: event.estimated_tokens_before,
      estimatedTokensAfter: event.estimated_tokens_after,
      ...(event.skipped === true ? { skipped: true } : {}),
    };
    const history = event.skipped === true || event.history === undefined ? undefined : event.history;
    this.endCompaction(out, event.trigger, 'completed', payload, eventTime(event), history);
  }

  /** The summary call failed (`failed`) or the run was cancelled during it (`interrupted`). */
  private projectCompactionFailed(
    out: ProjectionEffect[],
    event: RunEventOf<'context_compaction_failed'>,
  ): void {
    const status: AppItemStatus = event.interrupted === true ? 'interrupted' : 'failed';
    const payload = { trigger: event.trigger, error: event.error };
    this.endCompaction(out, event.trigger, status, payload, eventTime(event), undefined);
  }

  private endCompaction(
    out: ProjectionEffect[],
    trigger: string,
    status: AppItemStatus,
    payload: Record<string, unknown>,
    at: number,
    compactedHistory: Message[] | undefined,
  ): void {
    const open = this.openCompactionId === null ? undefined : this.items.get(this.openCompactionId);
    this.openCompactionId = null;
    const live =
      open && open.item.status === 'inProgress'
        ? open
        : // An end without a projected start: the item is born with its start state.
          this.mustGet(this.create(out, 'contextCompaction', 'inProgress', { trigger }, at).itemId);
    const history = compactedHistory === undefined ? {} : { compactedHistory: copyJson(compactedHistory) };
    const item = this.change(out, live, { status, payload }, at, true, history);
    this.notify(out, { kind: 'itemCompleted', params: item });
  }

  /** §8.4: a born-complete `{text, final: true}` unless the last agentMessage already says it. */
  private projectFinalAgentMessage(out: ProjectionEffect[], event: RunEventOf<'run_completed'>): void {
    const answer = event.final_output;
    if (typeof answer !== 'string' || answer.length === 0) return;
    const last = this.lastAgentMessageId === null ? undefined : this.items.get(this.lastAgentMessageId);
    if (last && last.item.payload.text === answer) return;
    const item = this.create(
      out,
      'agentMessage',
      'completed',
      { text: answer, final: true },
      this.context.now(),
    );
    this.lastAgentMessageId = item.itemId;
    this.notify(out, { kind: 'itemCompleted', params: item });
  }

  private projectRunError(out: ProjectionEffect[], message: string, at: number): void {
    // A rejection after a projected run_failed with the same text would only repeat it.
    if (this.errorMessages.has(message)) return;
    this.errorMessages.add(message);
    const item = this.create(out, 'error', 'completed', { message }, at);
    this.notify(out, { kind: 'itemCompleted', params: item });
    this.notify(out, { kind: 'warning', params: this.warning('run_failed', message) });
  }

  // --- item state ------------------------------------------------------------------------------

  private create(
    out: ProjectionEffect[],
    type: AppItemType,
    status: AppItemStatus,
    payload: Record<string, unknown>,
    at: number,
  ): AppItem {
    const seq = this.context.changeCounter.next();
    const item: AppItem = {
      itemId: this.context.newItemId(),
      threadId: this.context.threadId,
      turnId: this.context.turnId,
      type,
      status,
      payload,
      createdAt: at,
      updatedAt: at,
    };
    const live: LiveItem = { item, createdSeq: seq, changeSeq: seq };
    this.items.set(item.itemId, live);
    out.push({ kind: 'item', version: snapshotVersion(live), persist: true });
    return copyJson(item);
  }

  private change(
    out: ProjectionEffect[],
    live: LiveItem,
    changes: { status?: AppItemStatus; payload?: Record<string, unknown> },
    at: number,
    persist: boolean,
    extra: Pick<ItemEffect, 'compactedHistory'> = {},
  ): AppItem {
    live.item = {
      ...live.item,
      status: changes.status ?? live.item.status,
      payload: changes.payload ?? live.item.payload,
      updatedAt: at,
    };
    live.changeSeq = this.context.changeCounter.next();
    out.push({ kind: 'item', version: snapshotVersion(live), persist, ...extra });
    return copyJson(live.item);
  }

  private complete(out: ProjectionEffect[], itemId: string, status: AppItemStatus, at: number): void {
    const item = this.change(out, this.mustGet(itemId), { status }, at, true);
    this.notify(out, { kind: 'itemCompleted', params: item });
  }

  private notify(out: ProjectionEffect[], notification: ProjectedNotification): void {
    out.push({ kind: 'notification', notification });
  }

  /** docs/spec/mcp.md §5: `payload.mcp = {server, tool}` on an MCP tool's toolCall item. */
  private mcpMember(toolName: string): { mcp?: McpToolPayload } {
    const mcp = this.context.mcpTools?.get(toolName);
    return mcp === undefined ? {} : { mcp: { ...mcp } };
  }

  private warning(code: ErrorWarningParams['code'], message: string): ErrorWarningParams {
    return { threadId: this.context.threadId, turnId: this.context.turnId, code, message };
  }

  private mustGet(itemId: string): LiveItem {
    const live = this.items.get(itemId);
    if (!live) throw new Error(`unknown item ${itemId}`);
    return live;
  }
}

/** `Math.round(created_at * 1000)`: runtime seconds → protocol integer milliseconds (§8.5). */
export function eventTime(event: RunEvent): number {
  return Math.round(event.created_at * 1000);
}

/** §5.5: `error` → failed; success and the non-final runtime statuses → completed. */
export function toolCallItemStatus(toolStatus: string): AppItemStatus {
  return toolStatus === 'error' ? 'failed' : 'completed';
}

function toolMetadataMember(metadata: ToolMetadata | undefined): Record<string, unknown> {
  return metadata ? { toolMetadata: toAppToolMetadata(metadata) } : {};
}

/** Completion members copied from the event only when it carries them; nothing is fabricated. */
function completionMembers(event: RunEventOf<'tool_call_completed'>): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  if (event.status !== undefined) members.status = event.status;
  if (event.directive !== undefined) members.directive = event.directive;
  if (event.error_code !== undefined) members.errorCode = event.error_code;
  if (event.execution_started !== undefined) members.executionStarted = event.execution_started;
  if (event.duration_ms !== undefined) members.durationMs = event.duration_ms;
  if (event.output_preview !== undefined) members.output = event.output_preview;
  if (event.output_truncated !== undefined) members.outputTruncated = event.output_truncated;
  // docs/spec/sandbox.md §4: `payload.sandbox` of a call that ran sandboxed.
  if (event.sandbox !== undefined) members.sandbox = { ...event.sandbox };
  return members;
}

/** A snapshot of an item whose payload members are all immutable values (a streaming agentMessage). */
function shallowVersion(live: LiveItem): ItemVersion {
  const item = { ...live.item, payload: { ...live.item.payload } };
  return { item, createdSeq: live.createdSeq, changeSeq: live.changeSeq };
}

function snapshotVersion(live: LiveItem): ItemVersion {
  return { item: copyJson(live.item), createdSeq: live.createdSeq, changeSeq: live.changeSeq };
}
