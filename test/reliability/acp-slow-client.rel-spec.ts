/**
 * Slow ACP client (issue 45 item 13; docs/spec/protocol.md §1.8 outbound backpressure, which
 * `vv-agent acp` inherits as a stdio server, docs/spec/acp.md §1): the real SDK client stops reading
 * stdout right after `session/prompt` while the model streams 100 000 fragments, each one
 * `agent_message_chunk`. A server that queued every update for the stalled editor would hold all
 * of them as pending writes; with the turn's forwarding paced by the ACP connection's unwritten
 * updates its resident set must stay within RSS_GROWTH_LIMIT_MIB of what it was before the prompt
 * (after a short first turn, so what any first turn loads is in the baseline). Measured: +86 to
 * +93 MiB before the fix, rising with every chunk; +27 to +44 MiB after, flat once the stream is
 * consumed. The model stream is still consumed meanwhile (the run's compact journal keeps the
 * events), and once the editor reads again the prompt answers `end_turn` with every chunk delivered
 * in order. A SIGTERM while the turn waits for the editor still ends the process within §1.9's 5 s.
 */
import { E2eSandbox } from '../helpers/app-server-session';
import { AcpClientProcess } from '../helpers/acp-client-process';
import { finishReply } from '../helpers/model-replies';
import { floodedFragment, floodingModelCall } from './support/flooding-model-call';
import { residentMiB } from './support/process-memory';

jest.setTimeout(180_000);

const DELTAS = 100_000;
const RSS_GROWTH_LIMIT_MIB = 65;
// Streamed over a few seconds like a real model, not in one burst: the garbage of parsing a burst
// would swamp what the server keeps for the stalled editor.
const BURST = 500;
const BURST_PAUSE_MS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('an ACP client that stops reading stdout', () => {
  let sandbox: E2eSandbox;
  let acp: AcpClientProcess | undefined;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-acp-slow-');
  });

  afterEach(async () => {
    await acp?.kill();
    await sandbox.dispose();
  });

  it(`keeps the server RSS bounded during a ${DELTAS}-delta turn and delivers every chunk once reading resumes`, async () => {
    sandbox.model.enqueue(finishReply('warm', { content: ['warming up'] }), {
      type: 'stream',
      steps: floodingModelCall(DELTAS, { burst: BURST, pauseMs: BURST_PAUSE_MS }),
    });
    acp = AcpClientProcess.spawn(sandbox, { store: ':memory:' });
    await acp.initialize();
    const { sessionId } = await acp.agent.request('session/new', {
      cwd: sandbox.workspace,
      mcpServers: [],
    });
    // A short turn first, so the baseline includes what any first turn loads (runtime, LLM client).
    expect(
      await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'warm up' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    const warmUpdates = acp.updatesOf(sessionId).length;
    const pid = acp.child.pid ?? 0;
    const baselineMiB = residentMiB(pid);

    const prompt = acp.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'flood me' }],
    });
    acp.stopReading();

    const request = (await sandbox.model.waitForRequests(2))[1];
    let modelDone = false;
    void request.closed.then(() => (modelDone = true));
    let peakMiB = baselineMiB;
    const samples: string[] = [];
    const startedAt = Date.now();
    const blockedUntil = startedAt + 60_000;
    let settledSamples = 0;
    for (let tick = 0; Date.now() < blockedUntil && settledSamples < 20; tick += 1) {
      await sleep(100);
      const rss = residentMiB(pid);
      peakMiB = Math.max(peakMiB, rss);
      if (tick % 5 === 0) samples.push(`${((Date.now() - startedAt) / 1000).toFixed(1)}s:${rss.toFixed(0)}`);
      if (modelDone) settledSamples += 1;
    }
    expect(acp.child.exitCode).toBeNull();
    // The run kept consuming the model while the editor did not read, so memory was really tested.
    expect(modelDone).toBe(true);
    const growthMiB = peakMiB - baselineMiB;
    console.log(
      `ACP slow client: ${DELTAS} deltas, RSS ${baselineMiB.toFixed(0)} → peak ${peakMiB.toFixed(0)} MiB while not reading ` +
        `(+${growthMiB.toFixed(0)} MiB); samples (time since the model call: MiB) ${samples.join(' ')}`,
    );
    expect(growthMiB).toBeLessThan(RSS_GROWTH_LIMIT_MIB);

    acp.resumeReading();
    expect(await prompt).toEqual({ stopReason: 'end_turn' });
    let expectedIndex = 0;
    let outOfOrder = 0;
    for (const update of acp.updatesOf(sessionId).slice(warmUpdates)) {
      if (update.sessionUpdate !== 'agent_message_chunk' || update.content.type !== 'text') continue;
      if (update.content.text === 'streamed') continue;
      if (update.content.text !== floodedFragment(expectedIndex)) outOfOrder += 1;
      expectedIndex += 1;
    }
    expect({ chunks: expectedIndex, outOfOrder }).toEqual({ chunks: DELTAS, outOfOrder: 0 });
    expect(acp.stdoutProblems()).toEqual([]);
  });

  it('exits 0 within the §1.9 bound on SIGTERM while the editor still does not read', async () => {
    // The flood, then the model holds the stream open: the run is still in its model call at SIGTERM.
    let releaseModel = (): void => undefined;
    const held = new Promise<void>((resolve) => (releaseModel = resolve));
    sandbox.model.enqueue({
      type: 'stream',
      steps: [
        ...floodingModelCall(DELTAS, { burst: BURST, pauseMs: BURST_PAUSE_MS }).slice(0, -2),
        { waitFor: held },
      ],
    });
    acp = AcpClientProcess.spawn(sandbox, { store: ':memory:' });
    await acp.initialize();
    const { sessionId } = await acp.agent.request('session/new', { cwd: sandbox.workspace, mcpServers: [] });
    const prompt = acp.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'flood me' }] })
      .catch((error: unknown) => error);
    acp.stopReading();
    await sandbox.model.waitForRequests(1);
    // Long enough for the connection's backlog to reach the bound: forwarding then waits for the editor.
    await sleep(3_000);
    const signalledAt = Date.now();
    acp.child.kill('SIGTERM');
    expect(await acp.waitExit(15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(7_000);
    releaseModel();
    await prompt;
  });
});
