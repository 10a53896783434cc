import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { finishStep, handshake, paramsOf, textInput, type Scenario } from '../scenario';

/** docs/spec/protocol.md §9.8, recorded: deny through `approval/resolve`; later answers are ignored / rejected. */
export const approvalDenyResolve: Scenario = {
  name: 'approval-deny-resolve',
  title: 'Deny through approval/resolve; a late answer is ignored',
  description: [
    'The client answers the pending approval with the `approval/resolve` request instead of answering',
    'the server request: it gets `{}`, then `approval/resolved` with `decision: "deny"` and its reason.',
    'The tool never runs: one born-failed `toolCall` item (`errorCode: "tool_approval_denied"`,',
    '`executionStarted: false`, no `arguments`) carries the result the model sees, and the turn goes on',
    'to finish normally. After the turn, a late JSON-RPC answer to the old server request is ignored',
    'silently (nothing comes back), and a second `approval/resolve` for it fails with',
    '`-32602 "Unknown approval request"`: the first resolution wins.',
  ].join('\n'),
  modelSteps: [
    {
      content: "I'll remove the build directory.",
      tool_calls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -r build' } }],
    },
    finishStep('Understood. I left the build directory in place.', 'call_finish'),
  ],
  async run(session) {
    await handshake(session);
    const { threadId } = await session.call<{ threadId: string }>('thread/start', { cwd: './workspace' });
    await session.waitForNotification('thread/started', { threadId });
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('Delete the build directory'),
    });
    const request = await session.waitFor((m) => m.method === 'approval/request' && 'id' in m);
    const { requestId } = paramsOf(request);
    await session.call(
      'approval/resolve',
      { threadId, turnId, requestId, decision: 'deny', reason: 'Keep the build output' },
      'resolves the pending approval without answering the server request',
    );
    await session.waitForNotification('turn/completed', { threadId });
    session.send(
      { jsonrpc: '2.0', id: request.id, result: { decision: 'allow' } },
      'a late answer to the already resolved server request: ignored, nothing is sent back',
    );
    await session.request(
      'approval/resolve',
      { threadId, turnId, requestId, decision: 'allow' },
      'resolving again fails: the first resolution won',
    );
  },
  verify(workspace) {
    if (!existsSync(join(workspace, 'build', 'app.js'))) throw new Error('the denied `rm -r build` ran');
  },
};
