/**
 * docs/spec/websocket.md §7: the browser build must not pull in Node-only modules. The WebSocket client
 * transport has no static runtime import at all (types only); `ws` is loaded lazily, only in Node
 * or where there is no global WebSocket.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = readFileSync(join(__dirname, '../../../src/client/websocket-transport.ts'), 'utf8');

describe('src/client/websocket-transport.ts imports', () => {
  it('has only type-only static imports', () => {
    const statics = SOURCE.split('\n').filter((line) => /^\s*import\s/.test(line));
    expect(statics.length).toBeGreaterThan(0);
    for (const line of statics) expect(line).toMatch(/^import type /);
    expect(SOURCE).not.toMatch(/\brequire\(/);
    expect(SOURCE).not.toMatch(/from 'node:/);
  });

  it('loads ws only through a dynamic import, in Node or where there is no global WebSocket', () => {
    const condition = SOURCE.indexOf('if (global === undefined || runsOnNode())');
    const lazyImport = SOURCE.indexOf('await import(nodeWebSocketPackage)');
    expect(condition).toBeGreaterThan(0);
    expect(lazyImport).toBeGreaterThan(condition);
    expect(SOURCE.match(/await import\(/g)).toHaveLength(1);
  });
});
