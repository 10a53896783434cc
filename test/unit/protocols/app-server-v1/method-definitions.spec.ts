/**
 * Issue #37 item 2, "a method costs 8–15 files": a client method's name is written once in its definition
 * (method-index.ts), once in its handler (`@RpcMethod`) and once in the typed client's method — everything
 * else (router table, params DTO binding, schemas, handler and client signatures) is derived from the
 * definition. This counts, for every client method of the definitions, the files under src/ whose text
 * contains the quoted name.
 *
 * Left out of the count: the PostgreSQL cluster's wire names (src/persistence/postgres/cluster/
 * cluster-wire-names.ts: forwarded steer, follow-up, interrupt and approval answers keep the previous
 * version's names on the channel, so instances of both versions can share a database during a rolling
 * upgrade — docs/spec-interpretations.md) and src/protocols/acp (ACP is another protocol; its own
 * `initialize` shares the name). src/core names no protocol method at all (issue 37 item 1). Server
 * notification names are not counted: the cluster relay and ACP still name them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { METHOD_INDEX } from '../../../../src/protocols/app-server-v1/method-index';
import { APP_SERVER_V1_HANDLERS } from '../../../../src/protocols/app-server-v1/handlers';
import { MESSAGE_DEFINITIONS, definitionInfo } from '../../../../src/protocols/app-server-v1/messages';

const ROOT = join(__dirname, '../../../..');
const SRC = join(ROOT, 'src');
const EXCLUDED = [
  join('src', 'persistence', 'postgres', 'cluster', 'cluster-wire-names.ts'),
  join('src', 'protocols', 'acp'),
];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (EXCLUDED.some((excluded) => relative(ROOT, path) === excluded)) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC).map((path) => ({
  path: relative(ROOT, path).split(sep).join('/'),
  text: readFileSync(path, 'utf8'),
}));

function filesNaming(method: string): string[] {
  const quoted = [`'${method}'`, `"${method}"`];
  return FILES.filter(({ text }) => quoted.some((q) => text.includes(q))).map(({ path }) => path);
}

const DEFINITIONS = 'src/protocols/app-server-v1/method-index.ts';
const CLIENT = 'src/client/app-server-client.ts';
const HANDLER = /^src\/protocols\/app-server-v1\/handlers\/[\w-]+\.handlers\.ts$/;

describe('a client method name is written in at most 3 files under src/ (definition, handler, client)', () => {
  it('finds the source files it counts in', () => {
    expect(FILES.map(({ path }) => path)).toEqual(expect.arrayContaining([DEFINITIONS, CLIENT]));
    expect(FILES.some(({ path }) => path.startsWith('src/core/'))).toBe(true);
    expect(FILES.some(({ path }) => path.startsWith('src/protocols/acp/'))).toBe(false);
  });

  it.each(METHOD_INDEX.map((entry) => entry.method))('%s', (method) => {
    const files = filesNaming(method);
    expect(files).toContain(DEFINITIONS);
    expect(files.filter((path) => path !== DEFINITIONS && path !== CLIENT && !HANDLER.test(path))).toEqual(
      [],
    );
    expect(files.filter((path) => HANDLER.test(path)).length).toBe(1);
    expect(files.length).toBeLessThanOrEqual(3);
  });

  it('counts every handler class file of the protocol as a handler file', () => {
    expect(APP_SERVER_V1_HANDLERS.length).toBe(FILES.filter(({ path }) => HANDLER.test(path)).length);
  });
});

describe('the message definitions', () => {
  it('are keyed by their own names (results.ts and notifications.ts are spread into them)', () => {
    for (const [key, definition] of Object.entries(MESSAGE_DEFINITIONS)) {
      expect(definitionInfo(definition)?.name).toBe(key);
    }
  });

  it('define every result type name of the method definitions', () => {
    const names = METHOD_INDEX.map((entry) => entry.resultTypeName).filter((name) => name !== null);
    expect(names.filter((name) => !(name in MESSAGE_DEFINITIONS))).toEqual([]);
  });
});
