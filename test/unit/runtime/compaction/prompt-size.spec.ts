/** The provider figure across runs of a thread: RunResult.promptSize → RunConfig.promptSize (docs/spec/history.md §1). */
import { anchorForHistory } from '../../../../src/runtime/compaction/prompt-size-tracker';
import { finish } from '../../../../src/runtime/model/scripted-model';
import { Runner } from '../../../../src/runtime/runner';
import { eventsOf, makeAgent, tempDir } from '../runtime-test-kit';
import { smallContextModel, usage } from './compaction-test-support';

describe('prompt size figure', () => {
  it.each([
    ['none', undefined, 3, null],
    [
      'covers all but the last 2 of 3 history messages',
      { promptTokens: 50, messagesSince: 2 },
      3,
      { promptTokens: 50, sentMessages: 2 },
    ],
    [
      'covers the whole history',
      { promptTokens: 50, messagesSince: 0 },
      3,
      { promptTokens: 50, sentMessages: 4 },
    ],
    ['more messages since than history: ignored', { promptTokens: 50, messagesSince: 4 }, 3, null],
    ['negative: ignored', { promptTokens: 50, messagesSince: -1 }, 3, null],
    ['fractional tokens: ignored', { promptTokens: 1.5, messagesSince: 0 }, 3, null],
  ])('%s', (_name, figure, historyLength, expected) => {
    expect(anchorForHistory(figure, historyLength)).toEqual(expected);
  });

  describe('across runs', () => {
    let workspace: { path: string; cleanup: () => Promise<void> };
    beforeEach(async () => {
      workspace = await tempDir();
    });
    afterEach(async () => {
      await workspace.cleanup();
    });

    // context 4000 → trigger 3200. By characters the second run is ≈ 1700 tokens; by the figure
    // the first run reported (3300 + what came after) it passes 80 %.
    async function twoRuns(passFigure: boolean) {
      const model = smallContextModel(
        [{ ...finish('one'), usage: usage(3300) }, { content: 'S' }, { ...finish('two'), usage: usage(777) }],
        4000,
        1000,
      );
      const runner = new Runner({ modelProvider: model.provider, workspace: workspace.path });
      const first = await runner.run(makeAgent(), 'x'.repeat(5000));
      const second = await runner.run(makeAgent(), 'second', {
        initialMessages: first.newMessages,
        ...(passFigure && first.promptSize ? { promptSize: first.promptSize } : {}),
      });
      return { model, first, second };
    }

    it('a run reports the figure and how many stored messages came after it', async () => {
      const { first } = await twoRuns(false);
      expect(eventsOf(first.events, 'context_compaction_started')).toEqual([]);
      expect(first.promptSize).toEqual({ promptTokens: 3300, messagesSince: 2 });
    });

    it('the next run starts its estimate from it and compacts at its first call', async () => {
      const { second, model } = await twoRuns(true);
      const [completed] = eventsOf(second.events, 'context_compaction_completed');
      expect(completed).toMatchObject({ trigger: 'auto', cycle_index: 1 });
      expect(completed.estimated_tokens_before).toBeGreaterThan(3300);
      expect(model.requests[1].tools).toEqual([]);
      // The figure after the run describes the compacted history: the call after the compaction.
      expect(second.promptSize).toEqual({ promptTokens: 777, messagesSince: 2 });
      expect(second.compactedHistory?.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'user',
        'assistant',
        'tool',
      ]);
    });

    it('without the figure the same history stays below 80 %', async () => {
      const { second, model } = await twoRuns(false);
      expect(eventsOf(second.events, 'context_compaction_started')).toEqual([]);
      // The step meant for the summary was an ordinary reply (with tools offered).
      expect(model.requests[1].tools.length).toBeGreaterThan(0);
      expect(second.compactedHistory).toBeUndefined();
    });
  });
});
