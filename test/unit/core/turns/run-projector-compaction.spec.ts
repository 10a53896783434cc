/** The contextCompaction item (docs/spec/history.md §1) projected from the runtime's compaction events. */
import { notificationsOf } from '../../../../src/core/turns/projection-effects';
import type { RunEvent } from '../../../../src/runtime/events/types';
import type { Message } from '../../../../src/runtime/messages';
import {
  describeNotifications,
  missingUsage,
  modelCall,
  projectorHarness,
  RunEventFactory,
  runResult,
} from './projector-test-support';

const e = new RunEventFactory();
const summaryCall = {
  ...modelCall(1),
  operation: 'context_compaction' as const,
  operation_id: 'op_model_cycle_1_compaction',
  call_id: 'op_model_cycle_1_compaction:attempt:1',
};
const compacted: Message[] = [
  { role: 'user', content: 'Summary of the conversation so far:\nS' },
  { role: 'user', content: 'latest' },
];
const completed = (at: number, extra: Record<string, unknown> = {}): RunEvent =>
  e.event(
    'context_compaction_completed',
    {
      trigger: 'auto',
      messages_before: 6,
      messages_after: 2,
      estimated_tokens_before: 900,
      estimated_tokens_after: 120,
      summary: 'S',
      history: compacted,
      ...extra,
    },
    at,
  );

describe('contextCompaction item', () => {
  it('auto: started inProgress {trigger}, completed with the §1 payload; the summary call makes no agentMessage', () => {
    const h = projectorHarness();
    const effects = h.project([
      e.event('run_started', { input: 'hello' }, 1_000),
      e.event('context_compaction_started', { trigger: 'auto' }, 1_001),
      e.event('model_call_started', summaryCall, 1_002),
      e.event('model_call_completed', { ...summaryCall, usage: missingUsage() }, 1_003),
      completed(1_004),
    ]);
    expect(describeNotifications(notificationsOf(effects))).toEqual([
      'item/completed userMessage completed',
      'item/started contextCompaction inProgress',
      'item/completed contextCompaction completed',
    ]);
    const [, started, done] = notificationsOf(effects).map((n) => n.params as Record<string, unknown>);
    expect(started).toMatchObject({ status: 'inProgress', payload: { trigger: 'auto' } });
    expect(done).toMatchObject({ itemId: started.itemId, status: 'completed', updatedAt: 1_004 });
    expect(done.payload).toEqual({
      trigger: 'auto',
      summary: 'S',
      messagesBefore: 6,
      messagesAfter: 2,
      estimatedTokensBefore: 900,
      estimatedTokensAfter: 120,
    });
    // The completion's persisted state carries the history that replaces the stored one.
    const persisted = effects.filter((effect) => effect.kind === 'item' && effect.persist);
    expect(persisted.map((effect) => effect.kind === 'item' && effect.compactedHistory)).toEqual([
      undefined,
      undefined,
      compacted,
    ]);
  });

  it('manual skipped: no userMessage, no summary, skipped: true, no history replacement', () => {
    const h = projectorHarness({ kind: 'compaction', input: [] });
    const effects = h.project([
      e.event('run_started', { input: '' }, 1_000),
      e.event('context_compaction_started', { trigger: 'manual' }, 1_001),
      completed(1_001, { trigger: 'manual', summary: undefined, history: undefined, skipped: true }),
      e.event('run_completed', { status: 'completed', final_output: null }, 1_002),
    ]);
    expect(describeNotifications(notificationsOf(effects))).toEqual([
      'item/started contextCompaction inProgress',
      'item/completed contextCompaction completed',
    ]);
    const done = notificationsOf(effects)[1].params as Record<string, unknown>;
    expect(done.payload).toEqual({
      trigger: 'manual',
      messagesBefore: 6,
      messagesAfter: 2,
      estimatedTokensBefore: 900,
      estimatedTokensAfter: 120,
      skipped: true,
    });
    expect(effects.some((effect) => effect.kind === 'item' && effect.compactedHistory)).toBe(false);
    const finalization = h.projector.finalize({
      kind: 'finished',
      result: runResult({ completionReason: null, completionToolName: null }),
    });
    expect(finalization.messages).toEqual([]);
    expect(finalization.compactedHistory).toBeUndefined();
    expect(finalization.turnCompleted).not.toHaveProperty('finalOutput');
  });

  it('failed → failed {trigger, error}; interrupted → interrupted', () => {
    const failed = projectorHarness();
    const f = failed.project([
      e.event('context_compaction_started', { trigger: 'auto' }, 1),
      e.event('context_compaction_failed', { trigger: 'auto', error: 'HTTP 400' }, 2),
    ]);
    expect(notificationsOf(f)[1].params).toMatchObject({
      status: 'failed',
      payload: { trigger: 'auto', error: 'HTTP 400' },
    });
    const cancelled = projectorHarness({ kind: 'compaction', input: [] });
    const c = cancelled.project([
      e.event('context_compaction_started', { trigger: 'manual' }, 1),
      e.event('context_compaction_failed', { trigger: 'manual', error: 'stop', interrupted: true }, 2),
    ]);
    expect(notificationsOf(c)[1].params).toMatchObject({ status: 'interrupted', payload: { error: 'stop' } });
  });

  it('a compacted result replaces the history at finalization and carries its prompt-size figure', () => {
    const h = projectorHarness();
    h.project([e.event('run_started', { input: 'hello' }, 1)]);
    const newMessages: Message[] = [{ role: 'user', content: 'hello' }];
    const done = h.projector.finalize({
      kind: 'finished',
      result: runResult({
        newMessages,
        compactedHistory: compacted,
        promptSize: { promptTokens: 50, messagesSince: 1 },
      }),
    });
    expect(done).toMatchObject({
      messages: newMessages,
      compactedHistory: compacted,
      promptSize: { promptTokens: 50, messagesSince: 1 },
    });
  });

  it('a rejected compaction turn appends nothing (it has no user message)', () => {
    const h = projectorHarness({ kind: 'compaction', input: [] });
    const done = h.projector.finalize({ kind: 'rejected', error: 'no model' });
    expect(done.messages).toEqual([]);
    expect(describeNotifications(notificationsOf(done.effects))).toEqual([
      'item/completed error completed',
      'error/warning run_failed',
    ]);
  });
});
