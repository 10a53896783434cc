/**
 * The open thread: its turns in order, each with its items (first-appearance order), status,
 * token usage (input / output / cached, docs/spec/protocol.md §5.7: `null` is "unknown", never 0),
 * turn diff summary and plan (docs/spec/items.md §3, §4).
 */
import {
  arrayOf,
  isObject,
  numberOf,
  objectOf,
  stringOf,
  type JsonObject,
  type JsonValue,
} from '../rpc/json-value';
import type { ThreadView, ViewItem, ViewTurn } from '../state/thread-view';
import { Badge } from './badge';
import { ItemView } from './item-view';
import { JsonView } from './json-view';
import { useStickToBottom } from './use-stick-to-bottom';

function count(value: JsonValue | undefined): string {
  const n = numberOf(value);
  return n === undefined ? 'unknown' : String(n);
}

function UsageLine({ result }: { result: JsonObject }) {
  if (!isObject(result.tokenUsage)) return null;
  const usage = result.tokenUsage;
  const cache = objectOf(usage.cache_usage);
  return (
    <p class="usage" aria-label="Token usage">
      {`tokens: input ${count(usage.input_tokens)} · output ${count(usage.output_tokens)} · cached ${count(cache.read_input_tokens)}`}
    </p>
  );
}

function TurnFooter({ turn, diff }: { turn: ViewTurn; diff: JsonValue[] | undefined }) {
  const result = turn.result;
  const error = stringOf(result.error);
  const plan = arrayOf(turn.raw.plan).filter(isObject);
  return (
    <footer class="turn-footer">
      {error !== undefined ? <p class="error-text">{error}</p> : null}
      {stringOf(result.completionReason) !== undefined ? (
        <p class="facts">{`ended: ${stringOf(result.completionReason) ?? ''}`}</p>
      ) : null}
      <UsageLine result={result} />
      {plan.length > 0 ? (
        <div class="plan" aria-label="Plan">
          <strong>Plan</strong>
          <ul>
            {plan.map((todo, index) => (
              <li key={index}>
                <Badge value={stringOf(todo.status) ?? ''} /> {stringOf(todo.title) ?? ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {diff !== undefined && diff.length > 0 ? (
        <details class="turn-diff">
          <summary>Turn diff ({diff.length} files)</summary>
          <JsonView value={diff} />
        </details>
      ) : null}
    </footer>
  );
}

export function Conversation({
  view,
  onReview,
}: {
  view: ThreadView | null;
  onReview: (requestId: string) => void;
}) {
  const scroller = useStickToBottom(view);
  if (view === null)
    return (
      <section class="conversation" aria-label="Conversation" ref={scroller}>
        <p class="empty">Open a thread or start a new one.</p>
      </section>
    );
  const byTurn = new Map<string, ViewItem[]>();
  for (const itemId of view.order) {
    const item = view.items.get(itemId);
    if (item === undefined) continue;
    const list = byTurn.get(item.turnId) ?? [];
    list.push(item);
    byTurn.set(item.turnId, list);
  }
  const turns = [...view.turns.values()].sort((a, b) => a.startedAt - b.startedAt);
  const title = stringOf(objectOf(view.thread.metadata).title);
  return (
    <section class="conversation" aria-label="Conversation" ref={scroller}>
      <header class="thread-header">
        <h2>{title ?? view.threadId}</h2>
        <Badge value={stringOf(view.thread.status) ?? ''} />
        <span class="facts">{stringOf(view.thread.cwd) ?? ''}</span>
      </header>
      {turns.map((turn) => (
        <section key={turn.turnId} class="turn" aria-label={`Turn ${turn.turnId}`} data-turn-id={turn.turnId}>
          <header class="turn-header">
            <span>Turn</span> <Badge value={turn.status} />
          </header>
          {(byTurn.get(turn.turnId) ?? []).map((item) => (
            <ItemView
              key={item.itemId}
              item={item}
              onReview={
                item.type === 'approval' ? () => onReview(stringOf(item.payload.requestId) ?? '') : undefined
              }
            />
          ))}
          <TurnFooter turn={turn} diff={view.turnDiffs.get(turn.turnId)} />
        </section>
      ))}
    </section>
  );
}
