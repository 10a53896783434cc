/** Re-renders a component whenever the session's state changes. */
import { useEffect, useState } from 'preact/hooks';
import type { InspectorSession, SessionState } from '../state/inspector-session';

export function useSessionState(session: InspectorSession): SessionState {
  const [state, setState] = useState(session.state);
  useEffect(() => session.subscribe(() => setState(session.state)), [session]);
  return state;
}
