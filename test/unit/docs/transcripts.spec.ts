/**
 * The recorded transcripts of docs/transcripts/ (scripts/generate-doc-transcripts.ts) against the
 * committed JSON Schemas and the ordering / behaviour the guides promise (docs/spec/protocol.md §7.5, §8, §9).
 * Every client message must match `ClientRequest` / `ApprovalResponse`, every server message
 * `JsonRpcMessage` + `ServerNotification` / `ServerRequest`, and every response the result schema of
 * the method it answers. Lines recorded as `raw` are the deliberately malformed ones: they must NOT
 * pass client validation, or the error sample would not be demonstrating anything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SCENARIOS } from '../../../scripts/doc-transcripts/scenarios';
import {
  CLIENT_TO_SERVER,
  parseTranscript,
  type TranscriptLine,
  type WireMessage,
} from '../../../scripts/doc-transcripts/transcript-format';
import { assertValidClientMessage, ProtocolTranscriptValidator } from '../../helpers/schema-validation';

const TRANSCRIPT_DIR = resolve(__dirname, '../../../docs/transcripts');

function load(name: string): TranscriptLine[] {
  return parseTranscript(readFileSync(join(TRANSCRIPT_DIR, `${name}.jsonl`), 'utf8'));
}

function serverMessages(lines: readonly TranscriptLine[]): WireMessage[] {
  return lines
    .filter((line) => line.direction !== CLIENT_TO_SERVER)
    .map((line) => (line as { message: WireMessage }).message);
}

function paramsOf(message: WireMessage): Record<string, unknown> {
  return (message.params ?? {}) as Record<string, unknown>;
}

function notifications(lines: readonly TranscriptLine[], method: string): Array<Record<string, unknown>> {
  return serverMessages(lines)
    .filter((m) => m.method === method && !('id' in m))
    .map(paramsOf);
}

/** The answer to the client request with this id (the first response or error carrying it). */
function answerTo(lines: readonly TranscriptLine[], id: unknown): WireMessage {
  const answer = serverMessages(lines).find((m) => !('method' in m) && m.id === id);
  if (answer === undefined) throw new Error(`no answer to request ${JSON.stringify(id)}`);
  return answer;
}

function requestId(lines: readonly TranscriptLine[], method: string, nth = 0): unknown {
  const requests = lines.filter(
    (line): line is Extract<TranscriptLine, { message: WireMessage }> =>
      line.direction === CLIENT_TO_SERVER && 'message' in line && line.message.method === method,
  );
  return requests[nth].message.id;
}

describe('docs/transcripts', () => {
  it('holds exactly one transcript per recorded scenario', () => {
    const files = readdirSync(TRANSCRIPT_DIR).filter((name) => name.endsWith('.jsonl'));
    expect(files.sort()).toEqual(SCENARIOS.map((s) => `${s.name}.jsonl`).sort());
  });

  describe.each(SCENARIOS.map((s) => s.name))('%s.jsonl', (name) => {
    const lines = load(name);

    it('validates every client and server message against the committed schemas', () => {
      const validator = new ProtocolTranscriptValidator();
      for (const line of lines) {
        if (line.direction !== CLIENT_TO_SERVER) validator.server(line.message);
        else if ('message' in line) validator.client(line.message);
        else expect(() => assertValidClientMessage(JSON.parse(line.raw))).toThrow();
      }
    });

    it('answers every client request exactly once, with its id', () => {
      const answers = serverMessages(lines).filter((m) => !('method' in m));
      for (const line of lines) {
        if (line.direction !== CLIENT_TO_SERVER || !('message' in line)) continue;
        const { message } = line;
        if (typeof message.method !== 'string' || !('id' in message)) continue;
        expect(answers.filter((a) => a.id === message.id)).toHaveLength(1);
      }
    });

    it('emits nothing of a turn before its turn/started or after its turn/completed (§7.5)', () => {
      const phase = new Map<string, 'started' | 'completed'>();
      for (const message of serverMessages(lines)) {
        const turnId = paramsOf(message).turnId;
        if (typeof message.method !== 'string' || typeof turnId !== 'string') continue;
        if (message.method === 'turn/started') {
          expect(phase.has(turnId)).toBe(false);
          phase.set(turnId, 'started');
          continue;
        }
        expect(phase.get(turnId)).toBe('started');
        if (message.method === 'turn/completed') phase.set(turnId, 'completed');
      }
      expect([...phase.values()].every((state) => state === 'completed')).toBe(true);
    });
  });

  it('turn-finish-and-replay: thread/read replays each item as its last notification without delta (§8.5)', () => {
    const lines = load('turn-finish-and-replay');
    const last = new Map<string, Record<string, unknown>>();
    for (const message of serverMessages(lines)) {
      if (typeof message.method !== 'string' || !message.method.startsWith('item/')) continue;
      const { delta: _delta, ...item } = paramsOf(message);
      last.set(item.itemId as string, item);
    }
    const read = answerTo(lines, requestId(lines, 'thread/read')).result as { items: unknown[] };
    expect(read.items).toEqual([...last.values()]);
    const completed = notifications(lines, 'turn/completed')[0];
    expect(completed).toMatchObject({
      status: 'completed',
      completionReason: 'tool_finish',
      tokenUsage: {
        input_tokens: 1915,
        cache_usage: { status: 'accounting_missing', read_input_tokens: null, source: 'aggregate' },
      },
    });
    const cycles = (completed.tokenUsage as { cycles: Array<{ usage: { cache_usage: unknown } }> }).cycles;
    expect(cycles.map((c) => c.usage.cache_usage)).toEqual([
      expect.objectContaining({ status: 'provider_reported', read_input_tokens: 0 }),
      expect.objectContaining({ status: 'accounting_missing', read_input_tokens: null }),
    ]);
  });

  it('approval-allow-session: one approval, decision kept, the second turn runs bash without asking', () => {
    const lines = load('approval-allow-session');
    expect(serverMessages(lines).filter((m) => m.method === 'approval/request')).toHaveLength(1);
    expect(notifications(lines, 'approval/resolved')).toEqual([
      expect.objectContaining({ decision: 'allow_session' }),
    ]);
    const bashRuns = notifications(lines, 'item/completed').filter(
      (item) => item.type === 'toolCall' && (item.payload as Record<string, unknown>).toolName === 'bash',
    );
    expect(bashRuns.map((item) => item.status)).toEqual(['completed', 'completed']);
    expect(new Set(bashRuns.map((item) => item.turnId)).size).toBe(2);
  });

  it('approval-deny-resolve: the tool is reported denied, later resolutions are rejected', () => {
    const lines = load('approval-deny-resolve');
    expect(notifications(lines, 'approval/resolved')).toEqual([
      expect.objectContaining({ decision: 'deny', reason: 'Keep the build output' }),
    ]);
    const denied = notifications(lines, 'item/completed').find((item) => item.type === 'toolCall');
    expect(denied).toMatchObject({
      status: 'failed',
      payload: { toolName: 'bash', errorCode: 'tool_approval_denied', executionStarted: false },
    });
    expect(denied?.payload).not.toHaveProperty('arguments');
    expect(answerTo(lines, requestId(lines, 'approval/resolve', 1)).error).toEqual({
      code: -32602,
      message: 'Unknown approval request',
    });
  });

  it('steer-follow-up-interrupt: steered message, interrupted turn, then the follow-up turn', () => {
    const lines = load('steer-follow-up-interrupt');
    const items = notifications(lines, 'item/completed');
    expect(items).toContainEqual(
      expect.objectContaining({ type: 'userMessage', payload: expect.objectContaining({ steered: true }) }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        type: 'toolCall',
        payload: expect.objectContaining({ errorCode: 'skipped_due_to_steering' }),
      }),
    );
    expect(notifications(lines, 'approval/resolved')).toEqual([
      expect.objectContaining({ decision: 'timeout', reason: 'turn interrupted' }),
    ]);
    const completed = notifications(lines, 'turn/completed');
    expect(completed.map((c) => [c.status, c.completionReason, c.error])).toEqual([
      ['interrupted', 'cancelled', 'user pressed stop'],
      ['completed', 'tool_finish', undefined],
    ]);
  });

  it('reconnect-after-item-id: the resume snapshot holds only what changed after the last item seen', () => {
    const lines = load('reconnect-after-item-id');
    const resumeLine = lines.findIndex(
      (line) =>
        line.direction === CLIENT_TO_SERVER && 'message' in line && line.message.method === 'thread/resume',
    );
    const resume = (lines[resumeLine] as { message: WireMessage }).message;
    const afterItemId = paramsOf(resume).afterItemId;
    const seenFinal = new Set(
      serverMessages(lines.slice(0, resumeLine))
        .filter((m) => m.method === 'item/completed')
        .map((m) => paramsOf(m).itemId),
    );
    const snapshot = answerTo(lines, resume.id).result as {
      thread: { status: string };
      items: Array<{ itemId: string; status: string }>;
    };
    expect(snapshot.thread.status).toBe('running');
    expect(snapshot.items.map((item) => [item.itemId, item.status])).toEqual([[afterItemId, 'completed']]);
    expect(snapshot.items.some((item) => seenFinal.has(item.itemId))).toBe(false);
  });

  it('thread-lifecycle: opted-out deltas never arrive; ask_user ends the turn waiting for the user', () => {
    const lines = load('thread-lifecycle');
    expect(notifications(lines, 'item/agentMessage/delta')).toEqual([]);
    expect(notifications(lines, 'turn/completed')[0]).toMatchObject({
      status: 'interrupted',
      completionReason: 'wait_user',
      completionToolName: 'ask_user',
      finalOutput: 'Which directory should I clean: build/ or dist/?',
      partialOutput: 'I found two build output folders.',
    });
    expect(notifications(lines, 'thread/status/changed').map((p) => p.status)).toEqual([
      'running',
      'idle',
      'closed',
      'archived',
    ]);
  });

  it('errors: samples every error code except -32001', () => {
    const codes = new Set(
      serverMessages(load('errors'))
        .filter((m) => 'error' in m)
        .map((m) => (m.error as { code: number }).code),
    );
    expect([...codes].sort()).toEqual(
      [-32700, -32600, -32601, -32602, -32603, -32010, -32011, -32020, -32021, -32030, -32031].sort(),
    );
  });
});
