/**
 * The approval flow end to end (docs/spec/protocol.md §3.13, §4.11, §4.12, §4.14, §7.3, §9, §14.2): the real CLI
 * over stdio, a real store (a sqlite file, then a PostgreSQL database), a real HTTP model server on 127.0.0.1 that asks for `bash` /
 * `write_file` calls, and a real workspace directory on which the tools' side effects are checked.
 * Build first (`npm run build`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  E2eSandbox,
  ID_PATTERN,
  describeMessage,
  eventually,
  isTurnCompleted,
  lastItemStates,
  paramsOf,
  type AppServerSession,
  type JsonMessage,
  type SpawnOptions,
  currentTransport,
  storeDriversForTransport,
} from '../helpers/app-server-session';
import {
  assistantReply,
  bashReply,
  finishReply,
  gate,
  providerUsage,
  requestMessages,
} from '../helpers/model-replies';

jest.setTimeout(45_000);

// docs/spec/postgres.md §1: approvals live in turns whose items and results are stored: both drivers.
describe.each(storeDriversForTransport())(
  `approvals over ${currentTransport()} [%s store]`,
  (storeDriver) => {
    let sandbox: E2eSandbox;

    beforeEach(async () => {
      sandbox = await E2eSandbox.create('vv-approvals-e2e-', { storeDriver });
    });

    afterEach(async () => {
      await sandbox.dispose();
    });

    async function ready(
      options?: SpawnOptions,
      capabilities?: Record<string, unknown>,
    ): Promise<AppServerSession> {
      const session = sandbox.spawn(options);
      await session.initialize(capabilities);
      return session;
    }

    const textInput = (text: string) => [{ type: 'text', text }];
    const BASH_METADATA = {
      sideEffect: 'execute',
      idempotency: 'unsupported',
      terminal: false,
      capabilityTags: [],
      costDimensions: [],
    };
    const UNKNOWN_APPROVAL = { code: -32602, message: 'Unknown approval request' };

    const isApprovalRequest = (m: JsonMessage): boolean => m.method === 'approval/request' && 'id' in m;
    const isApprovalResolved = (m: JsonMessage): boolean => m.method === 'approval/resolved';

    /** Starts a thread whose cwd is the sandbox workspace and a turn on it; returns the ids. */
    async function startTurn(
      session: AppServerSession,
      text: string,
    ): Promise<{ threadId: string; turnId: string }> {
      const { threadId } = await session.startThread({ cwd: sandbox.workspace });
      const { turnId } = await session.call<{ turnId: string }>('turn/start', {
        threadId,
        input: textInput(text),
      });
      return { threadId, turnId };
    }

    function payloadOf(m: JsonMessage): Record<string, unknown> {
      return paramsOf(m).payload as Record<string, unknown>;
    }

    /** The toolCall item/completed notifications of a call id. */
    function toolCompletions(traffic: JsonMessage[], toolCallId: string): JsonMessage[] {
      return traffic.filter(
        (m) =>
          m.method === 'item/completed' &&
          paramsOf(m).type === 'toolCall' &&
          payloadOf(m).toolCallId === toolCallId,
      );
    }

    /** A not-executed toolCall completion (§9.7), with the accepted tool-result `error` texts. */
    function expectRefusedTool(
      traffic: JsonMessage[],
      toolCallId: string,
      errorCode: string,
      acceptedErrors: string[],
    ): void {
      const completions = toolCompletions(traffic, toolCallId);
      expect(completions).toHaveLength(1);
      const started = traffic.filter(
        (m) =>
          m.method === 'item/started' &&
          paramsOf(m).type === 'toolCall' &&
          payloadOf(m).toolCallId === toolCallId,
      );
      expect(started).toEqual([]);
      const params = paramsOf(completions[0]);
      expect(params.status).toBe('failed');
      const payload = payloadOf(completions[0]);
      expect(payload).toEqual({
        toolCallId,
        toolName: 'bash',
        toolMetadata: BASH_METADATA,
        status: 'error',
        directive: 'continue',
        errorCode,
        executionStarted: false,
        durationMs: null,
        output: expect.any(String),
        outputTruncated: false,
      });
      const output = JSON.parse(String(payload.output)) as Record<string, unknown>;
      expect(output).toEqual({
        ok: false,
        error: expect.any(String),
        error_code: errorCode,
        tool_name: 'bash',
      });
      expect(acceptedErrors).toContain(output.error);
    }

    describe('approval round trip with bash (§14.2)', () => {
      it('allow_session runs the call, later bash calls of the thread run without approval traffic', async () => {
        sandbox.model.enqueue(
          bashReply('echo one > one.txt && echo wrote-one', {
            content: ["I'll run the command."],
            callId: 'call_Zp4Qe7Lm',
            usage: providerUsage(905, 41, 0),
          }),
          bashReply('echo two > two.txt && echo wrote-two', {
            callId: 'call_second',
            usage: providerUsage(950, 20),
          }),
          finishReply('All done.', {
            content: ['All done.'],
            callId: 'call_Hx9Vb2Nc',
            usage: providerUsage(1010, 29),
          }),
        );
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'Run the commands');

        const upToRequest = await session.collectUntil(isApprovalRequest);
        expect(upToRequest.map(describeMessage)).toEqual([
          'thread/status/changed(running)',
          'turn/started',
          'item/completed(userMessage)',
          'item/started(agentMessage)',
          'item/agentMessage/delta(agentMessage)',
          'item/completed(agentMessage)',
          'item/started(approval)',
          'approval/requested',
          'approval/request',
        ]);
        const request = upToRequest[upToRequest.length - 1];
        const requestId = String(request.id);
        expect(requestId).toMatch(ID_PATTERN.approval);
        const requestParams = {
          requestId,
          threadId,
          turnId,
          toolCallId: 'call_Zp4Qe7Lm',
          toolName: 'bash',
          preview: 'Run echo one > one.txt && echo wrote-one',
          arguments: { command: 'echo one > one.txt && echo wrote-one' },
          // docs/spec/sandbox.md §4: the default boundary.
          sandbox: { mode: 'workspace-write', network: false },
        };
        expect(request).toEqual({
          jsonrpc: '2.0',
          id: requestId,
          method: 'approval/request',
          params: requestParams,
        });
        expect(upToRequest[7]).toEqual({
          jsonrpc: '2.0',
          method: 'approval/requested',
          params: requestParams,
        });
        const approvalStarted = paramsOf(upToRequest[6]);
        expect(approvalStarted).toEqual({
          itemId: expect.stringMatching(ID_PATTERN.item),
          threadId,
          turnId,
          type: 'approval',
          status: 'inProgress',
          payload: {
            requestId,
            toolCallId: 'call_Zp4Qe7Lm',
            toolName: 'bash',
            preview: 'Run echo one > one.txt && echo wrote-one',
            arguments: { command: 'echo one > one.txt && echo wrote-one' },
            sandbox: { mode: 'workspace-write', network: false },
          },
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        });
        // Not executed while pending.
        expect(existsSync(join(sandbox.workspace, 'one.txt'))).toBe(false);

        session.answer(requestId, { decision: 'allow_session' });
        const rest = await session.collectUntil(isTurnCompleted(threadId));
        expect(rest.map(describeMessage)).toEqual([
          'approval/resolved',
          'item/completed(approval)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'item/started(agentMessage)',
          'item/agentMessage/delta(agentMessage)',
          'item/completed(agentMessage)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(rest[0])).toEqual({ threadId, turnId, requestId, decision: 'allow_session' });
        expect(paramsOf(rest[1])).toEqual({
          ...approvalStarted,
          status: 'completed',
          payload: { ...(approvalStarted.payload as object), decision: 'allow_session' },
          updatedAt: expect.any(Number),
        });
        expect(paramsOf(rest[4])).toMatchObject({
          type: 'toolCall',
          status: 'completed',
          payload: {
            toolCallId: 'call_Zp4Qe7Lm',
            toolName: 'bash',
            arguments: { command: 'echo one > one.txt && echo wrote-one' },
            toolMetadata: BASH_METADATA,
            status: 'success',
            directive: 'continue',
            errorCode: null,
            executionStarted: true,
            output: 'wrote-one\n',
            outputTruncated: false,
            sandbox: { mode: 'workspace-write', network: false },
          },
        });
        expect(paramsOf(rest[4]).itemId).toBe(paramsOf(rest[2]).itemId);
        expect(payloadOf(rest[7])).toMatchObject({
          toolCallId: 'call_second',
          status: 'success',
          output: 'wrote-two\n',
        });
        expect(readFileSync(join(sandbox.workspace, 'one.txt'), 'utf8')).toBe('one\n');
        expect(readFileSync(join(sandbox.workspace, 'two.txt'), 'utf8')).toBe('two\n');

        const completed = paramsOf(rest[rest.length - 1]);
        expect(completed).toMatchObject({
          status: 'completed',
          finalOutput: 'All done.',
          completionReason: 'tool_finish',
        });
        const usage = completed.tokenUsage as Record<string, unknown>;
        expect(usage).toMatchObject({
          input_tokens: 905 + 950 + 1010,
          output_tokens: 41 + 20 + 29,
          cache_usage: {
            status: 'accounting_missing',
            read_input_tokens: null,
            write_input_tokens: null,
            uncached_input_tokens: null,
            source: 'aggregate',
          },
        });
        const cycles = usage.cycles as Array<{ cycle_index: number; usage: Record<string, unknown> }>;
        expect(cycles.map((c) => c.cycle_index)).toEqual([1, 2, 3]);
        expect(cycles[0].usage.cache_usage).toEqual({
          status: 'provider_reported',
          read_input_tokens: 0,
          write_input_tokens: null,
          uncached_input_tokens: 905,
          source: 'provider_usage',
        });

        // A later turn of the same thread: bash runs with no approval traffic at all.
        sandbox.model.enqueue(
          bashReply('echo three > three.txt', { callId: 'call_third' }),
          finishReply('Third done.', { callId: 'call_finish_3' }),
        );
        await session.call('turn/start', { threadId, input: textInput('Once more') });
        const second = await session.collectUntil(isTurnCompleted(threadId));
        expect(
          second.some((m) => String(m.method).startsWith('approval/') || paramsOf(m).type === 'approval'),
        ).toBe(false);
        expect(payloadOf(toolCompletions(second, 'call_third')[0])).toMatchObject({ status: 'success' });
        expect(existsSync(join(sandbox.workspace, 'three.txt'))).toBe(true);

        // The grant never crosses threads: a new thread asks again.
        sandbox.model.enqueue(
          bashReply('echo four > four.txt', { callId: 'call_fourth' }),
          finishReply('no'),
        );
        const other = await startTurn(session, 'Other thread');
        const otherRequest = await session.waitFor(isApprovalRequest);
        expect(paramsOf(otherRequest)).toMatchObject({ threadId: other.threadId, toolCallId: 'call_fourth' });
        session.answer(otherRequest.id, { decision: 'deny' });
        await session.collectUntil(isTurnCompleted(other.threadId));
        expect(existsSync(join(sandbox.workspace, 'four.txt'))).toBe(false);

        // Replay holds the approval item in its final state.
        const read = await session.call<{ items: unknown[] }>('thread/read', { threadId });
        expect(read.items).toEqual(lastItemStates([...upToRequest, ...rest, ...second]));
        expect(session.expectCleanStdout().filter((m) => 'error' in m)).toEqual([]);
      });

      it('allow runs the call once; the next call asks again; reason falls back to result.message', async () => {
        sandbox.model.enqueue(
          bashReply('echo a > allowed.txt', { callId: 'call_a' }),
          bashReply('echo b > allowed-again.txt', { callId: 'call_b' }),
          finishReply('done', { callId: 'call_f' }),
        );
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'allow it');

        const first = await session.waitFor(isApprovalRequest);
        // Unmatched answers are ignored silently and leave the request pending (§1.7).
        session.answer('approval_00000000000000000000000000000000', { decision: 'deny' });
        session.answerError(null, { code: -32000, message: 'nobody' });
        session.answer(42, { decision: 'deny' });
        const quiet = await session.drain();
        expect(quiet.filter((m) => 'error' in m || isApprovalResolved(m))).toEqual([]);

        session.answer(first.id, { decision: 'allow', reason: 'looks safe' });
        const resolved = await session.waitFor(isApprovalResolved);
        expect(paramsOf(resolved)).toEqual({
          threadId,
          turnId,
          requestId: first.id,
          decision: 'allow',
          reason: 'looks safe',
        });
        // A duplicate answer for the resolved request is ignored.
        session.answer(first.id, { decision: 'deny' });

        const secondRequest = await session.waitFor(isApprovalRequest);
        expect(secondRequest.id).not.toBe(first.id);
        expect(paramsOf(secondRequest)).toMatchObject({
          toolCallId: 'call_b',
          preview: 'Run echo b > allowed-again.txt',
        });
        session.answer(secondRequest.id, { decision: 'allow', message: 'ok again' });
        const secondResolved = await session.waitFor(isApprovalResolved);
        expect(paramsOf(secondResolved)).toMatchObject({ decision: 'allow', reason: 'ok again' });

        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'completed' });
        expect(existsSync(join(sandbox.workspace, 'allowed.txt'))).toBe(true);
        expect(existsSync(join(sandbox.workspace, 'allowed-again.txt'))).toBe(true);
        session.answer(first.id, { decision: 'deny' });
        expect(await session.drain()).toEqual([]);
        const all = session.expectCleanStdout();
        expect(all.filter((m) => isApprovalResolved(m) && paramsOf(m).requestId === first.id)).toHaveLength(
          1,
        );
        expect(all.filter((m) => 'error' in m)).toEqual([]);
      });

      it('deny through the response: the command does not run, the model sees the refusal, metadata is echoed', async () => {
        sandbox.model.enqueue(
          bashReply('touch denied.txt', { callId: 'call_deny' }),
          finishReply('I did not touch it.', { callId: 'call_f' }),
        );
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'touch a file');
        const request = await session.waitFor(isApprovalRequest);
        session.answer(request.id, { decision: 'deny', metadata: { source: 'dialog' } });

        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const resolved = traffic.filter(isApprovalResolved);
        expect(resolved.map(paramsOf)).toEqual([
          {
            threadId,
            turnId,
            requestId: request.id,
            decision: 'deny',
            reason: 'approval denied',
            metadata: { source: 'dialog' },
          },
        ]);
        const approvalItem = traffic.find(
          (m) => m.method === 'item/completed' && paramsOf(m).type === 'approval',
        );
        expect(approvalItem && payloadOf(approvalItem)).toMatchObject({
          requestId: request.id,
          decision: 'deny',
          reason: 'approval denied',
          metadata: { source: 'dialog' },
        });
        expectRefusedTool(traffic, 'call_deny', 'tool_approval_denied', [
          'approval denied',
          'Approval denied for tool bash.',
        ]);
        expect(existsSync(join(sandbox.workspace, 'denied.txt'))).toBe(false);
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
          status: 'completed',
          finalOutput: 'I did not touch it.',
        });

        // The tool message given to the model is the refusal.
        const toolMessage = requestMessages(sandbox.model.requests[1].body).find((m) => m.role === 'tool');
        expect(toolMessage).toMatchObject({ tool_call_id: 'call_deny' });
        expect(JSON.parse(String(toolMessage?.content))).toMatchObject({
          ok: false,
          error_code: 'tool_approval_denied',
        });
      });

      it('deny through approval/resolve (§9.8): response {}, approval/resolved, refusal with the given reason', async () => {
        mkdirSync(join(sandbox.workspace, 'build'));
        writeFileSync(join(sandbox.workspace, 'build', 'out.js'), 'built');
        sandbox.model.enqueue(
          bashReply('rm -r build', { callId: 'call_Rb7Tn2Qx' }),
          finishReply('Understood. I left the build directory in place.', {
            content: ['Understood. I left the build directory in place.'],
            callId: 'call_Wm3Kd8Pe',
          }),
        );
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'Delete the build directory');
        const request = await session.waitFor(isApprovalRequest);
        const requestId = String(request.id);
        expect(paramsOf(request)).toMatchObject({
          preview: 'Run rm -r build',
          arguments: { command: 'rm -r build' },
        });

        // Non-matching resolves leave the request pending.
        expect(
          await session.failure('approval/resolve', {
            threadId,
            turnId: 'turn_00000000000000000000000000000000',
            requestId,
            decision: 'deny',
          }),
        ).toEqual(UNKNOWN_APPROVAL);
        expect(
          await session.failure('approval/resolve', { threadId, turnId, requestId, decision: 'DENY' }),
        ).toEqual({
          code: -32602,
          message: 'Invalid params: /decision must be one of: allow, allow_session, deny, timeout',
          data: {
            errors: [{ path: '/decision', message: 'must be one of: allow, allow_session, deny, timeout' }],
          },
        });

        const resolveId = 'resolve-1';
        session.send({
          jsonrpc: '2.0',
          id: resolveId,
          method: 'approval/resolve',
          params: { threadId, turnId, requestId, decision: 'deny', reason: 'Keep the build output' },
        });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const responseIndex = traffic.findIndex((m) => m.id === resolveId);
        expect(traffic[responseIndex]).toEqual({ jsonrpc: '2.0', id: resolveId, result: {} });
        const afterResponse = traffic.slice(responseIndex + 1);
        expect(afterResponse.map(describeMessage)).toEqual([
          'approval/resolved',
          'item/completed(approval)',
          'item/completed(toolCall)',
          'item/started(agentMessage)',
          'item/agentMessage/delta(agentMessage)',
          'item/completed(agentMessage)',
          'item/started(toolCall)',
          'item/toolCall/delta(toolCall)',
          'item/completed(toolCall)',
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(afterResponse[0])).toEqual({
          threadId,
          turnId,
          requestId,
          decision: 'deny',
          reason: 'Keep the build output',
        });
        expect(payloadOf(afterResponse[1])).toEqual({
          requestId,
          toolCallId: 'call_Rb7Tn2Qx',
          toolName: 'bash',
          preview: 'Run rm -r build',
          arguments: { command: 'rm -r build' },
          sandbox: { mode: 'workspace-write', network: false },
          decision: 'deny',
          reason: 'Keep the build output',
        });
        expect(paramsOf(afterResponse[2])).toEqual({
          itemId: expect.stringMatching(ID_PATTERN.item),
          threadId,
          turnId,
          type: 'toolCall',
          status: 'failed',
          payload: {
            toolCallId: 'call_Rb7Tn2Qx',
            toolName: 'bash',
            toolMetadata: BASH_METADATA,
            status: 'error',
            directive: 'continue',
            errorCode: 'tool_approval_denied',
            executionStarted: false,
            durationMs: null,
            output:
              '{"ok":false,"error":"Keep the build output","error_code":"tool_approval_denied","tool_name":"bash"}',
            outputTruncated: false,
          },
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        });
        expect(existsSync(join(sandbox.workspace, 'build', 'out.js'))).toBe(true);

        // Resolved requests are gone: approval/resolve answers -32602, a late response is ignored.
        expect(
          await session.failure('approval/resolve', { threadId, turnId, requestId, decision: 'allow' }),
        ).toEqual(UNKNOWN_APPROVAL);
        session.answer(requestId, { decision: 'allow' });
        expect(await session.drain()).toEqual([]);
      });
    });

    describe('answers that do not allow', () => {
      it('a JSON-RPC error answer resolves as timeout with the error message; opt-out never hides the server request', async () => {
        sandbox.model.enqueue(bashReply('touch err.txt', { callId: 'call_err' }), finishReply('ok'));
        const session = await ready(undefined, {
          optOutNotificationMethods: ['approval/requested', 'item/started'],
        });
        const { threadId, turnId } = await startTurn(session, 'x');
        const request = await session.waitFor(isApprovalRequest);
        expect(
          session.child.received.some(
            (m) => m.method === 'approval/requested' || m.method === 'item/started',
          ),
        ).toBe(false);
        session.answerError(request.id, { code: -32000, message: 'dialog closed by user' });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        expect(traffic.filter(isApprovalResolved).map(paramsOf)).toEqual([
          { threadId, turnId, requestId: request.id, decision: 'timeout', reason: 'dialog closed by user' },
        ]);
        expectRefusedTool(traffic, 'call_err', 'tool_approval_timeout', [
          'dialog closed by user',
          'Approval request timed out.',
        ]);
        expect(existsSync(join(sandbox.workspace, 'err.txt'))).toBe(false);
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({ status: 'completed' });
      });

      it('an invalid decision or a non-object result is a deny with "invalid approval response"', async () => {
        // A long command with astral code points: the preview is cut at 199 code points plus "…" (§9.3).
        const longCommand = `touch upper.txt # ${'😀'.repeat(250)}`;
        sandbox.model.enqueue(
          bashReply(longCommand, { callId: 'call_upper' }),
          bashReply('touch string.txt', { callId: 'call_string' }),
          finishReply('ok'),
        );
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'x');
        const first = await session.waitFor(isApprovalRequest);
        const preview = String(paramsOf(first).preview);
        expect([...preview]).toHaveLength(200);
        expect(preview).toBe(`${[...`Run ${longCommand}`].slice(0, 199).join('')}…`);
        expect(paramsOf(first).arguments).toEqual({ command: longCommand });
        session.answer(first.id, { decision: 'ALLOW', reason: 'supplied reasons are ignored here' });
        const second = await session.waitFor(isApprovalRequest);
        session.answer(second.id, 'yes');
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const resolved = session.child.received.filter(isApprovalResolved).map(paramsOf);
        expect(resolved).toEqual([
          { threadId, turnId, requestId: first.id, decision: 'deny', reason: 'invalid approval response' },
          { threadId, turnId, requestId: second.id, decision: 'deny', reason: 'invalid approval response' },
        ]);
        expectRefusedTool(traffic, 'call_upper', 'tool_approval_denied', [
          'invalid approval response',
          'Approval denied for tool bash.',
        ]);
        expectRefusedTool(traffic, 'call_string', 'tool_approval_denied', [
          'invalid approval response',
          'Approval denied for tool bash.',
        ]);
        expect(existsSync(join(sandbox.workspace, 'upper.txt'))).toBe(false);
        expect(existsSync(join(sandbox.workspace, 'string.txt'))).toBe(false);
        // The operator sees why: one warning per bad answer on stderr, naming the bad value.
        expect(session.child.stderr).toContain(
          `approval ${first.id} (bash): invalid approval response, treated as deny: decision "ALLOW" is not valid (expected one of: allow, allow_session, deny, timeout)`,
        );
        expect(session.child.stderr).toContain(
          `approval ${second.id} (bash): invalid approval response, treated as deny: result "yes" is not an object with a decision`,
        );
      });

      it('times out after --approval-timeout-seconds 1; the turn continues; late answers are ignored', async () => {
        sandbox.model.enqueue(
          bashReply('touch late.txt', { callId: 'call_late' }),
          finishReply('gave up', { content: ['gave up'] }),
        );
        const session = await ready({ args: ['--approval-timeout-seconds', '1'] });
        const { threadId, turnId } = await startTurn(session, 'x');
        const request = await session.waitFor(isApprovalRequest);
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        expect(traffic.filter(isApprovalResolved).map(paramsOf)).toEqual([
          {
            threadId,
            turnId,
            requestId: request.id,
            decision: 'timeout',
            reason: 'approval request timed out',
          },
        ]);
        const approvalItem = traffic.find(
          (m) => m.method === 'item/completed' && paramsOf(m).type === 'approval',
        );
        expect(approvalItem && paramsOf(approvalItem)).toMatchObject({
          status: 'completed',
          payload: { decision: 'timeout' },
        });
        expectRefusedTool(traffic, 'call_late', 'tool_approval_timeout', [
          'approval request timed out',
          'Approval request timed out.',
        ]);
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
          status: 'completed',
          finalOutput: 'gave up',
        });

        session.answer(request.id, { decision: 'allow' });
        expect(
          await session.failure('approval/resolve', {
            threadId,
            turnId,
            requestId: request.id,
            decision: 'allow',
          }),
        ).toEqual(UNKNOWN_APPROVAL);
        expect(await session.drain()).toEqual([]);
        expect(existsSync(join(sandbox.workspace, 'late.txt'))).toBe(false);
      });

      it('turn/interrupt while pending: response, approval/resolved "turn interrupted", turn interrupted', async () => {
        sandbox.model.enqueue(bashReply('touch interrupted.txt', { callId: 'call_int' }));
        const session = await ready();
        const { threadId, turnId } = await startTurn(session, 'x');
        const request = await session.waitFor(isApprovalRequest);

        session.send({
          jsonrpc: '2.0',
          id: 'stop',
          method: 'turn/interrupt',
          params: { threadId, reason: 'user stop' },
        });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const responseIndex = traffic.findIndex((m) => m.id === 'stop');
        expect(traffic[responseIndex]).toEqual({
          jsonrpc: '2.0',
          id: 'stop',
          result: { threadId, turnId, cancelled: true },
        });
        expect(paramsOf(traffic[responseIndex + 1])).toEqual({
          threadId,
          turnId,
          requestId: request.id,
          decision: 'timeout',
          reason: 'turn interrupted',
        });
        expect(traffic[responseIndex + 1].method).toBe('approval/resolved');
        expect(traffic.filter(isApprovalResolved)).toHaveLength(1);
        const approvalIndex = traffic.findIndex(
          (m) => m.method === 'item/completed' && paramsOf(m).type === 'approval',
        );
        expect(approvalIndex).toBeGreaterThan(responseIndex + 1);
        expect(paramsOf(traffic[approvalIndex]).status).toBe('completed');

        const [completion] = toolCompletions(traffic, 'call_int');
        expect(paramsOf(completion)).toMatchObject({ status: 'failed' });
        expect(payloadOf(completion)).toMatchObject({
          errorCode: 'tool_execution_cancelled',
          executionStarted: false,
          output: '{"ok":false,"error":"Operation was cancelled","error_code":"tool_execution_cancelled"}',
        });
        expect(traffic.slice(-2).map(describeMessage)).toEqual([
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(traffic[traffic.length - 1])).toMatchObject({
          status: 'interrupted',
          completionReason: 'cancelled',
          error: 'user stop',
        });
        expect(existsSync(join(sandbox.workspace, 'interrupted.txt'))).toBe(false);
        expect(sandbox.model.requests).toHaveLength(1);

        expect(
          await session.failure('approval/resolve', {
            threadId,
            turnId,
            requestId: request.id,
            decision: 'allow',
          }),
        ).toEqual(UNKNOWN_APPROVAL);
        session.answer(request.id, { decision: 'allow' });
        expect(await session.drain()).toEqual([]);
      });
    });

    describe('ownership and policies', () => {
      it('an owner that unsubscribed still receives approval/request (§7.3)', async () => {
        const hold = gate();
        sandbox.model.enqueue(
          bashReply('touch owner.txt', { callId: 'call_owner', gate: hold.promise }),
          finishReply('ok'),
        );
        const session = await ready();
        const { threadId } = await startTurn(session, 'x');
        expect(await session.call('thread/unsubscribe', { threadId })).toMatchObject({ closed: false });
        await session.drain();
        const mark = session.child.received.length;
        hold.open();

        const request = await session.waitFor(isApprovalRequest);
        expect(paramsOf(request)).toMatchObject({ threadId, toolCallId: 'call_owner' });
        session.answer(request.id, { decision: 'deny', reason: 'not now' });
        const read = await eventually(async () => {
          const result = await session.call<{
            turns: Array<Record<string, unknown>>;
            items: Array<Record<string, unknown>>;
          }>('thread/read', { threadId });
          return result.turns[0]?.status === 'completed' ? result : undefined;
        });
        expect(read.items.find((i) => i.type === 'approval')).toMatchObject({
          status: 'completed',
          payload: { decision: 'deny', reason: 'not now' },
        });
        // Only the server request reached the unsubscribed owner: no notifications of the thread.
        const later = session.child.received.slice(mark).filter((m) => typeof m.method === 'string');
        expect(later.map(describeMessage)).toEqual(['approval/request']);
        expect(existsSync(join(sandbox.workspace, 'owner.txt'))).toBe(false);
      });

      it('--approval-policy never runs bash without approval traffic', async () => {
        sandbox.model.enqueue(bashReply('echo ran > never.txt', { callId: 'call_never' }), finishReply('ok'));
        const session = await ready({ args: ['--approval-policy', 'never'] });
        const { threadId } = await startTurn(session, 'x');
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        expect(
          traffic.some((m) => String(m.method).startsWith('approval/') || paramsOf(m).type === 'approval'),
        ).toBe(false);
        expect(payloadOf(toolCompletions(traffic, 'call_never')[0])).toMatchObject({ status: 'success' });
        expect(readFileSync(join(sandbox.workspace, 'never.txt'), 'utf8')).toBe('ran\n');
      });

      it('--approval-policy untrusted asks before write_file', async () => {
        sandbox.model.enqueue(
          assistantReply([
            { id: 'call_write', name: 'write_file', arguments: { path: 'note.txt', content: 'hello' } },
          ]),
          finishReply('written'),
        );
        const session = await ready({ args: ['--approval-policy', 'untrusted'] });
        const { threadId, turnId } = await startTurn(session, 'x');
        const request = await session.waitFor(isApprovalRequest);
        expect(paramsOf(request)).toEqual({
          requestId: request.id,
          threadId,
          turnId,
          toolCallId: 'call_write',
          toolName: 'write_file',
          preview: 'write_file {"path":"note.txt","content":"hello"}',
          arguments: { path: 'note.txt', content: 'hello' },
        });
        expect(existsSync(join(sandbox.workspace, 'note.txt'))).toBe(false);
        session.answer(request.id, { decision: 'allow' });
        const traffic = await session.collectUntil(isTurnCompleted(threadId));
        const [completion] = traffic.filter(
          (m) =>
            m.method === 'item/completed' &&
            paramsOf(m).type === 'toolCall' &&
            payloadOf(m).toolCallId === 'call_write',
        );
        expect(payloadOf(completion)).toMatchObject({
          toolName: 'write_file',
          status: 'success',
          toolMetadata: { sideEffect: 'write', idempotency: 'unsupported', terminal: false },
        });
        expect(readFileSync(join(sandbox.workspace, 'note.txt'), 'utf8')).toBe('hello');
      });
    });

    describe('shutdown while an approval is pending (§9.5, §1.9)', () => {
      it('stdin EOF resolves it as timeout "server shutting down", interrupts the turn and exits 0', async () => {
        sandbox.model.enqueue(bashReply('touch shutdown.txt', { callId: 'call_shutdown' }));
        const session = await ready({ store: 'shutdown.sqlite' });
        const { threadId, turnId } = await startTurn(session, 'x');
        const request = await session.waitFor(isApprovalRequest);

        expect(await session.close()).toEqual({ code: 0, signal: null });
        const rest = session.child.takeUnread();
        expect(rest.filter(isApprovalResolved).map(paramsOf)).toEqual([
          { threadId, turnId, requestId: request.id, decision: 'timeout', reason: 'server shutting down' },
        ]);
        expect(rest.slice(-2).map(describeMessage)).toEqual([
          'thread/status/changed(idle)',
          'turn/completed',
        ]);
        expect(paramsOf(rest[rest.length - 1])).toMatchObject({
          turnId,
          status: 'interrupted',
          completionReason: 'cancelled',
          error: 'server shutting down',
        });
        expect(existsSync(join(sandbox.workspace, 'shutdown.txt'))).toBe(false);

        const after = await ready({ store: 'shutdown.sqlite' });
        const read = await after.call<{
          thread: Record<string, unknown>;
          turns: Array<Record<string, unknown>>;
        }>('thread/read', { threadId });
        expect(read.thread.status).toBe('idle');
        expect(read.turns[0]).toMatchObject({
          status: 'interrupted',
          result: { completionReason: 'cancelled', error: 'server shutting down' },
        });
      });
    });
  },
);
