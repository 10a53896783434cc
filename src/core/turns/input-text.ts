/** Input text derivation (docs/spec/protocol.md §8.9) for turn, steer and follow-up inputs. */

/** Text elements contribute their text, anything else its compact JSON; empty strings dropped; joined by "\n". */
export function deriveInputText(input: readonly Record<string, unknown>[]): string {
  return input
    .map((element) =>
      element.type === 'text' && typeof element.text === 'string' ? element.text : JSON.stringify(element),
    )
    .filter((text) => text.length > 0)
    .join('\n');
}
