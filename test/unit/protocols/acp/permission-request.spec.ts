import { permissionAnswer, permissionRequest } from '../../../../src/protocols/acp/permission-request';

describe('session/request_permission (docs/spec/acp.md §4)', () => {
  it('asks about the pending tool call with the allow / allow_session / deny options', () => {
    expect(
      permissionRequest({
        requestId: 'req_1',
        threadId: 'thread_1',
        turnId: 'turn_1',
        toolCallId: 'call_1',
        toolName: 'bash',
        preview: 'Run rm -rf build',
        arguments: { command: 'rm -rf build' },
      }),
    ).toEqual({
      sessionId: 'thread_1',
      toolCall: {
        toolCallId: 'call_1',
        title: 'Run rm -rf build',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'rm -rf build' },
      },
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'allow_session', name: 'Always allow in this session', kind: 'allow_always' },
        { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
      ],
    });
  });

  it.each<[Parameters<typeof permissionAnswer>[0], string]>([
    [{ outcome: { outcome: 'selected', optionId: 'allow' } }, 'allow'],
    [{ outcome: { outcome: 'selected', optionId: 'allow_session' } }, 'allow_session'],
    [{ outcome: { outcome: 'selected', optionId: 'deny' } }, 'deny'],
    [{ outcome: { outcome: 'selected', optionId: 'ALLOW' } }, 'deny'],
    [{ outcome: { outcome: 'cancelled' } }, 'deny'],
    [null, 'deny'],
  ])('%j → %s', (response, decision) => {
    expect(permissionAnswer(response)).toEqual({ kind: 'result', result: { decision } });
  });
});
