/** Results of the `thread/*` methods (protocol.md §3.3–§3.8). */
import type { AppItem, AppThread, AppTurn, ThreadStatus } from '../../protocols/app-server-v1/wire-types';

export interface ThreadStartResponse {
  threadId: string;
  agentKey: string;
  cwd: string | null;
  status: ThreadStatus;
}

/** Also the result of `thread/resume` (same shape). */
export interface ThreadReadResponse {
  thread: AppThread;
  turns: AppTurn[];
  items: AppItem[];
}

export type ThreadResumeResponse = ThreadReadResponse;

export interface ThreadListResponse {
  threads: AppThread[];
  nextCursor: string | null;
}

export interface ThreadArchiveResponse {
  threadId: string;
  archived: true;
}

export interface ThreadUnsubscribeResponse {
  threadId: string;
  subscribed: false;
  closed: boolean;
}

/** history.md §2. */
export interface ThreadForkResponse extends ThreadStartResponse {
  forkedFrom: { threadId: string; turnId: string };
}
