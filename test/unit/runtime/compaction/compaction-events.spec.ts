/** The compaction run events in the strict reader (docs/spec/runtime.md §6.6 rules applied to docs/spec/history.md §1 events). */
import { parseRunEvent } from '../../../../src/runtime/events/run-event-reader';

const ENVELOPE = {
  version: 'v2',
  event_id: 'evt_1',
  run_id: 'run_1',
  trace_id: 'trace_1',
  created_at: 1,
  agent_name: 'a',
};
const COMPLETED = {
  ...ENVELOPE,
  type: 'context_compaction_completed',
  trigger: 'auto',
  messages_before: 7,
  messages_after: 3,
  estimated_tokens_before: 900,
  estimated_tokens_after: 200,
  summary: 'S',
  history: [{ role: 'user', content: 'Summary of the conversation so far:\nS' }],
};

describe('compaction events in the strict reader', () => {
  it.each([
    ['started', { ...ENVELOPE, type: 'context_compaction_started', trigger: 'manual', cycle_index: 2 }],
    ['completed', COMPLETED],
    ['completed, skipped', { ...COMPLETED, summary: undefined, history: undefined, skipped: true }],
    ['failed', { ...ENVELOPE, type: 'context_compaction_failed', trigger: 'auto', error: 'boom' }],
    [
      'failed, interrupted',
      { ...ENVELOPE, type: 'context_compaction_failed', trigger: 'manual', error: 'x', interrupted: true },
    ],
  ])('accepts %s', (_name, event) => {
    const json = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
    expect(parseRunEvent(json)).toEqual(json);
  });

  it.each([
    [
      { ...ENVELOPE, type: 'context_compaction_started' },
      'run event context_compaction_started is missing required fields: trigger',
    ],
    [
      { ...ENVELOPE, type: 'context_compaction_started', trigger: 'sometimes' },
      'run event context_compaction_started has an invalid trigger: expected one of auto, manual',
    ],
    [
      { ...COMPLETED, messages_after: -1 },
      'run event context_compaction_completed has an invalid messages_after: expected a non-negative integer',
    ],
    [
      { ...COMPLETED, history: [{ content: 'no role' }] },
      'run event context_compaction_completed has an invalid history: expected an array of conversation messages',
    ],
    [{ ...COMPLETED, extra: 1 }, 'run event context_compaction_completed contains unknown fields: extra'],
    [
      { ...ENVELOPE, type: 'context_compaction_failed', trigger: 'auto' },
      'run event context_compaction_failed is missing required fields: error',
    ],
  ])('rejects case %#', (event, message) => {
    expect(() => parseRunEvent(event)).toThrow(message);
  });
});
