/**
 * Controlling the active turn (docs/spec/protocol.md §3.10–§3.12, §8.2): steering reaches the model
 * mid-turn, follow-ups start after turn/completed, interrupts cancel, and the one-active-turn rule.
 */
import type { LlmRequest } from '../../../../src/runtime/model/types';
import { finish } from '../../../../src/runtime/model/scripted-model';
import { gatedStep, LiveAppServer, recordingStep, runTurn, text } from '../../support/live-app-server';

describe('turn control', () => {
  let live: LiveAppServer;

  afterEach(async () => {
    await live?.close();
  });

  it('delivers steering to the next model call and projects it as a steered userMessage', async () => {
    const seen: LlmRequest[] = [];
    const gated = gatedStep({ content: 'Thinking about it.' });
    live = await LiveAppServer.start({
      steps: [gated.step, recordingStep(seen, finish('Checked the tests.'))],
    });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', {
      threadId,
      input: text('Review it'),
    });
    await gated.gate.reached;

    const steerInput = [{ type: 'text', text: 'also check the tests' }];
    await expect(
      client.call('turn/steer', { threadId, expectedTurnId: turnId, input: steerInput }),
    ).resolves.toEqual({
      threadId,
      turnId,
      queued: true,
    });
    // Empty derived text is accepted and dropped.
    await expect(client.call('turn/steer', { threadId, input: [] })).resolves.toEqual({
      threadId,
      turnId,
      queued: true,
    });
    gated.gate.open();
    const completed = await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
    expect(completed.params).toMatchObject({ status: 'completed', finalOutput: 'Checked the tests.' });

    expect(client.labels(from)).toEqual([
      'thread/status/changed(running)',
      'turn/started',
      'item/completed(userMessage)',
      'item/started(agentMessage)',
      'item/agentMessage/delta(agentMessage)',
      'item/completed(agentMessage)',
      'item/completed(userMessage)',
      'item/started(agentMessage)',
      'item/agentMessage/delta(agentMessage)',
      'item/completed(agentMessage)',
      'item/started(toolCall)',
      'item/toolCall/delta(toolCall)',
      'item/completed(toolCall)',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    const steered = client.traffic(from)[6].params;
    expect(steered).toMatchObject({
      type: 'userMessage',
      status: 'completed',
      payload: { text: 'also check the tests', input: steerInput, steered: true },
    });
    const lastTwo = seen[0].messages.slice(-2);
    expect(lastTwo).toEqual([
      { role: 'assistant', content: 'Thinking about it.' },
      { role: 'user', content: 'also check the tests' },
    ]);
    // Steering is not part of the turn's input.
    const read = await client.call<{ turns: Array<{ input: unknown }> }>('thread/read', { threadId });
    expect(read.turns[0].input).toEqual(text('Review it'));
  });

  it('starts queued follow-ups after turn/completed, in FIFO order, as new turns', async () => {
    const gated = gatedStep(finish('first done'));
    live = await LiveAppServer.start({ steps: [gated.step, finish('second done'), finish('third done')] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('one') });
    await gated.gate.reached;
    await expect(client.call('turn/followUp', { threadId, input: text('two') })).resolves.toEqual({
      threadId,
      turnId,
      queued: true,
    });
    await client.call('turn/followUp', {
      threadId,
      expectedTurnId: turnId,
      input: [{ type: 'image', url: 'x' }],
    });
    gated.gate.open();
    await client.waitFor((m) => m.method === 'turn/completed' && m.params?.finalOutput === 'third done', {
      from,
    });

    const lifecycle = client
      .labels(from)
      .filter((label) =>
        [
          'thread/status/changed(running)',
          'thread/status/changed(idle)',
          'turn/started',
          'turn/completed',
        ].includes(label),
      );
    expect(lifecycle).toEqual([
      'thread/status/changed(running)',
      'turn/started',
      'thread/status/changed(idle)',
      'turn/completed',
      'thread/status/changed(running)',
      'turn/started',
      'thread/status/changed(idle)',
      'turn/completed',
      'thread/status/changed(running)',
      'turn/started',
      'thread/status/changed(idle)',
      'turn/completed',
    ]);
    const read = await client.call<{ turns: Array<{ turnId: string; input: unknown; status: string }> }>(
      'thread/read',
      {
        threadId,
      },
    );
    expect(read.turns.map((t) => t.input)).toEqual([text('one'), text('two'), [{ type: 'image', url: 'x' }]]);
    expect(read.turns.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    expect(new Set(read.turns.map((t) => t.turnId)).size).toBe(3);
    // Each follow-up's userMessage carries its own input.
    const users = client.traffic(from).filter((m) => m.params?.type === 'userMessage');
    expect(users.map((m) => m.params?.payload)).toEqual([
      { text: 'one', input: text('one') },
      { text: 'two', input: text('two') },
      { text: '{"type":"image","url":"x"}', input: [{ type: 'image', url: 'x' }] },
    ]);
  });

  it('reports follow-ups that cannot start as error/warning follow_up and tries the next one', async () => {
    const gated = gatedStep(finish('only turn'));
    live = await LiveAppServer.start({ steps: [gated.step] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('go') });
    await gated.gate.reached;
    await client.call('turn/followUp', { threadId, input: text('a') });
    await client.call('turn/followUp', { threadId, input: text('b') });
    await client.call('thread/archive', { threadId });
    gated.gate.open();
    await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
    const warnings = await client.waitForCount((m) => m.method === 'error/warning', 2, { from });
    expect(warnings.map((m) => m.params)).toEqual([
      { threadId, code: 'follow_up', message: 'Thread archived' },
      { threadId, code: 'follow_up', message: 'Thread archived' },
    ]);
    // Archived meanwhile: no idle status for the finished turn (§4.4).
    expect(client.labels(from)).not.toContain('thread/status/changed(idle)');
    const read = await client.call<{ turns: unknown[]; thread: { status: string } }>('thread/read', {
      threadId,
    });
    expect(read.turns).toHaveLength(1);
    expect(read.thread.status).toBe('archived');
  });

  it('interrupts the active turn with the trimmed reason; a finished turn cannot be interrupted', async () => {
    live = await LiveAppServer.start({ steps: [{ content: 'slow', delay_ms: 20_000 }] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('wait') });
    await client.waitForMethod('turn/started', () => true, { from });
    await expect(
      client.request('turn/interrupt', { threadId, expectedTurnId: 'turn_other' }),
    ).resolves.toMatchObject({ error: { code: -32031, message: 'Turn id mismatch' } });
    await expect(
      client.call('turn/interrupt', { threadId, expectedTurnId: turnId, reason: '  stop now  ' }),
    ).resolves.toEqual({ threadId, turnId, cancelled: true });
    const completed = await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
    expect(completed.params).toMatchObject({
      threadId,
      turnId,
      status: 'interrupted',
      error: 'stop now',
      completionReason: 'cancelled',
    });
    expect(client.labels(from).slice(-2)).toEqual(['thread/status/changed(idle)', 'turn/completed']);
    await expect(client.request('turn/interrupt', { threadId })).resolves.toMatchObject({
      error: { code: -32030, message: 'Active turn not found' },
    });
  });

  it('uses "turn interrupted" when the interrupt has no reason', async () => {
    live = await LiveAppServer.start({ steps: [{ content: 'slow', delay_ms: 20_000 }] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    const from = client.messages.length;
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('wait') });
    await client.call('turn/interrupt', { threadId, reason: '   ' });
    const completed = await client.waitForMethod('turn/completed', (p) => p.turnId === turnId, { from });
    expect(completed.params).toMatchObject({ status: 'interrupted', error: 'turn interrupted' });
  });

  it('enforces one active turn per thread and lets other threads run', async () => {
    const gated = gatedStep(finish('long one'));
    live = await LiveAppServer.start({ steps: [gated.step, finish('other thread')] });
    const client = await live.connect();
    const busyThread = await live.startThread(client);
    const otherThread = await live.startThread(client);
    const { turnId } = await client.call<{ turnId: string }>('turn/start', {
      threadId: busyThread,
      input: text('a'),
    });
    await gated.gate.reached;
    const busy = await client.request('turn/start', { threadId: busyThread, input: text('b') });
    expect(busy.error).toEqual({ code: -32602, message: 'Thread already has an active turn' });
    const running = await client.call<{ thread: { status: string } }>('thread/read', {
      threadId: busyThread,
    });
    expect(running.thread.status).toBe('running');

    const { completed } = await runTurn(client, otherThread, text('c'));
    expect(completed.params).toMatchObject({ finalOutput: 'other thread' });
    gated.gate.open();
    await client.waitForMethod('turn/completed', (p) => p.turnId === turnId);
    const idle = await client.call<{ thread: { status: string } }>('thread/read', { threadId: busyThread });
    expect(idle.thread.status).toBe('idle');
  });

  it('answers -32030 without an active turn and -32031 on a mismatching expectedTurnId', async () => {
    const gated = gatedStep(finish('x'));
    live = await LiveAppServer.start({ steps: [gated.step] });
    const client = await live.connect();
    const threadId = await live.startThread(client);
    for (const method of ['turn/steer', 'turn/followUp', 'turn/interrupt']) {
      for (const target of ['thread_unknown', threadId]) {
        const answer = await client.request(method, { threadId: target, input: text('x') });
        expect(answer.error).toEqual({ code: -32030, message: 'Active turn not found' });
      }
    }
    const { turnId } = await client.call<{ turnId: string }>('turn/start', { threadId, input: text('go') });
    await gated.gate.reached;
    for (const method of ['turn/steer', 'turn/followUp']) {
      const answer = await client.request(method, {
        threadId,
        expectedTurnId: 'turn_nope',
        input: text('x'),
      });
      expect(answer.error).toEqual({ code: -32031, message: 'Turn id mismatch' });
    }
    await expect(
      client.request('turn/steer', { threadId, expectedTurnId: null, input: [] }),
    ).resolves.toMatchObject({
      error: { code: -32602, message: 'Invalid params: /expectedTurnId must be a string' },
    });
    gated.gate.open();
    await client.waitForMethod('turn/completed', (p) => p.turnId === turnId);
  });
});
