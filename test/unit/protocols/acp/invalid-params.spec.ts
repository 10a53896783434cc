import { invalidParamsMessage } from '../../../../src/protocols/acp/invalid-params';

describe('invalid params name the member (docs/spec/acp.md §2)', () => {
  it('names a top-level member', () => {
    expect(
      invalidParamsMessage({
        _errors: [],
        cwd: { _errors: ['Invalid input: expected string, received number'] },
      }),
    ).toBe('Invalid params: cwd: Invalid input: expected string, received number');
  });

  it('prefers the member that is present but wrong over the other union branches', () => {
    const tree = {
      _errors: [],
      mcpServers: {
        _errors: [],
        0: {
          _errors: [],
          url: { _errors: ['Invalid input: expected string, received undefined'] },
          type: { _errors: ['Invalid input: expected "http"'] },
          command: { _errors: ['Invalid input: expected string, received number'] },
        },
      },
    };
    expect(invalidParamsMessage(tree)).toBe(
      'Invalid params: mcpServers[0].command: Invalid input: expected string, received number',
    );
  });

  it('names a missing member when nothing else is wrong, and nothing without a tree', () => {
    expect(
      invalidParamsMessage({
        _errors: [],
        sessionId: { _errors: ['Invalid input: expected string, received undefined'] },
      }),
    ).toBe('Invalid params: sessionId: Invalid input: expected string, received undefined');
    expect(invalidParamsMessage(undefined)).toBeNull();
    expect(invalidParamsMessage({ _errors: ['x'] })).toBeNull();
  });
});
