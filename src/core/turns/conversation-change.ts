/**
 * What a finished turn does to the thread's stored conversation (docs/spec/protocol.md §8.10, docs/spec/history.md §1).
 * Pure; shared by the normal finalization and the shutdown write.
 */
import type { ConversationWrite } from '../store/records';
import type { RunResult } from '../../runtime/run-config';
import { copyJson } from '../model/json-copy';
import { deriveInputText } from './input-text';

/** An agent turn (a start, follow-ups) or a compaction turn (docs/spec/history.md §1). */
export type TurnKind = 'agent' | 'compaction';

/**
 * A result that compacted replaces the history with `compactedHistory`; otherwise its new messages
 * are appended. Without a result an agent turn still appends its user message (like a rejected
 * run); a compaction turn has none. The prompt-size figure follows the result (absent: none).
 */
export function conversationChangeOf(
  result: RunResult | null,
  input: readonly Record<string, unknown>[],
  kind: TurnKind,
): ConversationWrite {
  if (result === null) {
    return { messages: kind === 'compaction' ? [] : [{ role: 'user', content: deriveInputText(input) }] };
  }
  return {
    messages: copyJson(result.newMessages),
    ...(result.compactedHistory ? { compactedHistory: copyJson(result.compactedHistory) } : {}),
    ...(result.promptSize ? { promptSize: { ...result.promptSize } } : {}),
  };
}
