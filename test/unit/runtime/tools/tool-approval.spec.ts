/** Approval flow per call through a real run (docs/spec/runtime.md §8.5). */
import { ApprovalBroker } from '../../../../src/runtime/approvals/approval-broker';
import type { ApprovalProvider, ApprovalRequest } from '../../../../src/runtime/approvals/types';
import { finish } from '../../../../src/runtime/model/scripted-model';
import {
  eventsOf,
  lifecycleTypes,
  makeAgent,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
  toolMessages,
  waitForEvent,
} from '../runtime-test-kit';

/** Waits on the broker (decide → null), recording every request it is asked about. */
function brokerWaitingProvider(shouldRequest = true): ApprovalProvider & { requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    shouldRequest: (request) => {
      requests.push(request);
      return shouldRequest;
    },
    decide: async () => null,
  };
}

describe('approval flow', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  const gated = () => recordingTool('deploy', { toolMetadata: { side_effect: 'execute' } });

  it('allow via RunHandle.approve: events carry the request id and metadata', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy', { value: 'prod' })] }, finish('done')],
      workspace.path,
    );
    const provider = brokerWaitingProvider();
    const handle = runner.start(makeAgent({ tools: [tool] }), 'ship', {
      approvalProvider: provider,
      metadata: { session_id: 'thread_9' },
    });
    const requested = await waitForEvent(handle.events(), 'approval_requested');
    expect(requested).toMatchObject({
      tool_call_id: 'c1',
      tool_name: 'deploy',
      message: 'Approval required for tool deploy.',
      metadata: { arguments: { value: 'prod' }, tool_name: 'deploy' },
    });
    expect(requested.request_id).toMatch(/^approval_[0-9a-f]{32}$/);
    expect(provider.requests[0]).toMatchObject({
      requestId: requested.request_id,
      runId: handle.runId,
      traceId: handle.traceId,
      agentName: 'tester',
      cycleIndex: 1,
      toolCallId: 'c1',
      toolName: 'deploy',
      arguments: { value: 'prod' },
      preview: 'deploy {"value":"prod"}',
      metadata: { session_id: 'thread_9' },
    });
    await handle.approve(requested.request_id, { action: 'allow', metadata: { by: 'alice' } });
    await expect(handle.approve(requested.request_id, { action: 'deny' })).rejects.toThrow(
      `unknown approval request: ${requested.request_id}`,
    );
    const result = await handle.result();
    expect(eventsOf(result.events, 'approval_resolved')[0]).toMatchObject({
      request_id: requested.request_id,
      action: 'allow',
      metadata: { reason: '', decision_metadata: { by: 'alice' } },
    });
    expect(tool.calls).toEqual([{ value: 'prod' }]);
  });

  it('approve rejects for an unknown request id', async () => {
    const { runner } = scriptedRunner([finish('x')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    await expect(handle.approve('approval_nope', { action: 'allow' })).rejects.toThrow(
      'unknown approval request: approval_nope',
    );
    await handle.result();
  });

  it('allow_session: later calls of the tool run without approval events', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [
        { tool_calls: [toolCall('c1', 'deploy')] },
        { tool_calls: [toolCall('c2', 'deploy')] },
        finish('done'),
      ],
      workspace.path,
    );
    const provider: ApprovalProvider = {
      shouldRequest: () => true,
      decide: async () => ({ action: 'allow_session' }),
    };
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x', { approvalProvider: provider });
    expect(eventsOf(result.events, 'approval_requested')).toHaveLength(1);
    expect(tool.calls).toHaveLength(2);
  });

  it('shouldRequest false runs the tool without approval events', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('done')],
      workspace.path,
    );
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x', {
      approvalProvider: brokerWaitingProvider(false),
    });
    expect(eventsOf(result.events, 'approval_requested')).toEqual([]);
    expect(tool.calls).toEqual([{}]);
  });

  it('deny without a reason uses the default message', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('done')],
      workspace.path,
    );
    const provider: ApprovalProvider = {
      shouldRequest: () => true,
      decide: async () => ({ action: 'deny' }),
    };
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x', { approvalProvider: provider });
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Approval denied for tool deploy.',
      error_code: 'tool_approval_denied',
      tool_name: 'deploy',
    });
    expect(result.status).toBe('completed');
  });

  it('timeout: the broker wait limit produces tool_approval_timeout', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('done')],
      workspace.path,
    );
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x', {
      approvalProvider: brokerWaitingProvider(),
      approvalTimeoutMs: 20,
    });
    expect(eventsOf(result.events, 'approval_resolved')[0]).toMatchObject({
      action: 'timeout',
      metadata: { reason: 'Approval request timed out.', decision_metadata: {} },
    });
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Approval request timed out.',
      error_code: 'tool_approval_timeout',
      tool_name: 'deploy',
    });
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      execution_started: false,
      duration_ms: null,
    });
    expect(tool.calls).toEqual([]);
  });

  it('a timeout decision with a reason keeps the reason', async () => {
    const tool = gated();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('done')],
      workspace.path,
    );
    const handle = runner.start(makeAgent({ tools: [tool] }), 'x', {
      approvalProvider: brokerWaitingProvider(),
    });
    const requested = await waitForEvent(handle.events(), 'approval_requested');
    await handle.approve(requested.request_id, { action: 'timeout', reason: 'client disconnected' });
    const result = await handle.result();
    expect(JSON.parse(toolMessages(result)[0].content).error).toBe('client disconnected');
  });

  it('cancel while pending: deny("Operation was cancelled"), tool_execution_cancelled, run_cancelled', async () => {
    const tool = gated();
    const broker = new ApprovalBroker();
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('c1', 'deploy')] }, finish('done')],
      workspace.path,
    );
    const handle = runner.start(makeAgent({ tools: [tool] }), 'x', {
      approvalProvider: brokerWaitingProvider(),
      approvalBroker: broker,
    });
    const requested = await waitForEvent(handle.events(), 'approval_requested');
    expect(broker.pendingRequest(requested.request_id)).toBeDefined();
    expect(handle.cancel('stop now')).toBe(true);
    const result = await handle.result();
    expect(lifecycleTypes(result.events).slice(-4)).toEqual([
      'approval_requested',
      'approval_resolved',
      'tool_call_completed',
      'run_cancelled',
    ]);
    expect(eventsOf(result.events, 'approval_resolved')[0]).toMatchObject({
      action: 'deny',
      metadata: { reason: 'Operation was cancelled' },
    });
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Operation was cancelled',
      error_code: 'tool_execution_cancelled',
    });
    expect(result).toMatchObject({ status: 'failed', completionReason: 'cancelled', error: 'stop now' });
    expect(tool.calls).toEqual([]);
  });

  it('provider error: approval_provider_error, no approval_resolved, the run fails with its message', async () => {
    const tool = gated();
    const broker = new ApprovalBroker();
    const { runner } = scriptedRunner(
      [{ content: 'Deploying.', tool_calls: [toolCall('c1', 'deploy'), toolCall('c2', 'deploy')] }],
      workspace.path,
    );
    let requestId = '';
    const provider: ApprovalProvider = {
      shouldRequest: () => true,
      decide: async (request) => {
        requestId = request.requestId;
        throw new Error('approval backend down');
      },
    };
    const result = await runner.run(makeAgent({ tools: [tool] }), 'x', {
      approvalProvider: provider,
      approvalBroker: broker,
    });
    expect(eventsOf(result.events, 'approval_resolved')).toEqual([]);
    expect(broker.pendingRequest(requestId)).toBeUndefined();
    expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
      error_code: 'approval_provider_error',
      execution_started: false,
    });
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Approval provider failed.',
      error_code: 'approval_provider_error',
    });
    expect(result).toMatchObject({
      status: 'failed',
      completionReason: 'failed',
      error: 'approval backend down',
      partialOutput: 'Deploying.',
    });
    // The second call never ran and is repaired in newMessages.
    expect(JSON.parse(toolMessages(result)[1].content).error_code).toBe('run_ended');
    expect(eventsOf(result.events, 'run_failed')[0]).toMatchObject({ error: 'approval backend down' });
  });

  it('untrusted policy gates write tools; on-request does not', async () => {
    const writer = () => recordingTool('save', { toolMetadata: { side_effect: 'write' } });
    for (const [policy, expectedCode] of [
      ['on-request', null],
      ['untrusted', 'tool_approval_required'],
    ] as const) {
      const tool = writer();
      const { runner } = scriptedRunner(
        [{ tool_calls: [toolCall('c1', 'save')] }, finish('done')],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: [tool] }), 'x', { approvalPolicy: policy });
      expect(eventsOf(result.events, 'tool_call_completed')[0].error_code).toBe(expectedCode);
    }
  });
});
