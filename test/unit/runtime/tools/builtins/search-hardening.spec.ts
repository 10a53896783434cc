/**
 * Attacks on `search_files` from issue 12: a catastrophically backtracking regex and a huge file must
 * not block the event loop (the search runs on a worker thread with a deadline → `search_timeout`)
 * nor be loaded whole into memory.
 */
import { MAX_SEARCH_FILE_BYTES } from '../../../../../src/runtime/tools/builtins/search-job';
import { SearchCancelled, searchInWorker } from '../../../../../src/runtime/tools/builtins/search-in-worker';
import { BuiltinToolError } from '../../../../../src/runtime/tools/builtins/tool-error';
import { callTool, expectError, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

jest.setTimeout(40_000);

describe('search_files hardening', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.remove());

  const catastrophicJob = (absolute: string) => ({
    source: '^(a+)+$',
    flags: 'gu',
    targets: [{ absolute, workspaceRelative: 'evil.txt' }],
    realWorkspaceRoot: ws.root,
    options: { multiline: false, contextBefore: 0, contextAfter: 0, collectRows: false },
    maxFileBytes: MAX_SEARCH_FILE_BYTES,
  });

  it('keeps the event loop turning during `^(a+)+$` on a 35-byte file and times out with search_timeout', async () => {
    await ws.write('evil.txt', `${'a'.repeat(34)}!`);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    try {
      const result = await callTool('search_files', makeContext(ws.root), { pattern: '^(a+)+$' });
      const content = expectError(result, 'search_timeout');
      expect(content.error).toMatch(/^Search timed out after 10 seconds/);
    } finally {
      clearInterval(ticker);
    }
    // Over the 10 s deadline a blocked loop would have ticked at most once.
    expect(ticks).toBeGreaterThan(50);
  });

  it('rejects with search_timeout once its deadline passes', async () => {
    await ws.write('evil.txt', `${'a'.repeat(34)}!`);
    const signal = new AbortController().signal;
    const failure = await searchInWorker(catastrophicJob(`${ws.root}/evil.txt`), {
      deadlineMs: 300,
      signal,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BuiltinToolError);
    expect((failure as BuiltinToolError).code).toBe('search_timeout');
  });

  it('stops a running search when the run is cancelled', async () => {
    await ws.write('evil.txt', `${'a'.repeat(34)}!`);
    const controller = new AbortController();
    const running = searchInWorker(catastrophicJob(`${ws.root}/evil.txt`), {
      deadlineMs: 30_000,
      signal: controller.signal,
    }).catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 200);
    expect(await running).toBeInstanceOf(SearchCancelled);
  });

  it('searches only the first 16 MiB of a bigger file and says so', async () => {
    const head = Buffer.alloc(MAX_SEARCH_FILE_BYTES, 'x\n');
    head.write('needle-early\n', 0);
    await ws.write('big.log', Buffer.concat([head, Buffer.from('needle-late\n')]));
    const result = await callTool('search_files', makeContext(ws.root), {
      pattern: 'needle-\\w+',
      output_mode: 'content',
    });
    expect(result.status).toBe('success');
    expect(result.content).toContain('needle-early');
    expect(result.content).not.toContain('needle-late');
    expect(result.metadata).toMatchObject({
      files_cut_at_bytes: MAX_SEARCH_FILE_BYTES,
      files_cut: ['big.log'],
    });
  });
});
