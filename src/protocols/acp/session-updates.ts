/**
 * One thread seen as an ACP session (docs/spec/acp.md §3): the thread's events, live or replayed from its
 * items, become `session/update` payloads. Stateful per session (which tool calls the client was
 * already shown, what the session's tool calls told about files), otherwise pure: no I/O.
 *
 * Live and replay go through the same rules, so a replay shows every tool call once in the final
 * state the live stream left it in, and every agent message as the text its chunks added up to.
 */
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { ThreadEventDetail, ThreadEventKind } from '../../core/events/thread-event-bus';
import type { AppItem, ApprovalRequestParams } from '../../core/model/types';
import { FileKnowledge } from './file-knowledge';
import { isShownAsToolCall, toolFilePath, toolKind, toolLocations, toolTitle } from './tool-presentation';

const PLAN_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

type Payload = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function textChunk(kind: 'agent_message_chunk' | 'user_message_chunk', text: string): SessionUpdate {
  return { sessionUpdate: kind, content: { type: 'text', text } };
}

function asItem(params: object): AppItem | null {
  const item = params as Partial<AppItem>;
  return typeof item.type === 'string' && isRecord(item.payload) ? (item as AppItem) : null;
}

/** `todo_write`'s `todos` as plan entries (every entry `medium`, unknown statuses `pending`). */
export function planEntries(args: Record<string, unknown>): PlanEntry[] | null {
  if (!Array.isArray(args.todos)) return null;
  return args.todos.filter(isRecord).map((todo) => {
    const status = typeof todo.status === 'string' ? todo.status.toLowerCase() : 'pending';
    return {
      content:
        typeof todo.title === 'string' ? todo.title : typeof todo.content === 'string' ? todo.content : '',
      priority: 'medium',
      status: (PLAN_STATUSES.has(status) ? status : 'pending') as PlanEntry['status'],
    };
  });
}

/** Compile-time exhaustiveness of the mapping; at run time an unknown kind shows nothing. */
function unmapped(kind: never): SessionUpdate[] {
  void kind;
  return [];
}

export class SessionUpdates {
  /** toolCallId → the arguments the call was shown with (also for calls that never executed). */
  private readonly shown = new Map<string, Record<string, unknown>>();
  private readonly files = new FileKnowledge();

  constructor(private readonly cwd: string | null) {}

  /**
   * The updates one live thread event stands for (none for most events): the ACP mapping of the
   * domain's event kinds. Every kind has its case, so a new kind does not compile until it is
   * mapped (or deliberately not shown) here.
   */
  live(kind: ThreadEventKind, params: object, detail?: ThreadEventDetail): SessionUpdate[] {
    switch (kind) {
      case 'agentMessageTextDelta': {
        const delta = (params as { delta?: unknown }).delta;
        return typeof delta === 'string' && delta !== '' ? [textChunk('agent_message_chunk', delta)] : [];
      }
      case 'approvalRequested':
        return this.awaitingApproval(params as ApprovalRequestParams);
      case 'itemStarted': {
        const item = asItem(params);
        return item?.type === 'toolCall' ? this.started(item.payload) : [];
      }
      case 'itemCompleted': {
        const item = asItem(params);
        if (item === null) return [];
        if (item.type === 'toolCall') return this.completed(item, 'live', detail?.plannedArguments);
        // A streamed message was sent chunk by chunk; only §8.4's synthetic final one was not.
        if (item.type === 'agentMessage' && item.payload.final === true) return this.agentText(item.payload);
        return [];
      }
      // Shown through the item's start and completion (the arguments), or not part of ACP's
      // session view; a turn's end answers the prompt (acp-session-connection.ts).
      case 'toolCallArgumentsDelta':
      case 'approvalResolved':
      case 'threadArchived':
      case 'threadStatusChanged':
      case 'threadUpdated':
      case 'turnStarted':
      case 'turnCompleted':
      case 'warning':
        return [];
      default:
        return unmapped(kind);
    }
  }

  /**
   * `session/load` (docs/spec/acp.md §2): every item in order, then nothing more than the live stream would
   * show. `plannedArguments` (toolCallId → arguments) stands in for the arguments that the items
   * of calls that never started do not carry.
   */
  replay(
    items: readonly AppItem[],
    plannedArguments: ReadonlyMap<string, Record<string, unknown>> = new Map(),
  ): SessionUpdate[] {
    let lastPlanIndex = -1;
    items.forEach((item, index) => {
      if (item.type === 'toolCall' && item.payload.toolName === 'todo_write' && item.status === 'completed')
        lastPlanIndex = index;
    });
    const updates: SessionUpdate[] = [];
    items.forEach((item, index) => {
      if (item.type === 'userMessage' && typeof item.payload.text === 'string' && item.payload.text !== '')
        updates.push(textChunk('user_message_chunk', item.payload.text));
      else if (item.type === 'agentMessage') updates.push(...this.agentText(item.payload));
      else if (item.type === 'approval') this.rememberApproval(item.payload);
      else if (item.type === 'toolCall')
        updates.push(
          ...this.completed(
            item,
            'replay',
            plannedArguments.get(String(item.payload.toolCallId)),
            index === lastPlanIndex,
          ),
        );
    });
    return updates;
  }

  private agentText(payload: Payload): SessionUpdate[] {
    return typeof payload.text === 'string' && payload.text !== ''
      ? [textChunk('agent_message_chunk', payload.text)]
      : [];
  }

  private rememberApproval(payload: Payload): void {
    const { toolCallId, arguments: args } = payload;
    if (typeof toolCallId === 'string' && isRecord(args) && !this.shown.has(toolCallId))
      this.shown.set(toolCallId, args);
  }

  /** docs/spec/acp.md §3: a call waiting for approval is shown as a `pending` tool call. */
  private awaitingApproval(request: ApprovalRequestParams): SessionUpdate[] {
    if (!isShownAsToolCall(request.toolName) || this.shown.has(request.toolCallId)) return [];
    this.shown.set(request.toolCallId, request.arguments);
    return [
      {
        sessionUpdate: 'tool_call',
        ...this.describe(request.toolCallId, request.toolName, request.arguments, 'pending'),
      },
    ];
  }

  private started(payload: Payload): SessionUpdate[] {
    const { toolCallId, toolName } = payload;
    if (typeof toolCallId !== 'string' || typeof toolName !== 'string' || !isShownAsToolCall(toolName))
      return [];
    const args = isRecord(payload.arguments) ? payload.arguments : {};
    if (this.shown.has(toolCallId)) {
      this.shown.set(toolCallId, args);
      return [{ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' }];
    }
    this.shown.set(toolCallId, args);
    return [{ sessionUpdate: 'tool_call', ...this.describe(toolCallId, toolName, args, 'in_progress') }];
  }

  /**
   * A tool item that ended: live, an update of the call the client was shown (or the whole call
   * when it never was: a call refused before it ran); replayed, the whole call in its final state.
   */
  private completed(
    item: AppItem,
    mode: 'live' | 'replay',
    planned: Record<string, unknown> | undefined,
    withPlan = mode === 'live',
  ): SessionUpdate[] {
    const { toolCallId, toolName } = item.payload;
    if (typeof toolCallId !== 'string' || typeof toolName !== 'string' || !isShownAsToolCall(toolName))
      return [];
    const args = this.argumentsOf(item, planned);
    if (item.status === 'inProgress') {
      this.shown.set(toolCallId, args);
      return [{ sessionUpdate: 'tool_call', ...this.describe(toolCallId, toolName, args, 'in_progress') }];
    }
    const status: ToolCallStatus = item.status === 'completed' ? 'completed' : 'failed';
    const content = this.resultContent(item, toolName, args);
    const output = item.payload.output;
    const finalState = {
      status,
      ...(content.length > 0 ? { content } : {}),
      ...(typeof output === 'string' ? { rawOutput: { output } } : {}),
    };
    const wasShown = this.shown.has(toolCallId);
    this.shown.set(toolCallId, args);
    const updates: SessionUpdate[] =
      wasShown && mode === 'live'
        ? [{ sessionUpdate: 'tool_call_update', toolCallId, ...finalState }]
        : [
            {
              sessionUpdate: 'tool_call',
              ...this.describe(toolCallId, toolName, args, status),
              ...finalState,
            },
          ];
    const plan = toolName === 'todo_write' && status === 'completed' && withPlan ? planEntries(args) : null;
    if (plan !== null) updates.push({ sessionUpdate: 'plan', entries: plan });
    return updates;
  }

  /** The item's own arguments; for a call that never ran, those it was shown with, else the planned ones. */
  private argumentsOf(item: AppItem, planned: Record<string, unknown> | undefined): Record<string, unknown> {
    const toolCallId = item.payload.toolCallId as string;
    if (isRecord(item.payload.arguments)) return item.payload.arguments;
    return this.shown.get(toolCallId) ?? planned ?? {};
  }

  private describe(
    toolCallId: string,
    toolName: string,
    args: Record<string, unknown>,
    status: ToolCallStatus,
  ) {
    const locations = toolLocations(toolName, args, this.cwd);
    return {
      toolCallId,
      title: toolTitle(toolName, args),
      kind: toolKind(toolName),
      status,
      rawInput: args,
      ...(locations !== undefined ? { locations } : {}),
    };
  }

  /** The output preview as text, plus the diff of a successful write or edit. */
  private resultContent(item: AppItem, toolName: string, args: Record<string, unknown>): ToolCallContent[] {
    const output = typeof item.payload.output === 'string' ? item.payload.output : undefined;
    const content: ToolCallContent[] = [];
    if (output !== undefined && output !== '')
      content.push({ type: 'content', content: { type: 'text', text: output } });
    const file = toolFilePath(toolName, args, this.cwd);
    if (item.status === 'completed' && file !== null) {
      const diff = this.files.learn({
        toolName,
        path: file,
        args,
        output: output !== undefined ? successText(toolName, output) : undefined,
        outputTruncated: item.payload.outputTruncated === true,
      });
      if (diff !== null) content.push({ type: 'diff', ...diff });
    }
    return content;
  }
}

/** A successful read's output preview is the file text itself (docs/spec/runtime.md §10.5). */
function successText(toolName: string, output: string): string | undefined {
  return toolName === 'read_file' ? output : undefined;
}
