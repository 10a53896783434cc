import {
  APPROVAL_REASONS,
  decisionFromAnswer,
  invalidAnswerProblem,
  timeoutDecision,
  type ApprovalAnswer,
} from '../../../../src/core/approvals/approval-answer';
import { approvalResolvedParams } from '../../../../src/core/approvals/approval-projection';
import type { ApprovalDecision } from '../../../../src/runtime/approvals/types';

describe('decisionFromAnswer (docs/spec/protocol.md §9.4)', () => {
  const cases: Array<[string, ApprovalAnswer, ApprovalDecision]> = [
    ['allow', { kind: 'result', result: { decision: 'allow' } }, { action: 'allow' }],
    ['allow_session', { kind: 'result', result: { decision: 'allow_session' } }, { action: 'allow_session' }],
    [
      'deny without reason',
      { kind: 'result', result: { decision: 'deny' } },
      { action: 'deny', reason: 'approval denied' },
    ],
    [
      'timeout without reason',
      { kind: 'result', result: { decision: 'timeout' } },
      { action: 'timeout', reason: 'approval request timed out' },
    ],
    [
      'supplied reason replaces the default',
      { kind: 'result', result: { decision: 'deny', reason: 'Keep the build output' } },
      { action: 'deny', reason: 'Keep the build output' },
    ],
    [
      'reason also for allow',
      { kind: 'result', result: { decision: 'allow', reason: 'looks safe' } },
      { action: 'allow', reason: 'looks safe' },
    ],
    [
      'message when reason is empty',
      { kind: 'result', result: { decision: 'deny', reason: '', message: 'from message' } },
      { action: 'deny', reason: 'from message' },
    ],
    [
      'non-string reason falls back to message',
      { kind: 'result', result: { decision: 'allow_session', reason: 7, message: 'm' } },
      { action: 'allow_session', reason: 'm' },
    ],
    [
      'metadata object is kept',
      { kind: 'result', result: { decision: 'allow', metadata: { by: 'ana' } } },
      { action: 'allow', metadata: { by: 'ana' } },
    ],
    [
      'empty metadata is kept for the runtime',
      { kind: 'result', result: { decision: 'allow', metadata: {} } },
      { action: 'allow', metadata: {} },
    ],
    [
      'array metadata is ignored',
      { kind: 'result', result: { decision: 'allow', metadata: [1] } },
      { action: 'allow' },
    ],
    [
      'case-sensitive decision is invalid',
      { kind: 'result', result: { decision: 'ALLOW', reason: 'ignored' } },
      { action: 'deny', reason: 'invalid approval response' },
    ],
    [
      'missing decision',
      { kind: 'result', result: {} },
      { action: 'deny', reason: 'invalid approval response' },
    ],
    [
      'result null',
      { kind: 'result', result: null },
      { action: 'deny', reason: 'invalid approval response' },
    ],
    [
      'result string',
      { kind: 'result', result: 'allow' },
      { action: 'deny', reason: 'invalid approval response' },
    ],
    ['result array', { kind: 'result', result: [] }, { action: 'deny', reason: 'invalid approval response' }],
    [
      'error answer → timeout with its message',
      { kind: 'error', error: { message: 'user closed the dialog' } },
      { action: 'timeout', reason: 'user closed the dialog' },
    ],
    [
      'error answer without message → default timeout reason',
      { kind: 'error', error: { message: '' } },
      { action: 'timeout', reason: 'approval request timed out' },
    ],
  ];

  it.each(cases)('%s', (_name, answer, expected) => {
    expect(decisionFromAnswer(answer)).toEqual(expected);
  });

  it('states the internal reasons of docs/spec/protocol.md §6 exactly', () => {
    expect(APPROVAL_REASONS).toEqual({
      timedOut: 'approval request timed out',
      clientDisconnected: 'client disconnected',
      turnInterrupted: 'turn interrupted',
      shuttingDown: 'server shutting down',
      denied: 'approval denied',
      invalidResponse: 'invalid approval response',
    });
    expect(timeoutDecision('client disconnected')).toEqual({
      action: 'timeout',
      reason: 'client disconnected',
    });
  });
});

describe('approvalResolvedParams (docs/spec/protocol.md §4.12)', () => {
  const ids = { threadId: 'thread_a', turnId: 'turn_b', requestId: 'approval_c' };

  it.each<[string, ApprovalDecision, Record<string, unknown>]>([
    ['allow_session is never collapsed', { action: 'allow_session' }, { decision: 'allow_session' }],
    ['empty reason omitted', { action: 'allow', reason: '' }, { decision: 'allow' }],
    ['reason kept', { action: 'deny', reason: 'no' }, { decision: 'deny', reason: 'no' }],
    ['empty metadata omitted', { action: 'allow', metadata: {} }, { decision: 'allow' }],
    ['metadata kept', { action: 'allow', metadata: { k: 1 } }, { decision: 'allow', metadata: { k: 1 } }],
  ])('%s', (_name, decision, members) => {
    expect(approvalResolvedParams(ids, decision)).toEqual({ ...ids, ...members });
  });
});

describe('invalidAnswerProblem (the warning behind a deny)', () => {
  const expected = 'expected one of: allow, allow_session, deny, timeout';
  it.each([
    [{ decision: 'allow' }, null],
    [{ decision: 'timeout', reason: 'r' }, null],
    [{ decision: 'approve' }, `decision "approve" is not valid (${expected})`],
    [{ decision: 7 }, `decision 7 is not valid (${expected})`],
    [{ approve: true }, `result has no decision (${expected})`],
    ['yes', `result "yes" is not an object with a decision (${expected})`],
    [null, `result null is not an object with a decision (${expected})`],
    [{ decision: 'x'.repeat(300) }, `decision "${'x'.repeat(199)}… is not valid (${expected})`],
  ])('%j → %s', (result, problem) => {
    expect(invalidAnswerProblem(result)).toBe(problem);
  });
});
