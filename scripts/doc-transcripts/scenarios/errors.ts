import { handshake, textInput, type Scenario } from '../scenario';
import type { TranscriptSession } from '../transcript-session';

const UNKNOWN_THREAD = 'thread_00000000000000000000000000000000';
const UNKNOWN_TURN = 'turn_00000000000000000000000000000000';
const UNKNOWN_APPROVAL = 'approval_00000000000000000000000000000000';
const MAX_MESSAGE_BYTES = 1024;

/** Sends a malformed request line carrying the next integer id and waits for its error. */
function badRequest(session: TranscriptSession, build: (id: number) => string, note: string) {
  const id = session.peekNextId();
  return session.requestRaw(build(id), id, note);
}

/** docs/spec/protocol.md §6: one sample of (almost) every error code, and a turn whose model call fails. */
export const errors: Scenario = {
  name: 'errors',
  title: 'Error samples: framing, handshake, params, threads, turns, approvals, host, run failure',
  description: [
    `The server runs with \`--max-message-bytes ${MAX_MESSAGE_BYTES}\` so that an oversized line is cheap to show.`,
    'Lines recorded as `raw` are deliberately malformed (they do not match the `ClientRequest` schema).',
    'In order: a request before `initialize` (`-32010`); a truncated JSON line (`-32700`, `id: null`);',
    '`"jsonrpc":"1.0"` (`-32600`, id echoed); an empty batch (`-32600`, `id: null`); a line over the',
    'limit (`-32600` with `data.reason: "input_too_large"`); a blank client name; a second `initialize`',
    '(`-32011`); an unknown method (`-32601`); missing and invalid params (`-32602` with',
    '`data.errors`); an unknown thread (`-32020`); a bad `input`; steering without an active turn',
    '(`-32030`); a second `turn/start` on a busy thread; a wrong `expectedTurnId` (`-32031`); an',
    'unknown approval; a bad decision; params for `schema/export`; a bad `thread/list` cursor; a host',
    'failure (`-32603 workspace directory not found: …`, the absolute path of the missing `cwd`); a turn',
    'on an archived thread (`-32021`); and',
    'finally a turn whose model call fails: an `error` item, `error/warning {code:"run_failed"}`, and',
    '`turn/completed` with `status: "failed"`. Overload (`-32001`) needs more than 128 queued requests',
    'and is not recorded here.',
  ].join('\n'),
  extraArgs: ['--max-message-bytes', String(MAX_MESSAGE_BYTES)],
  modelSteps: [{ content: 'Working on it.', delay_ms: 30_000 }, { error: 'HTTP 503' }],
  async run(session) {
    await session.request('thread/list', {}, 'before initialize');
    await session.requestRaw('{"jsonrpc":"2.0","method":"thread/list",', null, 'truncated JSON');
    await badRequest(
      session,
      (id) => `{"jsonrpc":"1.0","id":${id},"method":"model/list"}`,
      'wrong jsonrpc version',
    );
    await session.requestRaw('[]', null, 'batches are not supported');
    const padding = 'x'.repeat(MAX_MESSAGE_BYTES);
    await session.requestRaw(
      `{"jsonrpc":"2.0","method":"model/list","params":{"padding":"${padding}"}}`,
      null,
      `longer than --max-message-bytes ${MAX_MESSAGE_BYTES}`,
    );
    await badRequest(
      session,
      (id) => `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"clientInfo":{"name":"  "}}}`,
      'blank client name; the connection stays uninitialized',
    );
    await handshake(session);
    await session.request('initialize', { clientInfo: { name: 'docs-client' } }, 'initialize succeeds once');
    await badRequest(
      session,
      (id) =>
        `{"jsonrpc":"2.0","id":${id},"method":"thread/delete","params":{"threadId":"${UNKNOWN_THREAD}"}}`,
      'not a v1 method',
    );
    await badRequest(
      session,
      (id) => `{"jsonrpc":"2.0","id":${id},"method":"thread/read"}`,
      'params are required',
    );
    await badRequest(
      session,
      (id) => `{"jsonrpc":"2.0","id":${id},"method":"thread/read","params":{"threadId":42,"limit":0}}`,
      'every violation is listed in data.errors; the message names the first',
    );
    await session.request('thread/resume', { threadId: UNKNOWN_THREAD });

    const { threadId } = await session.call<{ threadId: string }>('thread/start', {});
    await session.waitForNotification('thread/started', { threadId });
    await badRequest(
      session,
      (id) =>
        `{"jsonrpc":"2.0","id":${id},"method":"turn/start","params":{"threadId":"${threadId}","input":"hello"}}`,
      'input must be an array of objects',
    );
    await session.request('turn/steer', { threadId, input: textInput('faster') }, 'no turn is running');
    const { turnId } = await session.call<{ turnId: string }>('turn/start', {
      threadId,
      input: textInput('Take your time'),
    });
    await session.waitForNotification('turn/started', { threadId, turnId });
    await session.request(
      'turn/start',
      { threadId, input: textInput('Another one') },
      'one active turn per thread',
    );
    await session.request(
      'turn/steer',
      { threadId, expectedTurnId: UNKNOWN_TURN, input: textInput('faster') },
      'expectedTurnId guards against steering the wrong turn',
    );
    await session.call('turn/interrupt', { threadId });
    await session.waitForNotification('turn/completed', { threadId, turnId });
    await session.request('approval/resolve', {
      threadId,
      turnId,
      requestId: UNKNOWN_APPROVAL,
      decision: 'allow',
    });
    await badRequest(
      session,
      (id) =>
        `{"jsonrpc":"2.0","id":${id},"method":"approval/resolve","params":{"threadId":"${threadId}","turnId":"${turnId}","requestId":"${UNKNOWN_APPROVAL}","decision":"ALLOW"}}`,
      'decisions are case-sensitive',
    );
    await badRequest(
      session,
      (id) => `{"jsonrpc":"2.0","id":${id},"method":"schema/export","params":{"verbose":true}}`,
      'schema/export takes no params',
    );
    await session.request(
      'thread/list',
      { cursor: 'not-a-cursor' },
      'cursors are opaque: only nextCursor values work',
    );

    const missing = await session.call<{ threadId: string }>('thread/start', { cwd: './missing-dir' });
    await session.waitForNotification('thread/started', { threadId: missing.threadId });
    await session.request(
      'turn/start',
      { threadId: missing.threadId, input: textInput('hello') },
      'the host rejects the turn: no turn is created, nothing is emitted',
    );
    await session.call('thread/archive', { threadId: missing.threadId });
    await session.waitForNotification('thread/status/changed', {
      threadId: missing.threadId,
      status: 'archived',
    });
    await session.request(
      'turn/start',
      { threadId: missing.threadId, input: textInput('hello') },
      'archived',
    );
    await session.call('turn/start', { threadId, input: textInput('Try again') }, 'the model call fails');
    await session.waitForNotification('turn/completed', { threadId });
  },
};
