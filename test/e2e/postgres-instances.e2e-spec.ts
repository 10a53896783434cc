/**
 * Several server processes on one PostgreSQL database (postgres.md §2, §3), each with its own
 * stdio client: the one-active-turn rule is the database's, not a process's, and an instance
 * started later finds everything the others stored.
 */
import {
  E2eSandbox,
  isTurnCompleted,
  type AppServerSession,
  type RpcErrorBody,
} from '../helpers/app-server-session';
import { finishReply, hangingTextReply } from '../helpers/model-replies';

jest.setTimeout(90_000);

let sandbox: E2eSandbox;

beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-pg-instances-', { storeDriver: 'postgres' });
});

afterEach(async () => {
  await sandbox.dispose();
});

async function instance(): Promise<AppServerSession> {
  const session = sandbox.spawn({ store: 'shared' });
  await session.initialize();
  return session;
}

describe('several instances on one database (postgres.md §2)', () => {
  it('20 concurrent turn/start on one thread from three instances: exactly one succeeds', async () => {
    // The winner's turn keeps streaming, so the thread stays busy for the whole race.
    sandbox.model.setFallback(hangingTextReply(['still ', 'thinking']));
    const instances = [await instance(), await instance(), await instance()];
    const { threadId } = await instances[0].startThread();
    const input = [{ type: 'text', text: 'race' }];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        instances[index % 3].request('turn/start', { threadId, input }, 30_000),
      ),
    );
    const won = answers.filter((answer) => 'result' in answer);
    const refused = answers
      .map((answer) => answer.error as RpcErrorBody | undefined)
      .filter((e) => e !== undefined);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const error of refused)
      expect(error).toEqual({ code: -32602, message: 'Thread already has an active turn' });

    // Every instance reads the one running turn from the database.
    const { turnId } = won[0].result as { turnId: string };
    for (const session of instances) {
      const read = await session.call<{ turns: Array<{ turnId: string; status: string }> }>('thread/read', {
        threadId,
      });
      expect(read.turns).toEqual([expect.objectContaining({ turnId, status: 'running' })]);
    }
  });

  it('an instance started later on the same database finds the threads, turns and items of another', async () => {
    sandbox.model.enqueue(finishReply('stored answer'));
    const first = await instance();
    const { threadId } = await first.startThread();
    await first.call('turn/start', { threadId, input: [{ type: 'text', text: 'remember this' }] });
    await first.collectUntil(isTurnCompleted(threadId));
    const before = await first.call('thread/read', { threadId });
    await first.kill();

    const second = await instance();
    const after = await second.call<{ thread: { status: string } }>('thread/read', { threadId });
    expect(after).toEqual(before);
    expect(after.thread.status).toBe('idle');
  });
});
