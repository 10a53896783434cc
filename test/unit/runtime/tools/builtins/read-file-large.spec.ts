/**
 * read_file on a huge file (issue 12 item 1): the file is hashed, decoded and paged chunk by chunk, so
 * neither its bytes nor its text are held whole, and the event loop keeps turning meanwhile.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { callTool, expectError, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

jest.setTimeout(60_000);

const MIB = 1024 * 1024;
const FILE_MIB = 64;

describe('read_file on a huge file', () => {
  let ws: TempWorkspace;
  beforeAll(async () => {
    ws = await makeWorkspace();
    const handle = await fs.open(path.join(ws.root, 'huge.log'), 'w');
    const block = Buffer.alloc(MIB, 'line of a huge log file\n');
    for (let written = 0; written < FILE_MIB; written += 1) await handle.write(block);
    await handle.write(Buffer.from([0xff]));
    await handle.close();
    await ws.write('huge-valid.log', Buffer.alloc(FILE_MIB * MIB, 'x\n'));
  });
  afterAll(() => ws.remove());

  it('returns the first page with a cursor over the whole file without holding it in memory', async () => {
    global.gc?.();
    const before = process.memoryUsage();
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    const result = await callTool('read_file', makeContext(ws.root), { path: 'huge-valid.log' });
    clearInterval(ticker);
    const after = process.memoryUsage();
    expect(result.status).toBe('success');
    expect(result.content).toBe('x\n'.repeat(2_000));
    expect(result.truncated).toBe(true);
    const bytes = await fs.readFile(path.join(ws.root, 'huge-valid.log'));
    expect(result.cursor).toEqual({
      kind: 'read_file',
      path: 'huge-valid.log',
      offset_chars: 4_000,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    // Reading it whole would take 64 MiB of bytes plus 128 MiB of UTF-16 text.
    expect(after.rss + after.external - (before.rss + before.external)).toBeLessThan(48 * MIB);
    expect(ticks).toBeGreaterThan(1);
  });

  it('still rejects invalid UTF-8 at the very end of the file', async () => {
    expectError(
      await callTool('read_file', makeContext(ws.root), { path: 'huge.log' }),
      'unsupported_encoding',
      'Unsupported file encoding for read_file.',
    );
  });
});
