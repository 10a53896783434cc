/**
 * The arguments the model sent for given tool calls, read back from a conversation: a call that
 * never ran keeps none on its item (docs/spec/protocol.md §4), while its assistant message still holds them.
 */
import type { Message } from '../../runtime/messages';

function decodedObject(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    // Arguments the runtime could not decode never reached planning (docs/spec/runtime.md §9.6 step 2).
    return undefined;
  }
}

/** toolCallId → decoded arguments, for the wanted ids found in `messages` (the last call of an id wins). */
export function plannedToolArguments(
  messages: readonly Message[],
  wanted: ReadonlySet<string>,
): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const message of messages) {
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    for (const call of message.tool_calls) {
      if (!wanted.has(call.id)) continue;
      const args = decodedObject(call.function.arguments);
      if (args !== undefined) found.set(call.id, args);
    }
  }
  return found;
}
