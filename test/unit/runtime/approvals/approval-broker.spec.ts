import { ApprovalBroker } from '../../../../src/runtime/approvals/approval-broker';
import { requiresApproval } from '../../../../src/runtime/approvals/approval-policy';
import type { ApprovalRequest } from '../../../../src/runtime/approvals/types';
import type { ToolContext, ToolDefinition, ToolSideEffect } from '../../../../src/runtime/tools/types';

function request(requestId: string, toolName = 'bash'): ApprovalRequest {
  return {
    requestId,
    runId: 'run_1',
    traceId: 'trace_1',
    agentName: 'a',
    cycleIndex: 1,
    toolCallId: 'c',
    toolName,
    arguments: {},
    preview: `${toolName} {}`,
    metadata: {},
  };
}

describe('ApprovalBroker (§8.4)', () => {
  it('first resolution wins and wait removes the entry', async () => {
    const broker = new ApprovalBroker();
    broker.register(request('a1'));
    expect(broker.pendingRequest('a1')?.requestId).toBe('a1');
    broker.resolve('a1', { action: 'allow', reason: 'ok' });
    expect(() => broker.resolve('a1', { action: 'deny' })).toThrow('unknown approval request: a1');
    expect(broker.pendingRequest('a1')).toBeUndefined();
    await expect(broker.wait('a1')).resolves.toEqual({ action: 'allow', reason: 'ok' });
    await expect(broker.wait('a1')).rejects.toThrow('unknown approval request: a1');
  });

  it('resolving an unknown id throws', () => {
    expect(() => new ApprovalBroker().resolve('x', { action: 'allow' })).toThrow(
      'unknown approval request: x',
    );
  });

  it('wait resolves when a later resolve arrives', async () => {
    const broker = new ApprovalBroker();
    broker.register(request('a1'));
    const waiting = broker.wait('a1');
    broker.resolve('a1', { action: 'deny', reason: 'no' });
    await expect(waiting).resolves.toEqual({ action: 'deny', reason: 'no' });
  });

  it('wait times out, removes the entry and later resolves throw', async () => {
    const broker = new ApprovalBroker();
    broker.register(request('a1'));
    await expect(broker.wait('a1', 5)).resolves.toEqual({
      action: 'timeout',
      reason: 'Approval request timed out.',
    });
    expect(() => broker.resolve('a1', { action: 'allow' })).toThrow('unknown approval request: a1');
  });

  it('allow_session grants the tool for later registrations but does not resolve other pending requests', () => {
    const broker = new ApprovalBroker();
    broker.register(request('a1'));
    broker.register(request('a2'));
    broker.resolve('a1', { action: 'allow_session' });
    expect(broker.allowsToolForSession('bash')).toBe(true);
    expect(broker.allowsToolForSession('other')).toBe(false);
    expect(broker.pendingRequest('a2')).toBeDefined();
    broker.register(request('a3'));
    expect(broker.pendingRequest('a3')).toBeUndefined();
    return expect(broker.wait('a3')).resolves.toEqual({ action: 'allow_session' });
  });

  it('cancelPending decides pending requests, counts them, and auto-denies later ones', async () => {
    const broker = new ApprovalBroker();
    broker.register(request('a1'));
    broker.register(request('a2'));
    broker.resolve('a2', { action: 'allow_session' });
    expect(broker.cancelPending('Operation was cancelled')).toBe(1);
    expect(broker.allowsToolForSession('bash')).toBe(false);
    await expect(broker.wait('a1')).resolves.toEqual({ action: 'deny', reason: 'Operation was cancelled' });
    await expect(broker.wait('a2')).resolves.toEqual({ action: 'allow_session' });
    broker.register(request('a3'));
    await expect(broker.wait('a3')).resolves.toEqual({ action: 'deny', reason: 'Operation was cancelled' });
  });
});

describe('requiresApproval (§8.1)', () => {
  const ctx = {} as ToolContext;
  const tool = (side?: ToolSideEffect, needsApproval?: ToolDefinition['needsApproval']) => ({
    needsApproval,
    toolMetadata: side ? { side_effect: side } : undefined,
  });

  it.each([
    ['never', tool('execute', true), false],
    ['on-request', tool(undefined, true), true],
    ['on-request', tool('none', () => true), true],
    ['on-request', tool('none', () => false), false],
    ['on-request', tool(), false],
    ['on-request', tool('read'), false],
    ['on-request', tool('write'), false],
    ['on-request', tool('execute'), true],
    ['on-request', tool('network'), true],
    ['on-request', tool('external'), true],
    ['untrusted', tool('write'), true],
    ['untrusted', tool('read'), false],
    ['untrusted', tool('unknown'), false],
  ] as const)('%s %j → %s', (policy, declaration, expected) => {
    expect(requiresApproval(declaration, {}, policy, ctx)).toBe(expected);
  });

  it.each([
    ['never', 'always', true],
    ['on-request', 'always', true],
    ['untrusted', 'never', false],
    ['on-request', 'never', false],
  ] as const)(
    'policy %s with approvalOverride %s (docs/spec/mcp.md §4) → %s',
    (policy, approvalOverride, expected) => {
      const declaration = { ...tool('execute', true), approvalOverride };
      expect(requiresApproval(declaration, {}, policy, ctx)).toBe(expected);
    },
  );

  it('a throwing predicate requires approval', () => {
    const declaration = tool('none', () => {
      throw new Error('bad');
    });
    expect(requiresApproval(declaration, {}, 'on-request', ctx)).toBe(true);
  });

  it('the predicate sees the arguments', () => {
    const declaration = tool('none', (args) => args.dangerous === true);
    expect(requiresApproval(declaration, { dangerous: true }, 'on-request', ctx)).toBe(true);
    expect(requiresApproval(declaration, { dangerous: false }, 'on-request', ctx)).toBe(false);
  });
});
