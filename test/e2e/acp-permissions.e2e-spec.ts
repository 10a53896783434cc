/**
 * `session/request_permission` end to end (docs/spec/acp.md §4): the real ACP SDK client answers the built
 * `vv-agent acp`'s permission requests for `bash` (on-request policy) allow, allow_session,
 * reject and cancelled; the marker file a rejected command would create stays absent.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { E2eSandbox } from '../helpers/app-server-session';
import { AcpClientProcess, select, type PermissionAnswer } from '../helpers/acp-client-process';
import { bashReply, finishReply, requestMessages } from '../helpers/model-replies';

jest.setTimeout(45_000);

let sandbox: E2eSandbox;
let client: AcpClientProcess | undefined;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-acp-permissions-e2e-');
});

afterEach(async () => {
  const problems = (await client?.killReportingStdoutProblems()) ?? [];
  client = undefined;
  expect(problems).toEqual([]);
  await sandbox.dispose();
});

const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_session', name: 'Always allow in this session', kind: 'allow_always' },
  { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
];

async function sessionAnswering(
  answer: RequestPermissionResponse | PermissionAnswer,
): Promise<{ acp: AcpClientProcess; sessionId: string }> {
  const permission: PermissionAnswer = typeof answer === 'function' ? answer : () => answer;
  client = AcpClientProcess.spawn(sandbox, { permission });
  await client.initialize();
  const { sessionId } = await client.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
  return { acp: client, sessionId };
}

function prompt(acp: AcpClientProcess, sessionId: string, text: string): Promise<unknown> {
  return acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

/** The `role: "tool"` message contents the model received in request `index`. */
function toolResults(index: number): string {
  return requestMessages(sandbox.model.requests[index].body)
    .filter((message) => message.role === 'tool')
    .map((message) => String(message.content))
    .join('\n');
}

describe('vv-agent acp: permission requests (docs/spec/acp.md §4)', () => {
  it('allow: asks with the pending tool call and the three options, then runs the command', async () => {
    const marker = join(sandbox.workspace, 'allowed.marker');
    sandbox.model.enqueue(bashReply(`touch ${marker}`), finishReply('ran it'));
    const { acp, sessionId } = await sessionAnswering(select('allow'));

    expect(await prompt(acp, sessionId, 'run it')).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(marker)).toBe(true);
    expect(acp.permissionRequests).toEqual([
      {
        sessionId,
        toolCall: {
          toolCallId: 'call_bash',
          title: `Run touch ${marker}`,
          kind: 'execute',
          status: 'pending',
          rawInput: { command: `touch ${marker}` },
        },
        options: OPTIONS,
      },
    ]);
    const calls = acp
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update')
      .map((u) => [u.sessionUpdate, u.status]);
    expect(calls).toEqual([
      ['tool_call', 'pending'],
      ['tool_call_update', 'in_progress'],
      ['tool_call_update', 'completed'],
    ]);
  });

  it('allow_session: later bash calls on the session run without asking again', async () => {
    const first = join(sandbox.workspace, 'first.marker');
    const second = join(sandbox.workspace, 'second.marker');
    sandbox.model.enqueue(
      bashReply(`touch ${first}`, { callId: 'call_1' }),
      finishReply('one'),
      bashReply(`touch ${second}`, { callId: 'call_2' }),
      finishReply('two'),
    );
    const { acp, sessionId } = await sessionAnswering(select('allow_session'));

    expect(await prompt(acp, sessionId, 'first')).toEqual({ stopReason: 'end_turn' });
    expect(await prompt(acp, sessionId, 'second')).toEqual({ stopReason: 'end_turn' });
    expect(existsSync(first)).toBe(true);
    expect(existsSync(second)).toBe(true);
    expect(acp.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['call_1']);
    const second_ = acp
      .updatesOf(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'call_2');
    expect(second_).toEqual([expect.objectContaining({ status: 'in_progress', kind: 'execute' })]);
  });

  it.each<[string, RequestPermissionResponse | PermissionAnswer]>([
    ['reject', select('deny')],
    ['cancelled', { outcome: { outcome: 'cancelled' } }],
    ['an unknown option', select('maybe')],
    [
      'an error response',
      () => {
        throw new Error('the dialog crashed');
      },
    ],
  ])(
    '%s: the command never runs, the call fails and the model is told it was denied',
    async (_how, answer) => {
      const marker = join(sandbox.workspace, 'denied.marker');
      sandbox.model.enqueue(bashReply(`touch ${marker}`), finishReply('did not run'));
      const { acp, sessionId } = await sessionAnswering(answer);

      expect(await prompt(acp, sessionId, 'run it')).toEqual({ stopReason: 'end_turn' });
      expect(existsSync(marker)).toBe(false);
      expect(acp.permissionRequests).toHaveLength(1);
      const calls = acp
        .updatesOf(sessionId)
        .filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
      expect(calls).toEqual([
        expect.objectContaining({ sessionUpdate: 'tool_call', toolCallId: 'call_bash', status: 'pending' }),
        expect.objectContaining({
          sessionUpdate: 'tool_call_update',
          toolCallId: 'call_bash',
          status: 'failed',
          content: [
            {
              type: 'content',
              content: { type: 'text', text: expect.stringContaining('tool_approval_denied') },
            },
          ],
        }),
      ]);
      expect(toolResults(1)).toContain('tool_approval_denied');
    },
  );
});
