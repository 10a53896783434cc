/**
 * "Threads" (docs/spec/inspector.md §2): `thread/list` with paging and the archived filter, titles
 * from `metadata.title`; "New thread" with cwd, agentKey and metadata; archive.
 */
import { useState } from 'preact/hooks';
import { isObject, objectOf, stringOf, type JsonObject, type JsonValue } from '../rpc/json-value';
import type { InspectorSession, SessionState } from '../state/inspector-session';
import { Badge } from './badge';

function NewThreadForm({ session }: { session: InspectorSession }) {
  const [cwd, setCwd] = useState('');
  const [agentKey, setAgentKey] = useState('');
  const [metadata, setMetadata] = useState('');
  const [problem, setProblem] = useState('');
  const start = (): void => {
    let parsed: JsonValue = {};
    try {
      parsed = metadata.trim() === '' ? {} : (JSON.parse(metadata) as JsonValue);
    } catch {
      setProblem('metadata must be a JSON object');
      return;
    }
    if (!isObject(parsed)) {
      setProblem('metadata must be a JSON object');
      return;
    }
    setProblem('');
    void session.startThread(cwd, agentKey, parsed).catch(() => undefined);
  };
  return (
    <details class="new-thread-options">
      <summary>Options for a new thread</summary>
      <label class="field">
        cwd
        <input
          type="text"
          value={cwd}
          placeholder="server default"
          onInput={(event) => setCwd(event.currentTarget.value)}
        />
      </label>
      <label class="field">
        agentKey
        <input
          type="text"
          value={agentKey}
          placeholder="default"
          onInput={(event) => setAgentKey(event.currentTarget.value)}
        />
      </label>
      <label class="field">
        metadata (JSON)
        <input
          type="text"
          value={metadata}
          placeholder='{"title":"…"}'
          onInput={(event) => setMetadata(event.currentTarget.value)}
        />
      </label>
      {problem !== '' ? <p class="error-text">{problem}</p> : null}
      <button type="button" onClick={start}>
        Start with these options
      </button>
    </details>
  );
}

function threadTitle(thread: JsonObject): string {
  return stringOf(objectOf(thread.metadata).title) ?? stringOf(thread.threadId) ?? '';
}

export function ThreadList({ state, session }: { state: SessionState; session: InspectorSession }) {
  const connected = state.status === 'connected';
  const openId = state.view?.threadId;
  return (
    <nav class="threads-panel" aria-label="Thread navigation">
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={!connected}
          onClick={() => void session.startThread('', '', {}).catch(() => undefined)}
        >
          New thread
        </button>
        <label class="inline">
          <input
            type="checkbox"
            checked={state.showArchived}
            disabled={!connected}
            onChange={(event) =>
              void session.setShowArchived(event.currentTarget.checked).catch(() => undefined)
            }
          />
          Archived
        </label>
      </div>
      <NewThreadForm session={session} />
      <ul class="threads" aria-label="Threads">
        {state.threads.map((thread) => {
          const threadId = stringOf(thread.threadId) ?? '';
          return (
            <li key={threadId} class={threadId === openId ? 'open' : ''}>
              <button
                type="button"
                class="thread-button"
                aria-current={threadId === openId ? 'true' : undefined}
                onClick={() => void session.openThread(threadId).catch(() => undefined)}
              >
                <span class="thread-title">{threadTitle(thread)}</span>
                <Badge value={stringOf(thread.status) ?? ''} />
              </button>
              {thread.archivedAt === null ? (
                <button
                  type="button"
                  class="small"
                  aria-label={`Archive ${threadTitle(thread)}`}
                  onClick={() => void session.archive(threadId).catch(() => undefined)}
                >
                  Archive
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {state.nextCursor !== null ? (
        <button type="button" onClick={() => void session.loadThreads(true).catch(() => undefined)}>
          More threads
        </button>
      ) : null}
    </nav>
  );
}
