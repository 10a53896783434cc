import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import {
  ACP_PAUSE_AT,
  ACP_RESUME_AT,
  AcpSessionConnection,
  type AcpClientPort,
} from '../../../../../src/protocols/acp/delivery/acp-session-connection';
import type { TurnCompletedParams } from '../../../../../src/core/model/types';

/** Records what the connection writes; permission answers are settled by the test. */
class RecordingPort implements AcpClientPort {
  readonly written: Array<
    { sessionId: string; update: SessionUpdate } | { permission: RequestPermissionRequest }
  > = [];
  readonly answers: Array<(response: RequestPermissionResponse) => void> = [];
  readonly cancellations: AbortSignal[] = [];

  sessionUpdate(sessionId: string, update: SessionUpdate): Promise<void> {
    this.written.push({ sessionId, update });
    return Promise.resolve();
  }

  requestPermission(
    params: RequestPermissionRequest,
    cancellation: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    this.written.push({ permission: params });
    this.cancellations.push(cancellation);
    return new Promise((resolve) => this.answers.push(resolve));
  }
}

const delta = (text: string): object => ({ type: 'agentMessage', payload: { text }, delta: text });
const completed = (turnId: string): TurnCompletedParams =>
  ({ threadId: 't', turnId, runId: 'r', status: 'completed' }) as TurnCompletedParams;
const APPROVAL = {
  requestId: 'req_1',
  threadId: 't',
  turnId: 'u',
  toolCallId: 'c1',
  toolName: 'bash',
  preview: 'Run ls',
  arguments: { command: 'ls' },
};

function texts(port: RecordingPort): string[] {
  return port.written.flatMap((w) =>
    'update' in w && w.update.sessionUpdate === 'agent_message_chunk' && w.update.content.type === 'text'
      ? [w.update.content.text]
      : [],
  );
}

describe('AcpSessionConnection', () => {
  it('answers a waiting prompt only after every update of its turn was written', async () => {
    const port = new RecordingPort();
    const connection = new AcpSessionConnection('acp-1', port);
    connection.openSession('t', '/w');
    const done = connection.awaitTurn('t', 'u');
    connection.deliver('t', 'agentMessageTextDelta', delta('a'));
    connection.deliver('t', 'turnCompleted', completed('other-turn'));
    connection.deliver('t', 'agentMessageTextDelta', delta('b'));
    connection.deliver('t', 'turnCompleted', completed('u'));
    expect(await done).toMatchObject({ turnId: 'u' });
    expect(texts(port)).toEqual(['a', 'b']);
    expect(connection.hasActivePrompt('t')).toBe(false);
  });

  it('holds a thread’s events during a load and sends them after what was sent meanwhile', async () => {
    const port = new RecordingPort();
    const connection = new AcpSessionConnection('acp-1', port);
    connection.hold('t');
    connection.deliver('t', 'agentMessageTextDelta', delta('live'));
    connection.send('t', [
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'replayed' } },
    ]);
    connection.release('t');
    await connection.flushed();
    expect(texts(port)).toEqual(['replayed', 'live']);
  });

  it('asks for permission after the updates already produced, and maps the selected option', async () => {
    const port = new RecordingPort();
    const connection = new AcpSessionConnection('acp-1', port);
    connection.openSession('t', '/w');
    connection.deliver('t', 'approvalRequested', APPROVAL);
    const answer = connection.askPermission(APPROVAL);
    await connection.flushed();
    expect(port.written.map((w) => ('permission' in w ? 'permission' : w.update.sessionUpdate))).toEqual([
      'tool_call',
      'permission',
    ]);
    port.answers[0]({ outcome: { outcome: 'selected', optionId: 'allow_session' } });
    expect(await answer).toEqual({ kind: 'result', result: { decision: 'allow_session' } });
  });

  it('settles a withdrawn question as withdrawn and cancels the request; a later answer is ignored', async () => {
    const port = new RecordingPort();
    const connection = new AcpSessionConnection('acp-1', port);
    const answer = connection.askPermission(APPROVAL);
    await connection.flushed();
    connection.withdrawPermission('req_1');
    expect(await answer).toEqual({ kind: 'withdrawn' });
    expect(port.cancellations[0].aborted).toBe(true);
    port.answers[0]({ outcome: { outcome: 'cancelled' } });
  });

  it('on close: waiting prompts fail and open questions settle as closed', async () => {
    const connection = new AcpSessionConnection('acp-1', new RecordingPort());
    const prompt = connection.awaitTurn('t', 'u');
    const question = connection.askPermission(APPROVAL);
    connection.close();
    await expect(prompt).rejects.toThrow('connection closed');
    expect(await question).toEqual({ kind: 'closed' });
    expect(await connection.askPermission(APPROVAL)).toEqual({ kind: 'closed' });
  });

  describe('pacing (docs/spec/protocol.md §1.8, issue 45 item 13)', () => {
    /** A client that does not read: each write settles only when the test lets it. */
    class StalledPort extends RecordingPort {
      readonly pending: Array<() => void> = [];

      override sessionUpdate(sessionId: string, update: SessionUpdate): Promise<void> {
        this.written.push({ sessionId, update });
        return new Promise((resolve) => this.pending.push(resolve));
      }

      /** Lets the client read `count` messages, one write at a time (the connection chains them). */
      async read(count: number): Promise<void> {
        for (let n = 0; n < count; n += 1) {
          while (this.pending.length === 0) await new Promise((resolve) => setImmediate(resolve));
          this.pending.shift()?.();
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    const settledNow = async (promise: Promise<void>): Promise<boolean> => {
      let settled = false;
      void promise.then(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));
      return settled;
    };

    it('caughtUp waits once ACP_PAUSE_AT messages are unwritten and settles at ACP_RESUME_AT', async () => {
      const port = new StalledPort();
      const connection = new AcpSessionConnection('acp-1', port);
      connection.openSession('t', '/w');
      for (let n = 0; n < ACP_PAUSE_AT - 1; n += 1)
        connection.deliver('t', 'agentMessageTextDelta', delta('x'));
      expect(connection.backlog).toBe(ACP_PAUSE_AT - 1);
      expect(await settledNow(connection.caughtUp())).toBe(true);

      connection.deliver('t', 'agentMessageTextDelta', delta('x'));
      const caughtUp = connection.caughtUp();
      expect(connection.caughtUp()).toBe(caughtUp);
      await port.read(ACP_PAUSE_AT - ACP_RESUME_AT - 1);
      expect(connection.backlog).toBe(ACP_RESUME_AT + 1);
      expect(await settledNow(caughtUp)).toBe(false);
      await port.read(1);
      expect(connection.backlog).toBe(ACP_RESUME_AT);
      expect(await settledNow(caughtUp)).toBe(true);
    });

    it('a closed connection never holds a turn back', async () => {
      const port = new StalledPort();
      const connection = new AcpSessionConnection('acp-1', port);
      connection.openSession('t', '/w');
      for (let n = 0; n < ACP_PAUSE_AT; n += 1) connection.deliver('t', 'agentMessageTextDelta', delta('x'));
      const caughtUp = connection.caughtUp();
      expect(await settledNow(caughtUp)).toBe(false);
      connection.close();
      expect(await settledNow(caughtUp)).toBe(true);
      expect(await settledNow(connection.caughtUp())).toBe(true);
    });
  });
});
