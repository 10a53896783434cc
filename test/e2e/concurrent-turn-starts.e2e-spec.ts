/**
 * Concurrent `turn/start`s on one thread from several server processes sharing one store (a SQLite
 * file, a PostgreSQL database): the store picks the one winner (docs/spec/protocol.md §8.2,
 * docs/spec/postgres.md §2), and what the losers did on the way is observable from outside — the model
 * server counts the requests it received, each process's stderr is read back.
 */
import { STORE_DRIVERS } from '../support/store-drivers';
import { E2eSandbox, type AppServerSession, type RpcErrorBody } from '../helpers/app-server-session';
import { hangingTextReply } from '../helpers/model-replies';

jest.setTimeout(90_000);

/** What the racing turn/starts send: it must reach the model once, and never a log line. */
const RACE_INPUT = 'race input 7f3a: private words of the user';

describe.each(STORE_DRIVERS)('concurrent turn/start on one thread [%s store]', (storeDriver) => {
  let sandbox: E2eSandbox;

  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-turn-race-', { storeDriver });
  });

  afterEach(async () => {
    await sandbox.dispose();
  });

  async function instances(count: number): Promise<AppServerSession[]> {
    const store = storeDriver === 'sqlite' ? 'shared.sqlite' : 'shared';
    return Promise.all(
      Array.from({ length: count }, async () => {
        const session = sandbox.spawn({ store });
        await session.initialize();
        return session;
      }),
    );
  }

  /** 20 turn/starts on one thread from every process at once; exactly one wins (§8.2). */
  async function race(): Promise<AppServerSession[]> {
    // The winner's turn keeps streaming, so the thread stays busy for the whole race.
    sandbox.model.setFallback(hangingTextReply(['still ', 'thinking']));
    const servers = await instances(storeDriver === 'sqlite' ? 2 : 3);
    const { threadId } = await servers[0].startThread();
    const input = [{ type: 'text', text: RACE_INPUT }];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        servers[index % servers.length].request('turn/start', { threadId, input }, 30_000),
      ),
    );
    const won = answers.filter((answer) => 'result' in answer);
    const refused = answers
      .map((answer) => answer.error as RpcErrorBody | undefined)
      .filter((error) => error !== undefined);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const error of refused)
      expect(error).toEqual({ code: -32602, message: 'Thread already has an active turn' });
    return servers;
  }

  it('a turn/start that does not create the turn never reaches the model: one request for 20 starts', async () => {
    await race();
    // The winner's request arrives; give a loser's (before: started, then cancelled) time to as well.
    await sandbox.model.waitForRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Before: 14 requests on PostgreSQL, 13 of them aborted — each billed by a real provider.
    expect(sandbox.model.requests).toHaveLength(1);
  });

  it('losing the race is not logged as a failed query, and no log line carries the turn input', async () => {
    const servers = await race();
    // Let every process finish whatever it writes about its refused inserts.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Before: `[typeorm] query failed: INSERT INTO "turns" … -- parameters: [… the input …]`.
    for (const server of servers) {
      const stderr = server.child.stderr;
      expect(stderr).not.toContain(RACE_INPUT);
      expect(stderr).not.toContain('query failed');
      expect(stderr).not.toContain('parameters:');
    }
  });
});
