/**
 * "Message" with "Send", "Steer", "Follow up", "Interrupt" (docs/spec/inspector.md §2). Enter sends
 * (a new turn when idle, a follow-up while a turn runs: the choice that never disturbs the running
 * turn); Shift+Enter is a new line.
 */
import { useState } from 'preact/hooks';
import type { InspectorSession } from '../state/inspector-session';

export function Composer({
  session,
  running,
  enabled,
}: {
  session: InspectorSession;
  running: boolean;
  enabled: boolean;
}) {
  const [text, setText] = useState('');
  const act = (action: (message: string) => Promise<void>): void => {
    if (text.trim() === '') return;
    const message = text;
    setText('');
    void action(message).catch(() => setText(message));
  };
  const send = (): void => act((message) => session.sendTurn(message));
  const followUp = (): void => act((message) => session.followUp(message));
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        if (running) followUp();
        else send();
      }}
    >
      <label class="field grow">
        Message
        <textarea
          rows={3}
          value={text}
          disabled={!enabled}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
            event.preventDefault();
            if (running) followUp();
            else send();
          }}
        />
      </label>
      <div class="actions">
        <button type="submit" class="primary" disabled={!enabled || running}>
          Send
        </button>
        <button
          type="button"
          disabled={!enabled || !running}
          onClick={() => act((message) => session.steer(message))}
        >
          Steer
        </button>
        <button type="button" disabled={!enabled || !running} onClick={followUp}>
          Follow up
        </button>
        <button
          type="button"
          class="danger"
          disabled={!enabled || !running}
          onClick={() => void session.interrupt().catch(() => undefined)}
        >
          Interrupt
        </button>
      </div>
    </form>
  );
}
