/**
 * `search_files` through the built CLI. `dist/main.js` runs the bundle (dist/cli-bundle.js), where
 * every module's `__dirname` is dist; the search runs on a worker thread whose entry the runtime
 * finds next to its own module, so the bundle step must have put it next to the bundle
 * (scripts/bundle-cli.ts). Without it every search fails.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type AppServerSession, E2eSandbox, isTurnCompleted, paramsOf } from '../helpers/app-server-session';
import { assistantReply, finishReply } from '../helpers/model-replies';

describe('search_files from the bundled CLI', () => {
  let sandbox: E2eSandbox;
  let session: AppServerSession;
  beforeEach(async () => {
    sandbox = await E2eSandbox.create('vv-e2e-search-');
    writeFileSync(join(sandbox.workspace, 'notes.txt'), 'alpha\nthe needle is here\nomega\n');
    session = sandbox.spawn();
    await session.initialize();
  });
  afterEach(() => sandbox.dispose());

  it('finds a match on its worker thread', async () => {
    sandbox.model.enqueue(
      assistantReply([{ id: 'call_search', name: 'search_files', arguments: { pattern: 'needle' } }]),
      finishReply('searched'),
    );
    const { threadId } = await session.startThread({ cwd: sandbox.workspace });
    await session.call('turn/start', { threadId, input: [{ type: 'text', text: 'search' }] });
    const traffic = await session.collectUntil(isTurnCompleted(threadId));
    const completion = traffic.find(
      (m) =>
        m.method === 'item/completed' &&
        paramsOf(m).type === 'toolCall' &&
        (paramsOf(m).payload as Record<string, unknown>).toolCallId === 'call_search',
    );
    const payload = paramsOf(completion ?? {}).payload as Record<string, unknown> | undefined;
    expect(payload).toMatchObject({ errorCode: null });
    expect(payload?.output).toBe("Found 1 files matching pattern 'needle'\nnotes.txt");
  });
});
