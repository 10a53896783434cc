import { ApprovalBroker } from '../../../../src/runtime/approvals/approval-broker';
import type { ApprovalProvider } from '../../../../src/runtime/approvals/types';
import type { Message } from '../../../../src/runtime/messages';
import { prepareRunConfig, type RunConfigContext } from '../../../../src/core/turns/run-config-preparation';

const serverProvider: ApprovalProvider = {
  shouldRequest: () => true,
  decide: async () => null,
};
const history: Message[] = [
  { role: 'user', content: 'earlier question' },
  { role: 'assistant', content: 'earlier answer' },
];

function context(overrides: Partial<RunConfigContext> = {}): RunConfigContext {
  return {
    threadId: 'thread_1',
    turnId: 'turn_1',
    requestMetadata: { title: 'from thread', tenant: 'acme' },
    history,
    defaultApprovalPolicy: 'on-request',
    defaultApprovalTimeoutMs: 30_000,
    approvalProvider: serverProvider,
    approvalBroker: new ApprovalBroker(),
    ...overrides,
  };
}

describe('prepareRunConfig (docs/spec/protocol.md §10.2)', () => {
  it('installs the server provider, a fresh broker, the default policy and the history', () => {
    const ctx = context();
    const { config, approvalTimeoutMs } = prepareRunConfig({ maxCycles: 3 }, ctx);
    expect(config.approvalProvider).toBe(serverProvider);
    expect(config.approvalBroker).toBe(ctx.approvalBroker);
    expect(config.approvalPolicy).toBe('on-request');
    expect(config.initialMessages).toEqual(history);
    expect(config.initialMessages).not.toBe(history);
    expect(config.maxCycles).toBe(3);
    expect(approvalTimeoutMs).toBe(30_000);
    expect('approvalTimeoutMs' in config).toBe(false);
  });

  it('keeps what the host set and removes approvalTimeoutMs from the runtime config', () => {
    const hostProvider: ApprovalProvider = { shouldRequest: () => false, decide: async () => null };
    const hostBroker = new ApprovalBroker();
    const hostHistory: Message[] = [{ role: 'user', content: 'host history' }];
    const { config, approvalTimeoutMs } = prepareRunConfig(
      {
        approvalProvider: hostProvider,
        approvalBroker: hostBroker,
        approvalPolicy: 'never',
        approvalTimeoutMs: 1234,
        initialMessages: hostHistory,
        workspace: '/w',
      },
      context(),
    );
    expect(config.approvalProvider).toBe(hostProvider);
    expect(config.approvalBroker).toBe(hostBroker);
    expect(config.approvalPolicy).toBe('never');
    expect(config.initialMessages).toBe(hostHistory);
    expect(config.workspace).toBe('/w');
    expect(approvalTimeoutMs).toBe(1234);
    expect('approvalTimeoutMs' in config).toBe(false);
  });

  it('layers metadata host < request and always writes the three ids', () => {
    const { config } = prepareRunConfig(
      { metadata: { agent_key: 'default', tenant: 'host', thread_id: 'spoofed' } },
      context({
        requestMetadata: { tenant: 'acme', turn_id: 'spoofed', session_id: 'spoofed', title: 't' },
      }),
    );
    expect(config.metadata).toEqual({
      agent_key: 'default',
      tenant: 'acme',
      title: 't',
      thread_id: 'thread_1',
      turn_id: 'turn_1',
      session_id: 'thread_1',
    });
  });

  it('uses the server default policy only when the host sets none', () => {
    expect(prepareRunConfig({}, context({ defaultApprovalPolicy: 'untrusted' })).config.approvalPolicy).toBe(
      'untrusted',
    );
    expect(
      prepareRunConfig({ approvalPolicy: 'on-request' }, context({ defaultApprovalPolicy: 'never' })).config
        .approvalPolicy,
    ).toBe('on-request');
  });

  it('passes the stored prompt-size figure with the stored history only (docs/spec/history.md §1)', () => {
    const promptSize = { promptTokens: 1234, messagesSince: 1 };
    expect(prepareRunConfig({}, context({ promptSize })).config.promptSize).toEqual(promptSize);
    expect(prepareRunConfig({}, context()).config).not.toHaveProperty('promptSize');
    // A host history is not the stored one: the stored figure does not describe it.
    const own = prepareRunConfig({ initialMessages: [] }, context({ promptSize })).config;
    expect(own).not.toHaveProperty('promptSize');
  });
});
