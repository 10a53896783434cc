/**
 * Tool calls that used to freeze the whole server (issue 12 item 1), against the built CLI: a
 * catastrophically backtracking `search_files` regex on a 35-byte file, and a `find_files` glob of
 * fourteen `*` against a 200-character name. While such a call runs, the server must keep answering
 * other requests, and `turn/interrupt` must stop it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  type AppServerSession,
  E2eSandbox,
  isTurnCompleted,
  type JsonMessage,
  paramsOf,
} from '../helpers/app-server-session';
import { assistantReply, finishReply } from '../helpers/model-replies';
import { answeredWithin, expectAttacksHeld } from './support/attack-tally';

jest.setTimeout(60_000);

/** A frozen event loop would not answer within this bound (the search deadline is 10 s). */
const PROMPT_ANSWER_MS = 4_000;
const SUITE = 'tool-freezes';

function toolCompletion(traffic: JsonMessage[], toolCallId: string): Record<string, unknown> | undefined {
  const completion = traffic.find(
    (m) =>
      m.method === 'item/completed' &&
      paramsOf(m).type === 'toolCall' &&
      (paramsOf(m).payload as Record<string, unknown>).toolCallId === toolCallId,
  );
  return completion && (paramsOf(completion).payload as Record<string, unknown>);
}

const isToolStarted = (toolCallId: string) => (m: JsonMessage) =>
  m.method === 'item/started' &&
  paramsOf(m).type === 'toolCall' &&
  (paramsOf(m).payload as Record<string, unknown> | undefined)?.toolCallId === toolCallId;

describe('tool calls cannot freeze the server', () => {
  let sandbox: E2eSandbox;
  let session: AppServerSession;
  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-rel-freeze-');
    writeFileSync(join(sandbox.workspace, 'evil.txt'), `${'a'.repeat(34)}!`);
    writeFileSync(join(sandbox.workspace, 'a'.repeat(200)), 'long name\n');
    session = sandbox.spawn();
    await session.initialize();
  });
  afterEach(() => sandbox.dispose());

  it('answers requests and turn/interrupt while search_files runs ^(a+)+$', async () => {
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_evil', name: 'search_files', arguments: { pattern: '^(a+)+$' } }]),
      finishReply('unreachable'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'search' }] });
    await session.waitFor(isToolStarted('call_evil'));

    const answer = await answeredWithin(session.request('thread/list', {}, PROMPT_ANSWER_MS));
    session.send({ jsonrpc: '2.0', id: 'stop', method: 'turn/interrupt', params: { threadId } });
    const traffic = await answeredWithin(session.collectUntil(isTurnCompleted(threadId), PROMPT_ANSWER_MS));
    expectAttacksHeld(SUITE, 'search_files ^(a+)+$, then turn/interrupt', {
      freezes: Number(answer === undefined) + Number(traffic === undefined),
    });

    expect(answer).toHaveProperty('result');
    if (!traffic) return;
    expect(traffic.find((m) => m.id === 'stop')).toMatchObject({ result: { cancelled: true } });
    expect(toolCompletion(traffic, 'call_evil')).toMatchObject({ errorCode: 'tool_execution_cancelled' });
  });

  it('reports search_timeout for the regex when nobody interrupts, and stays responsive', async () => {
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_evil', name: 'search_files', arguments: { pattern: '^(a+)+$' } }]),
      finishReply('searched'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'search' }] });
    await session.waitFor(isToolStarted('call_evil'));
    let freezes = 0;
    for (let probe = 0; probe < 3; probe += 1) {
      const answer = await answeredWithin(session.request('model/list', {}, PROMPT_ANSWER_MS));
      if (answer === undefined) freezes += 1;
      else expect(answer).toHaveProperty('result');
    }
    const traffic = await answeredWithin(session.collectUntil(isTurnCompleted(threadId), 30_000));
    expectAttacksHeld(SUITE, 'search_files ^(a+)+$ until search_timeout', {
      freezes: freezes + Number(traffic === undefined),
    });
    expect(toolCompletion(traffic ?? [], 'call_evil')).toMatchObject({ errorCode: 'search_timeout' });
  });

  it('lists with a glob of fourteen `*` against a 200-character name at once', async () => {
    const glob = `${'*'.repeat(14)}b`;
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_glob', name: 'find_files', arguments: { glob } }]),
      finishReply('listed'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'list' }] });
    const traffic = await answeredWithin(
      session.collectUntil(isTurnCompleted(threadId), PROMPT_ANSWER_MS * 2),
    );
    expectAttacksHeld(SUITE, 'find_files with fourteen `*`', { freezes: Number(traffic === undefined) });
    const completion = toolCompletion(traffic ?? [], 'call_glob');
    expect(completion).toMatchObject({ errorCode: null });
    expect(JSON.parse(String(completion?.output))).toMatchObject({ files: [], count: 0 });
  });
});
