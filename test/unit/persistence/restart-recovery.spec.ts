import { describeEachStore } from '../../support/store-drivers';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import {
  TypeOrmAppServerStore,
  currentRecoveryEnvironment,
  processStartToken,
  isProcessAlive,
  isRecoverable,
  RESTART_RECOVERY_ERROR,
  type RecoveryEnvironment,
} from '../../../src/persistence/sqlite';
import { agentMessage, version } from './store-test-support';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not spawn');
  return child.pid;
}

interface SeedTurn {
  threadId: string;
  turnId: string;
  ownerPid: number;
  ownerHost: string;
  ownerToken?: string | null;
}

async function seedRunningTurn(store: TypeOrmAppServerStore, seed: SeedTurn): Promise<void> {
  await store.threads.create({
    threadId: seed.threadId,
    agentKey: 'default',
    cwd: null,
    metadata: {},
    now: 100,
  });
  await store.beginTurn({
    turnId: seed.turnId,
    threadId: seed.threadId,
    runId: `run_${seed.turnId}`,
    input: [{ type: 'text', text: 'hi' }],
    startedAt: 200,
    ownerPid: seed.ownerPid,
    ownerHost: seed.ownerHost,
    ownerToken: seed.ownerToken ?? null,
  });
  const user = {
    ...agentMessage(`${seed.turnId}_user`, seed.threadId, seed.turnId, 'hi', 'completed', 201),
    type: 'userMessage' as const,
  };
  await store.items.upsert(version(user, 1));
  await store.items.upsert(
    version(
      agentMessage(`${seed.turnId}_agent`, seed.threadId, seed.turnId, 'partial', 'inProgress', 202),
      2,
      3,
    ),
  );
}

describeEachStore('restart recovery (docs/spec/protocol.md §8.11)', (driver) => {
  let liveChild: ChildProcess;

  beforeAll(() => {
    liveChild = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  });

  afterAll(() => {
    liveChild.kill();
  });

  it('tells live and dead processes apart with signal 0', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(liveChild.pid!)).toBe(true);
    expect(isProcessAlive(deadPid())).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
  });

  it.each([
    ['this host, dead pid', { ownerHost: 'h1', ownerPid: 11 }, true],
    ['this host, live pid', { ownerHost: 'h1', ownerPid: 22 }, false],
    ['this host, this process (even though alive)', { ownerHost: 'h1', ownerPid: 33 }, true],
    ['other host, dead pid', { ownerHost: 'h2', ownerPid: 11 }, false],
    ['other host, this pid', { ownerHost: 'h2', ownerPid: 33 }, false],
    ['this host, live pid, same token', { ownerHost: 'h1', ownerPid: 22, ownerToken: 'b:22' }, false],
    ['this host, live pid reused (other token)', { ownerHost: 'h1', ownerPid: 22, ownerToken: 'b:1' }, true],
    ['this host, live pid, its token unknown', { ownerHost: 'h1', ownerPid: 44, ownerToken: 'b:1' }, false],
    ['other host, live pid reused', { ownerHost: 'h2', ownerPid: 22, ownerToken: 'b:1' }, false],
  ])('isRecoverable: %s', (_name, owner, expected) => {
    const env: RecoveryEnvironment = {
      hostname: 'h1',
      pid: 33,
      isProcessAlive: (pid) => pid !== 11,
      processToken: (pid) => (pid === 44 ? null : `b:${pid}`),
      now: () => 0,
    };
    expect(isRecoverable({ turnId: 't', threadId: 'th', ownerToken: null, ...owner }, env)).toBe(expected);
  });

  it('on reopen, recovers a turn of a dead process on this host and leaves live/other-host turns alone', async () => {
    const path = await driver().newLocation();
    const first = await driver().open(path);
    await seedRunningTurn(first, {
      threadId: 'thread_dead',
      turnId: 'turn_dead',
      ownerPid: deadPid(),
      ownerHost: hostname(),
    });
    await seedRunningTurn(first, {
      threadId: 'thread_live',
      turnId: 'turn_live',
      ownerPid: liveChild.pid!,
      ownerHost: hostname(),
    });
    await seedRunningTurn(first, {
      threadId: 'thread_far',
      turnId: 'turn_far',
      ownerPid: deadPid(),
      ownerHost: `${hostname()}-elsewhere`,
    });
    await first.close();

    const before = Date.now();
    const store = await driver().open(path);
    const after = Date.now();
    try {
      expect(store.recoveredTurns).toEqual([
        { turnId: 'turn_dead', threadId: 'thread_dead', interruptedItemIds: ['turn_dead_agent'] },
      ]);

      const turn = await store.turns.get('turn_dead');
      expect(turn).toMatchObject({ status: 'interrupted', result: { error: RESTART_RECOVERY_ERROR } });
      expect(turn!.result).toEqual({ error: 'server restarted before the turn finished' });
      expect(turn!.completedAt).toBeGreaterThanOrEqual(before);
      expect(turn!.completedAt).toBeLessThanOrEqual(after);

      const [user, agent] = await store.items.read('thread_dead');
      expect(user).toMatchObject({ status: 'completed', updatedAt: 201 });
      expect(agent).toMatchObject({
        status: 'interrupted',
        createdAt: 202,
        updatedAt: turn!.completedAt,
        payload: { text: 'partial' },
      });
      // The interruption is a change: a client that saw the user message gets the agent message again.
      expect(
        (await store.items.read('thread_dead', { afterItemId: 'turn_dead_user' })).map((i) => i.itemId),
      ).toEqual(['turn_dead_agent']);
      expect(await store.items.lastChangeSeq('thread_dead')).toBe(4);

      expect(await store.threads.get('thread_dead')).toMatchObject({
        activeTurnId: null,
        updatedAt: turn!.completedAt,
      });
      // No conversation messages are appended for a recovered turn.
      expect(await store.conversations.load('thread_dead')).toEqual([]);

      for (const [threadId, turnId] of [
        ['thread_live', 'turn_live'],
        ['thread_far', 'turn_far'],
      ]) {
        expect(await store.turns.get(turnId)).toMatchObject({
          status: 'running',
          completedAt: null,
          result: {},
        });
        expect(await store.items.get(`${turnId}_agent`)).toMatchObject({
          status: 'inProgress',
          updatedAt: 202,
        });
        expect(await store.threads.get(threadId)).toMatchObject({ activeTurnId: turnId, updatedAt: 200 });
      }
    } finally {
      await store.close();
    }
  });

  it('recovers a turn whose owner pid now belongs to an unrelated live process (pid reuse)', async () => {
    const path = await driver().newLocation();
    const first = await driver().open(path);
    const liveToken = processStartToken(liveChild.pid!);
    expect(liveToken).toMatch(/^.+:\d+$/);
    await seedRunningTurn(first, {
      threadId: 'thread_reused',
      turnId: 'turn_reused',
      ownerPid: liveChild.pid!,
      ownerHost: hostname(),
      ownerToken: `${liveToken}0`,
    });
    await seedRunningTurn(first, {
      threadId: 'thread_owned',
      turnId: 'turn_owned',
      ownerPid: liveChild.pid!,
      ownerHost: hostname(),
      ownerToken: liveToken,
    });
    await first.close();

    const store = await driver().open(path);
    try {
      expect(store.recoveredTurns.map((t) => t.turnId)).toEqual(['turn_reused']);
      expect(await store.turns.get('turn_reused')).toMatchObject({
        status: 'interrupted',
        result: { error: RESTART_RECOVERY_ERROR },
      });
      expect((await store.turns.get('turn_owned'))?.status).toBe('running');
      expect((await store.threads.get('thread_reused'))?.activeTurnId).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('recovers a running turn recorded by this very process when the store is reopened', async () => {
    const path = await driver().newLocation();
    const first = await driver().open(path);
    await seedRunningTurn(first, {
      threadId: 'thread_own',
      turnId: 'turn_own',
      ownerPid: process.pid,
      ownerHost: hostname(),
    });
    await first.close();

    const store = await driver().open(path, {
      recovery: { ...currentRecoveryEnvironment(), now: () => 1780500000000 },
    });
    try {
      expect(store.recoveredTurns.map((t) => t.turnId)).toEqual(['turn_own']);
      expect(await store.turns.get('turn_own')).toMatchObject({
        status: 'interrupted',
        completedAt: 1780500000000,
      });
      expect(await store.items.get('turn_own_agent')).toMatchObject({
        status: 'interrupted',
        updatedAt: 1780500000000,
      });
    } finally {
      await store.close();
    }
  });

  it('leaves finished turns untouched', async () => {
    const path = await driver().newLocation();
    const first = await driver().open(path);
    await seedRunningTurn(first, {
      threadId: 'thread_ok',
      turnId: 'turn_ok',
      ownerPid: deadPid(),
      ownerHost: hostname(),
    });
    await first.finishTurn({
      threadId: 'thread_ok',
      turnId: 'turn_ok',
      completion: { status: 'completed', completedAt: 300, result: { finalOutput: 'x' } },
      messages: [],
      now: 300,
    });
    await first.close();

    const store = await driver().open(path);
    try {
      expect(store.recoveredTurns).toEqual([]);
      expect(await store.turns.get('turn_ok')).toMatchObject({ status: 'completed', completedAt: 300 });
    } finally {
      await store.close();
    }
  });
});
