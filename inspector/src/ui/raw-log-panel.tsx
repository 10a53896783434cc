/**
 * "Raw messages" (docs/spec/inspector.md §2): every message both ways with direction, time and
 * method; filter by method or thread; pause; copy as JSONL; send an arbitrary request.
 */
import { useState } from 'preact/hooks';
import type { JsonValue } from '../rpc/json-value';
import type { InspectorSession, SessionState } from '../state/inspector-session';
import { asJsonl, filterLog } from '../state/raw-log';

/** The newest entries rendered; the log itself keeps more (raw-log.ts), and "Copy" copies them all. */
const SHOWN = 300;

function SendRequest({ session, enabled }: { session: InspectorSession; enabled: boolean }) {
  const [method, setMethod] = useState('model/list');
  const [params, setParams] = useState('{}');
  const [answer, setAnswer] = useState('');
  const send = (): void => {
    let parsed: JsonValue | undefined;
    try {
      parsed = params.trim() === '' ? undefined : (JSON.parse(params) as JsonValue);
    } catch {
      setAnswer('params are not valid JSON');
      return;
    }
    session
      .sendRaw(method.trim(), parsed)
      .then((result) => setAnswer(JSON.stringify(result, null, 2)))
      .catch((error: unknown) => setAnswer(error instanceof Error ? `error: ${error.message}` : 'error'));
  };
  return (
    <details class="send-request">
      <summary>Send a request</summary>
      <label class="field">
        Method
        <input type="text" value={method} onInput={(event) => setMethod(event.currentTarget.value)} />
      </label>
      <label class="field">
        Params (JSON)
        <textarea rows={3} value={params} onInput={(event) => setParams(event.currentTarget.value)} />
      </label>
      <button type="button" disabled={!enabled} onClick={send}>
        Send request
      </button>
      {answer !== '' ? (
        <pre class="json" aria-label="Response">
          {answer}
        </pre>
      ) : null}
    </details>
  );
}

export function RawLogPanel({ state, session }: { state: SessionState; session: InspectorSession }) {
  const [method, setMethod] = useState('');
  const [thread, setThread] = useState('');
  const [copied, setCopied] = useState('');
  const entries = filterLog(state.log, method, thread);
  const copy = (): void => {
    navigator.clipboard
      .writeText(asJsonl(entries))
      .then(() => setCopied(`copied ${entries.length} messages`))
      .catch(() => setCopied('the browser refused clipboard access'));
  };
  return (
    <section class="raw-log" aria-label="Raw messages">
      <h2>Raw messages</h2>
      <div class="actions wrap">
        <label class="field">
          Filter by method
          <input type="search" value={method} onInput={(event) => setMethod(event.currentTarget.value)} />
        </label>
        <label class="field">
          Filter by thread
          <input type="search" value={thread} onInput={(event) => setThread(event.currentTarget.value)} />
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={state.logPaused}
            onChange={(event) => session.setLogPaused(event.currentTarget.checked)}
          />
          Pause
        </label>
        <button type="button" onClick={copy}>
          Copy as JSONL
        </button>
        <button type="button" onClick={() => session.clearLog()}>
          Clear
        </button>
        <span role="status">{copied}</span>
      </div>
      <SendRequest session={session} enabled={state.status === 'connected'} />
      <ol class="log-entries">
        {entries.slice(-SHOWN).map((entry) => (
          <li key={entry.seq} class={`log-${entry.direction}`}>
            <details>
              <summary>
                <span class="log-dir">{entry.direction === 'in' ? '←' : '→'}</span>{' '}
                <time>{new Date(entry.time).toISOString().slice(11, 23)}</time>{' '}
                <span class="log-method">{entry.method}</span>
              </summary>
              <pre class="json">{JSON.stringify(entry.message, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
