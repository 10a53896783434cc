/**
 * A model call that streams `deltas` one-letter content fragments, then calls `task_finish`: the
 * load of the slow-reader suites. With `pacing`, a pause after every `burst` fragments, like a
 * real model streaming over seconds rather than one burst.
 */
import { chunks, type StreamStep } from '../../helpers/fake-openai-server';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** The fragment streamed at `index`: what a reader checks the order against. */
export function floodedFragment(index: number): string {
  return ALPHABET[index % ALPHABET.length];
}

export function floodingModelCall(deltas: number, pacing?: { burst: number; pauseMs: number }): StreamStep[] {
  const steps: StreamStep[] = [{ chunk: chunks.role() }];
  for (let i = 0; i < deltas; i += 1) {
    steps.push({ chunk: chunks.content(floodedFragment(i)) });
    if (pacing !== undefined && i % pacing.burst === pacing.burst - 1)
      steps.push({ delayMs: pacing.pauseMs });
  }
  steps.push(
    {
      chunk: chunks.toolCall({
        index: 0,
        id: 'call_done',
        name: 'task_finish',
        arguments: '{"message":"streamed"}',
      }),
    },
    { chunk: chunks.finish('tool_calls') },
  );
  return steps;
}
