/**
 * A documented conversation: what the scripted model will answer, how the server is started, and
 * what the client does. Each scenario becomes `docs/transcripts/<name>.jsonl`.
 */
import type { TranscriptSession } from './transcript-session';

/** One scripted model reply (docs/spec/runtime.md §15.2, object form as in a `VV_AGENT_SCRIPTED_MODEL_FILE`). */
export interface ModelStep {
  content?: string;
  tool_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  reasoning_content?: string;
  usage?: Record<string, unknown>;
  delay_ms?: number;
  error?: string;
}

export interface Scenario {
  /** File name without `.jsonl`. */
  name: string;
  title: string;
  /** Markdown: what the transcript shows and what to look for. */
  description: string;
  /** The scripted model's replies, consumed in order across all turns of the process. */
  modelSteps: ModelStep[];
  /** CLI options after the common ones (e.g. `--approval-policy never`). */
  extraArgs?: string[];
  /** Drives the server; every line it writes or reads is recorded. */
  run(session: TranscriptSession): Promise<void>;
  /** Checks the workspace (absolute path) after the server exited; throws when the run went wrong. */
  verify?(workspace: string): void;
}

/** The canonical text input element of docs/spec/protocol.md §3.9. */
export function textInput(text: string): Array<{ type: 'text'; text: string }> {
  return [{ type: 'text', text }];
}

/** `runtime.md` §15.2 `finish(message)` with an explicit call id. */
export function finishStep(message: string, callId: string, extra: Partial<ModelStep> = {}): ModelStep {
  return {
    content: message,
    tool_calls: [{ id: callId, name: 'task_finish', arguments: { message } }],
    ...extra,
  };
}

/** `initialize` with the given opt-outs, then the optional `initialized` notification. */
export async function handshake(session: TranscriptSession, optOut: string[] = []): Promise<void> {
  await session.call('initialize', {
    clientInfo: { name: 'docs-client', title: 'Docs transcript client', version: '1.0.0' },
    capabilities: { experimentalApi: false, optOutNotificationMethods: optOut },
  });
  session.send({ jsonrpc: '2.0', method: 'initialized' });
}

export function paramsOf(message: Record<string, unknown>): Record<string, unknown> {
  return (message.params ?? {}) as Record<string, unknown>;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
