/** "Server URL", "Token", "Connect" (docs/spec/inspector.md §2) and the server's capabilities. */
import { useState } from 'preact/hooks';
import type { SessionState } from '../state/inspector-session';

export function ConnectPanel({
  state,
  onConnect,
}: {
  state: SessionState;
  onConnect: (url: string, token: string) => void;
}) {
  const [url, setUrl] = useState(state.url);
  const [token, setToken] = useState(state.token);
  const capabilities = state.capabilities;
  return (
    <form
      class="connect"
      onSubmit={(event) => {
        event.preventDefault();
        onConnect(url, token);
      }}
    >
      <label class="field">
        Server URL
        <input type="url" value={url} onInput={(event) => setUrl(event.currentTarget.value)} />
      </label>
      <label class="field">
        Token
        <input
          type="password"
          autocomplete="off"
          value={token}
          placeholder="none (--ws-no-auth)"
          onInput={(event) => setToken(event.currentTarget.value)}
        />
      </label>
      <button type="submit" class="primary">
        Connect
      </button>
      <span class={`connection connection-${state.status}`} role="status">
        {state.status}
      </span>
      {capabilities !== null ? (
        <span class="capabilities" aria-label="Server capabilities">
          {Object.entries(capabilities)
            .filter(([, value]) => value !== false && value !== undefined)
            .map(([name, value]) => (value === true ? name : `${name}: ${JSON.stringify(value)}`))
            .join(' · ')}
        </span>
      ) : null}
    </form>
  );
}
