/** The page's layout: connection bar, threads, conversation with composer, raw log, approval dialog. */
import { useEffect, useState } from 'preact/hooks';
import { stringOf } from '../rpc/json-value';
import type { InspectorSession } from '../state/inspector-session';
import { activeTurnId } from '../state/thread-view';
import { ApprovalDialog } from './approval-dialog';
import { Composer } from './composer';
import { ConnectPanel } from './connect-panel';
import { Conversation } from './conversation';
import { RawLogPanel } from './raw-log-panel';
import { ThreadList } from './thread-list';
import { useSessionState } from './use-session';

export function App({ session }: { session: InspectorSession }) {
  const state = useSessionState(session);
  // A dismissed (Escape) approval stays pending; "Review approval" brings it back.
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => session.resumeAfterReload(), [session]);
  const approval = state.approvals.find((entry) => !dismissed.has(stringOf(entry.params.requestId) ?? ''));
  const running = state.view !== null && activeTurnId(state.view) !== undefined;
  const review = (requestId: string): void => {
    const next = new Set(dismissed);
    next.delete(requestId);
    setDismissed(next);
  };
  return (
    <div class="layout">
      <header class="top">
        <h1>vv-agent inspector</h1>
        <ConnectPanel state={state} onConnect={(url, token) => void session.connect(url, token)} />
      </header>
      {state.notice !== '' ? (
        <p class="notice" role="status">
          {state.notice}
        </p>
      ) : null}
      {state.error !== '' ? (
        <p class="error-banner" role="alert">
          {state.error}{' '}
          <button type="button" class="small" onClick={() => session.clearError()}>
            Dismiss
          </button>
        </p>
      ) : null}
      <main class="panes">
        <ThreadList state={state} session={session} />
        <div class="thread-pane">
          <Conversation view={state.view} onReview={review} />
          <Composer
            session={session}
            running={running}
            enabled={state.status === 'connected' && state.view !== null}
          />
        </div>
        <RawLogPanel state={state} session={session} />
      </main>
      {approval !== undefined ? (
        <ApprovalDialog
          key={String(approval.id)}
          approval={approval}
          onAnswer={(decision, reason) => session.answerApproval(approval, decision, reason)}
          onDismiss={() => setDismissed(new Set([...dismissed, stringOf(approval.params.requestId) ?? '']))}
        />
      ) : null}
    </div>
  );
}
