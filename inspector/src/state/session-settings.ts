/**
 * What survives a reload of the tab: the server URL, the token and the open thread, in
 * `sessionStorage` only — never `localStorage` and never the URL (docs/spec/inspector.md §1), so
 * the token dies with the tab and is not in history, bookmarks or a `Referer`.
 */
const KEYS = { url: 'vv-inspector.url', token: 'vv-inspector.token', thread: 'vv-inspector.thread' } as const;

export interface SessionSettings {
  url: string;
  token: string;
  threadId: string;
}

export function defaultServerUrl(): string {
  return `ws://${location.host}/`;
}

export function loadSettings(): SessionSettings {
  return {
    url: sessionStorage.getItem(KEYS.url) ?? defaultServerUrl(),
    token: sessionStorage.getItem(KEYS.token) ?? '',
    threadId: sessionStorage.getItem(KEYS.thread) ?? '',
  };
}

/** True once the user has connected in this tab: a reload connects again by itself. */
export function wasConnected(): boolean {
  return sessionStorage.getItem(KEYS.url) !== null;
}

export function saveConnection(url: string, token: string): void {
  sessionStorage.setItem(KEYS.url, url);
  sessionStorage.setItem(KEYS.token, token);
}

export function saveThread(threadId: string): void {
  sessionStorage.setItem(KEYS.thread, threadId);
}

export function forgetConnection(): void {
  for (const key of Object.values(KEYS)) sessionStorage.removeItem(key);
}
