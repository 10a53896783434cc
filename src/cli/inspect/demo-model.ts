/**
 * The scripted model behind `debug app-server inspect` (docs/spec/inspector.md §1): every turn
 * streams a short answer, runs `bash` (which asks for approval under `on-request`), writes a file
 * (its diff is shown) and finishes. It reacts to where the conversation is, not to a fixed queue,
 * so it serves any number of turns and threads, denied commands included.
 */
import {
  ScriptedModelProvider,
  type ScriptObjectStep,
  type ScriptStep,
} from '../../runtime/model/scripted-model';
import type { LlmRequest } from '../../runtime/model/types';

/** Streamed slowly enough for a person to watch it grow. */
const CHUNK_DELAY_MS = 120;
export const DEMO_FILE = 'inspector-demo.md';

export function demoModelProvider(): ScriptedModelProvider {
  const provider = new ScriptedModelProvider();
  // Each call consumes one step and queues the next, so the queue never runs dry.
  const step: ScriptStep = (request) => {
    provider.push(step);
    return demoStep(request);
  };
  provider.push(step);
  return provider;
}

/** Provider-style usage, so the turn's token line shows numbers (grows with the conversation). */
function usage(request: LlmRequest, completion: number): Record<string, unknown> {
  const prompt =
    200 + request.messages.reduce((total, message) => total + Math.ceil(message.content.length / 4), 0);
  const cached = request.messages.length > 2 ? 128 : 0;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

function demoStep(request: LlmRequest): ScriptObjectStep {
  return { ...demoReply(request), usage: usage(request, 24) };
}

function demoReply(request: LlmRequest): ScriptObjectStep {
  const last = request.messages[request.messages.length - 1];
  const turn = request.messages.filter((message) => message.role === 'user').length;
  const userText = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  if (last?.role === 'tool' && last.tool_call_id.startsWith('demo_bash')) {
    return {
      content_chunks: ['Now ', 'I will ', 'write ', `${DEMO_FILE}.`],
      chunk_delay_ms: CHUNK_DELAY_MS,
      tool_calls: [
        {
          id: `demo_write_${turn}`,
          name: 'write_file',
          arguments: {
            path: DEMO_FILE,
            content: `# Inspector demo\n\nTurn ${turn}: ${firstLine(userText)}\n`,
          },
        },
      ],
    };
  }
  if (last?.role === 'tool') {
    const message = `Done: ran a command and wrote ${DEMO_FILE}.`;
    return {
      content: message,
      tool_calls: [{ id: `demo_finish_${turn}`, name: 'task_finish', arguments: { message } }],
    };
  }
  return {
    content_chunks: [
      'Hello! ',
      'This is ',
      'the scripted ',
      'demo model. ',
      'First ',
      'I will ',
      'run ',
      'a command.',
    ],
    chunk_delay_ms: CHUNK_DELAY_MS,
    tool_calls: [
      { id: `demo_bash_${turn}`, name: 'bash', arguments: { command: 'echo "hello from the demo" && ls' } },
    ],
  };
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 200);
}
