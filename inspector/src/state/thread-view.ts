/**
 * What the page holds of one thread: its turns and items, kept by id, from a `thread/resume`
 * snapshot and the notifications after it. Pure functions over an immutable value, so every rule of
 * "nothing lost or doubled" (docs/spec/inspector.md §4) lives here:
 *
 * * items are upserted by `itemId`, keeping the larger `updatedAt` (docs/spec/protocol.md §3.4);
 * * an agentMessage (or reasoning, docs/spec/items.md §1) delta appends its `delta` — after a
 *   resume response the first delta is the first chunk not yet in the snapshot (websocket.md §5);
 * * order is the order of first appearance (protocol.md §8.8), so `lastCreatedItemId` is what a
 *   reconnect passes as `afterItemId`.
 */
import { arrayOf, isObject, objectOf, stringOf, type JsonObject, type JsonValue } from '../rpc/json-value';

export interface ViewItem {
  itemId: string;
  turnId: string;
  type: string;
  status: string;
  payload: JsonObject;
  createdAt: number;
  updatedAt: number;
  /** Live `bash` output (items.md §2): not persisted by the server, so only what this page saw. */
  liveOutput: string;
  /** Every member of the item as received, for the generic view of unknown fields. */
  raw: JsonObject;
}

export interface ViewTurn {
  turnId: string;
  status: string;
  startedAt: number;
  input: JsonValue[];
  result: JsonObject;
  /** Everything else the server sent (e.g. `plan`, items.md §4). */
  raw: JsonObject;
}

export interface ThreadView {
  threadId: string;
  thread: JsonObject;
  turns: ReadonlyMap<string, ViewTurn>;
  items: ReadonlyMap<string, ViewItem>;
  /** itemIds in order of first appearance. */
  order: readonly string[];
  /** Latest `turn/diff/updated` summary per turn (items.md §3). */
  turnDiffs: ReadonlyMap<string, JsonValue[]>;
}

export function emptyThreadView(threadId: string): ThreadView {
  return {
    threadId,
    thread: { threadId },
    turns: new Map(),
    items: new Map(),
    order: [],
    turnDiffs: new Map(),
  };
}

export function lastCreatedItemId(view: ThreadView): string | undefined {
  return view.order[view.order.length - 1];
}

export function activeTurnId(view: ThreadView): string | undefined {
  for (const turn of view.turns.values()) if (turn.status === 'running') return turn.turnId;
  return undefined;
}

function toItem(value: JsonObject, previous: ViewItem | undefined): ViewItem | null {
  const itemId = stringOf(value.itemId);
  if (itemId === undefined) return null;
  return {
    itemId,
    turnId: stringOf(value.turnId) ?? previous?.turnId ?? '',
    type: stringOf(value.type) ?? 'unknown',
    status: stringOf(value.status) ?? '',
    payload: objectOf(value.payload),
    createdAt: typeof value.createdAt === 'number' ? value.createdAt : (previous?.createdAt ?? 0),
    updatedAt: typeof value.updatedAt === 'number' ? value.updatedAt : 0,
    liveOutput: previous?.liveOutput ?? '',
    raw: value,
  };
}

function toTurn(value: JsonObject): ViewTurn | null {
  const turnId = stringOf(value.turnId);
  if (turnId === undefined) return null;
  return {
    turnId,
    status: stringOf(value.status) ?? '',
    startedAt: typeof value.startedAt === 'number' ? value.startedAt : Date.now(),
    input: arrayOf(value.input),
    result: objectOf(value.result),
    raw: value,
  };
}

function withItem(view: ThreadView, item: ViewItem): ThreadView {
  const items = new Map(view.items);
  items.set(item.itemId, item);
  const order = view.items.has(item.itemId) ? view.order : [...view.order, item.itemId];
  return ensureTurn({ ...view, items, order }, item.turnId);
}

/** A turn seen first through one of its items (a resume that raced its `turn/started`). */
function ensureTurn(view: ThreadView, turnId: string): ThreadView {
  if (turnId === '' || view.turns.has(turnId)) return view;
  const turns = new Map(view.turns);
  turns.set(turnId, {
    turnId,
    status: 'running',
    startedAt: Date.now(),
    input: [],
    result: {},
    raw: { turnId },
  });
  return { ...view, turns };
}

/** Upsert keeping the larger `updatedAt`; an equal one replaces (a completion in the same ms). */
export function upsertItem(view: ThreadView, value: JsonObject): ThreadView {
  const previous = view.items.get(stringOf(value.itemId) ?? '');
  if (previous !== undefined && typeof value.updatedAt === 'number' && value.updatedAt < previous.updatedAt)
    return view;
  const item = toItem(value, previous);
  return item === null ? view : withItem(view, item);
}

/** `item/agentMessage/delta`, `item/reasoning/delta`: append `delta` to the text held. */
export function appendTextDelta(view: ThreadView, value: JsonObject): ThreadView {
  const delta = stringOf(value.delta) ?? '';
  const previous = view.items.get(stringOf(value.itemId) ?? '');
  const base = toItem(value, previous);
  if (base === null) return view;
  const text = (stringOf(previous?.payload.text) ?? '') + delta;
  const updatedAt = Math.max(base.updatedAt, previous?.updatedAt ?? 0);
  return withItem(view, { ...base, updatedAt, payload: { ...(previous?.payload ?? {}), text } });
}

/**
 * `item/toolCall/delta`: the v1 start delta carries the arguments; a v1.2 `deltaKind: "output"`
 * delta carries a chunk of live command output (items.md §2), which is appended, never stored.
 */
export function applyToolDelta(view: ThreadView, value: JsonObject): ThreadView {
  const previous = view.items.get(stringOf(value.itemId) ?? '');
  const delta = value.delta;
  if (stringOf(value.deltaKind) === 'output' && isObject(delta)) {
    if (previous === undefined) return view;
    const text = stringOf(delta.text);
    const note = stringOf(delta.kind) === 'output_truncated' ? '\n[live output truncated]\n' : '';
    return withItem(view, { ...previous, liveOutput: previous.liveOutput + (text ?? '') + note });
  }
  return upsertItem(view, value);
}

export function applyTurn(view: ThreadView, value: JsonObject): ThreadView {
  const turn = toTurn(value);
  if (turn === null) return view;
  const turns = new Map(view.turns);
  const previous = turns.get(turn.turnId);
  turns.set(
    turn.turnId,
    previous === undefined
      ? turn
      : { ...previous, ...turn, input: turn.input.length > 0 ? turn.input : previous.input },
  );
  return { ...view, turns };
}

/** `turn/completed` (protocol.md §4.6): the params minus ids and status are the turn's `result`. */
export function completeTurn(view: ThreadView, params: JsonObject): ThreadView {
  const turnId = stringOf(params.turnId);
  if (turnId === undefined) return view;
  const result: JsonObject = { ...params };
  delete result.threadId;
  delete result.turnId;
  delete result.runId;
  delete result.status;
  const previous = ensureTurn(view, turnId).turns.get(turnId);
  if (previous === undefined) return view;
  const turns = new Map(view.turns);
  turns.set(turnId, { ...previous, status: stringOf(params.status) ?? 'completed', result });
  return { ...view, turns };
}

export function setTurnDiff(view: ThreadView, params: JsonObject): ThreadView {
  const turnId = stringOf(params.turnId);
  if (turnId === undefined) return view;
  const turnDiffs = new Map(view.turnDiffs);
  turnDiffs.set(turnId, arrayOf(params.files));
  return { ...view, turnDiffs };
}

/** A `turn/plan/updated` (items.md §4) kept on the turn as `plan`, as replay has it. */
export function setTurnPlan(view: ThreadView, params: JsonObject): ThreadView {
  const turnId = stringOf(params.turnId);
  const turn = turnId === undefined ? undefined : view.turns.get(turnId);
  if (turn === undefined || turnId === undefined) return view;
  const turns = new Map(view.turns);
  turns.set(turnId, { ...turn, raw: { ...turn.raw, plan: arrayOf(params.todos) } });
  return { ...view, turns };
}

/** A `thread/resume` / `thread/read` result merged in (a reconnect keeps what the page already has). */
export function applySnapshot(view: ThreadView, result: JsonValue): ThreadView {
  const snapshot = objectOf(result);
  let next: ThreadView = { ...view, thread: objectOf(snapshot.thread) };
  for (const turn of arrayOf(snapshot.turns)) if (isObject(turn)) next = applyTurn(next, turn);
  for (const item of arrayOf(snapshot.items)) if (isObject(item)) next = upsertItem(next, item);
  return next;
}

/** The page's reaction to one notification of this thread; unknown methods change nothing. */
export function applyNotification(view: ThreadView, method: string, params: JsonObject): ThreadView {
  switch (method) {
    case 'item/started':
    case 'item/completed':
      return upsertItem(view, params);
    case 'item/agentMessage/delta':
    case 'item/reasoning/delta':
      return appendTextDelta(view, params);
    case 'item/toolCall/delta':
      return applyToolDelta(view, params);
    case 'turn/started':
      return applyTurn(view, { ...params, status: 'running' });
    case 'turn/completed':
      return completeTurn(view, params);
    case 'turn/diff/updated':
      return setTurnDiff(view, params);
    case 'turn/plan/updated':
      return setTurnPlan(view, params);
    case 'thread/status/changed':
    case 'thread/archived':
      return {
        ...view,
        thread: { ...view.thread, ...(method === 'thread/archived' ? {} : { status: params.status }) },
      };
    default:
      return view;
  }
}
