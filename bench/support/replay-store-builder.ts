/**
 * Builds a store file holding one thread with `turns × itemsPerTurn` finished items, through the
 * server's own repositories (src/persistence/sqlite), so rows are exactly what the server
 * writes. Item shapes and sizes follow a tool-using turn: a userMessage, then per model call an
 * agentMessage and a toolCall with arguments and an output preview, and a final agentMessage.
 */
import { randomUUID } from 'node:crypto';
import { AppServerStore } from '../../src/persistence/sqlite';
import type { ItemVersion } from '../../src/persistence/sqlite';
import type { AppItem } from '../../src/core/model/types';

const hexId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '')}`;
const PROSE =
  'I looked at the workspace layout and the failing test output; the next step is to inspect the module that builds the request body. ';

function itemsOfTurn(threadId: string, turnId: string, count: number, startMs: number): AppItem[] {
  const base = (type: AppItem['type'], payload: Record<string, unknown>, offset: number): AppItem =>
    ({
      itemId: hexId('item'),
      threadId,
      turnId,
      type,
      status: 'completed',
      payload,
      createdAt: startMs + offset,
      updatedAt: startMs + offset + 1,
    }) as AppItem;
  const items: AppItem[] = [
    base(
      'userMessage',
      { text: 'Fix the failing build', input: [{ type: 'text', text: 'Fix the failing build' }] },
      0,
    ),
  ];
  let offset = 1;
  while (items.length < count - 1) {
    items.push(base('agentMessage', { text: PROSE.repeat(2) }, offset));
    items.push(
      base(
        'toolCall',
        {
          toolCallId: hexId('call'),
          toolName: 'read_file',
          arguments: { path: `src/module-${offset}.ts`, start_line: 1, end_line: 80 },
          toolMetadata: {
            sideEffect: 'read',
            idempotency: 'supported',
            terminal: false,
            capabilityTags: [],
            costDimensions: [],
          },
          status: 'success',
          directive: 'continue',
          errorCode: null,
          executionStarted: true,
          durationMs: 3,
          output:
            `export function handler${offset}(input: string): string {\n  return input.trim();\n}\n`.repeat(
              6,
            ),
          outputTruncated: false,
        },
        offset + 1,
      ),
    );
    offset += 2;
  }
  while (items.length < count)
    items.push(base('agentMessage', { text: 'Done: the build passes again.', final: true }, offset++));
  return items;
}

/** Creates `path` with one thread of `turns` completed turns; resolves with the thread id. */
export async function buildReplayStore(path: string, turns: number, itemsPerTurn: number): Promise<string> {
  const store = await AppServerStore.open(path);
  try {
    const threadId = hexId('thread');
    const t0 = Date.now() - turns * 60_000;
    await store.threads.create({
      threadId,
      agentKey: 'default',
      cwd: null,
      metadata: { title: 'replay bench' },
      now: t0,
    });
    let seq = 0;
    for (let turn = 0; turn < turns; turn += 1) {
      const turnId = hexId('turn');
      const startedAt = t0 + turn * 60_000;
      const input = [{ type: 'text', text: 'Fix the failing build' }];
      await store.beginTurn({ turnId, threadId, runId: hexId('run'), input, startedAt });
      const versions: ItemVersion[] = itemsOfTurn(threadId, turnId, itemsPerTurn, startedAt).map((item) => {
        seq += 1;
        return { item, createdSeq: seq, changeSeq: seq };
      });
      await store.items.upsertMany(versions);
      await store.finishTurn({
        threadId,
        turnId,
        completion: {
          status: 'completed',
          completedAt: startedAt + 30_000,
          result: { finalOutput: 'Done: the build passes again.', completionReason: 'tool_finish' },
        },
        messages: [],
        now: startedAt + 30_000,
      });
    }
    return threadId;
  } finally {
    await store.close();
  }
}
