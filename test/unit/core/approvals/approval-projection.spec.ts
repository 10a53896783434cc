import {
  approvalPreview,
  approvalResolvedFromEvent,
  decisionFromResolvedEvent,
} from '../../../../src/core/approvals/approval-projection';
import type { RunEventOf } from '../../../../src/runtime/events/types';
import { RunEventFactory } from '../turns/projector-test-support';

describe('approvalPreview (docs/spec/protocol.md §9.3)', () => {
  it.each<[string, string, Record<string, unknown>, string]>([
    ['bash with a string command', 'bash', { command: 'npm test' }, 'Run npm test'],
    [
      'bash with extra members still shows the command',
      'bash',
      { command: 'rm -r build', timeout: 5 },
      'Run rm -r build',
    ],
    [
      'bash without a string command falls back to JSON',
      'bash',
      { command: ['ls'] },
      'bash {"command":["ls"]}',
    ],
    [
      'another tool: name + compact JSON',
      'write_file',
      { path: 'a.txt', content: 'x' },
      'write_file {"path":"a.txt","content":"x"}',
    ],
    ['empty arguments', 'list_files', {}, 'list_files {}'],
  ])('%s', (_name, tool, args, expected) => {
    expect(approvalPreview(tool, args)).toBe(expected);
  });

  describe('v1.1: control characters are escaped so a dialog or terminal cannot be spoofed', () => {
    it('a carriage return cannot hide the real command behind a harmless one', () => {
      const command = 'rm -rf ~ #\r\x1b[2Kls -la';
      expect(approvalPreview('bash', { command })).toBe('Run rm -rf ~ #\\r\\x1b[2Kls -la');
    });

    it('escapes \\n, \\t, NUL, DEL and C1 controls (CSI U+009B) in every kind of preview', () => {
      expect(approvalPreview('bash', { command: 'a\nb\tc\u0000d\u007fe' })).toBe('Run a\\nb\\tc\\x00d\\x7fe');
      expect(approvalPreview('write_file', { path: 'x\u009b31m' })).toBe('write_file {"path":"x\\u009b31m"}');
    });

    it('escapes before the length rule, so an escape is never cut by the raw length', () => {
      const preview = approvalPreview('bash', { command: '\r'.repeat(150) });
      expect(Array.from(preview)).toHaveLength(200);
      expect(preview).toBe(`Run ${'\\r'.repeat(97)}\\…`);
    });
  });

  it('keeps exactly 200 code points untouched', () => {
    const command = 'x'.repeat(196); // "Run " + 196 = 200
    expect(approvalPreview('bash', { command })).toBe(`Run ${command}`);
  });

  it('cuts longer previews to 199 code points plus …, counting astral characters as one', () => {
    const command = '😀'.repeat(300);
    const preview = approvalPreview('bash', { command });
    expect(Array.from(preview)).toHaveLength(200);
    expect(preview).toBe(`Run ${'😀'.repeat(195)}…`);
    expect(approvalPreview('bash', { command: 'y'.repeat(197) })).toBe(`Run ${'y'.repeat(195)}…`);
  });
});

describe('decision members from approval_resolved', () => {
  const events = new RunEventFactory();
  const resolved = (action: string, metadata?: Record<string, unknown>) =>
    events.event(
      'approval_resolved',
      {
        request_id: 'approval_1',
        tool_call_id: 'call_1',
        tool_name: 'bash',
        action,
        ...(metadata ? { metadata } : {}),
      },
      1_000,
    ) as RunEventOf<'approval_resolved'>;

  it.each<[string, RunEventOf<'approval_resolved'>, Record<string, unknown>]>([
    [
      'allow_session, empty reason and metadata omitted',
      resolved('allow_session', { reason: '', decision_metadata: {} }),
      { decision: 'allow_session' },
    ],
    [
      'deny with a reason',
      resolved('deny', { reason: 'Keep the build output', decision_metadata: {} }),
      { decision: 'deny', reason: 'Keep the build output' },
    ],
    [
      'timeout with reason and metadata',
      resolved('timeout', { reason: 'turn interrupted', decision_metadata: { by: 'ui' } }),
      { decision: 'timeout', reason: 'turn interrupted', metadata: { by: 'ui' } },
    ],
    ['no event metadata at all', resolved('allow'), { decision: 'allow' }],
  ])('%s', (_name, event, expected) => {
    expect(decisionFromResolvedEvent(event)).toEqual(expected);
    expect(approvalResolvedFromEvent('thread_1', 'turn_1', event)).toEqual({
      threadId: 'thread_1',
      turnId: 'turn_1',
      requestId: 'approval_1',
      ...expected,
    });
  });
});
