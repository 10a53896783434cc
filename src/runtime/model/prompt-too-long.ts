/** docs/spec/runtime.md §12.3: error texts that mean the prompt does not fit the model's context. */
const PROMPT_TOO_LONG_MARKERS = [
  'context length',
  'context_length_exceeded',
  'maximum context length',
  'prompt is too long',
  'prompt_too_long',
  'request too large',
  'too many tokens',
];

export function isPromptTooLong(text: string): boolean {
  const lower = text.toLowerCase();
  return PROMPT_TOO_LONG_MARKERS.some((marker) => lower.includes(marker));
}
