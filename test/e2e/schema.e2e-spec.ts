/**
 * The schema outputs end to end (docs/spec/protocol.md §3.15, §11.4, §12.5): `vv-agent app-server schema` /
 * `generate-ts` as real child processes of `dist/main.js`, and `schema/export` over stdio. All of them
 * serve the committed bytes (embedded in dist at build time). Build first (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  COMMITTED_SCHEMA_DIR,
  readSchemaDirectory,
} from '../../src/protocols/app-server-v1/schema/committed-schema-files';
import { E2eSandbox } from '../helpers/app-server-session';
import { DIST_MAIN } from '../helpers/jsonl-child';
import { assertValidServerMessage } from '../helpers/schema-validation';
import { USAGE_LINE } from '../../src/cli/command-help';

jest.setTimeout(30_000);

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], cwd: string): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [DIST_MAIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** `JSON.stringify(sortKeysRecursively(value), null, 2)` written independently of the implementation. */
function sortedKeysJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

const committed = readSchemaDirectory(COMMITTED_SCHEMA_DIR);
const names = Object.keys(committed.jsonSchema);
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vv-schema-e2e-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('vv-agent app-server schema --out DIR', () => {
  it('writes DIR/json with the 30 committed files (§11.2 plus history.md results) and the sorted-keys bundle, nothing on stdout', async () => {
    const out = join(root, 'schema-out');
    const run = await runCli(['app-server', 'schema', '--out', out], root);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(out)).toEqual(['json']);
    expect(readdirSync(join(out, 'json')).sort()).toEqual(
      [...names.map((name) => `${name}.json`), 'vv_agent_app_server.schemas.json'].sort(),
    );
    expect(names).toHaveLength(30);
    for (const name of names) {
      expect(readFileSync(join(out, 'json', `${name}.json`), 'utf8')).toBe(committed.jsonSchema[name]);
    }
    const bundleText = readFileSync(join(out, 'json', 'vv_agent_app_server.schemas.json'), 'utf8');
    const expected = Object.fromEntries(names.map((name) => [name, JSON.parse(committed.jsonSchema[name])]));
    expect(bundleText).toBe(sortedKeysJson(expected));
    expect(Object.keys(JSON.parse(bundleText) as object)).not.toContain('TurnStartParams');
  });

  it('accepts a relative DIR (resolved against the working directory)', async () => {
    const run = await runCli(['app-server', 'schema', '--out', 'relative-out'], root);
    expect(run.code).toBe(0);
    expect(readdirSync(join(root, 'relative-out', 'json'))).toHaveLength(31); // 30 files and the bundle
  });

  it('fails with exit 1 when --out names a regular file', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const run = await runCli(['app-server', 'schema', '--out', file], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^failed to write schema files: .+\n$/);
  });

  it.each([[['app-server', 'schema']], [['app-server', 'schema', '--out=dir']]])(
    'usage error %j → exit 2',
    async (args) => {
      const run = await runCli(args, root);
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `app-server schema requires --out <dir>\n${USAGE_LINE}\n`,
      });
    },
  );
});

describe('vv-agent app-server generate-ts --out DIR', () => {
  it('creates DIR recursively and writes the 30 committed .ts files directly in it', async () => {
    const out = join(root, 'ts', 'nested', 'deeper');
    const run = await runCli(['app-server', 'generate-ts', '--out', out], root);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(out).sort()).toEqual(Object.keys(committed.typescript).sort());
    for (const [fileName, text] of Object.entries(committed.typescript)) {
      expect(readFileSync(join(out, fileName), 'utf8')).toBe(text);
    }
  });

  it('fails with exit 1 when --out names a regular file', async () => {
    const file = join(root, 'another-file');
    writeFileSync(file, 'x');
    const run = await runCli(['app-server', 'generate-ts', '--out', file], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^failed to write schema files: .+\n$/);
  });

  it('usage error without --out → exit 2', async () => {
    const run = await runCli(['app-server', 'generate-ts', '--out', '  '], root);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `app-server generate-ts requires --out <dir>\n${USAGE_LINE}\n`,
    });
  });
});

describe('schema/export over stdio', () => {
  let sandbox: E2eSandbox;

  beforeAll(async () => {
    sandbox = await E2eSandbox.create('vv-schema-export-');
  });

  afterAll(async () => {
    await sandbox.dispose();
  });

  it('answers with the committed files verbatim for absent, null and {} params', async () => {
    const session = sandbox.spawn({ store: ':memory:' });
    await session.initialize();
    for (const params of [undefined, null, {}]) {
      const answer = await session.request('schema/export', params);
      assertValidServerMessage(answer, 'schema/export');
      expect(answer.result).toEqual(committed);
      const result = answer.result as typeof committed;
      expect(Object.keys(result.jsonSchema)).toHaveLength(30);
      expect(Object.keys(result.typescript)).toHaveLength(30);
    }
  });

  it('rejects non-empty params with -32602 "params must be an empty object"', async () => {
    const session = sandbox.spawn({ store: ':memory:' });
    await session.initialize();
    expect(await session.failure('schema/export', { a: 1 })).toEqual({
      code: -32602,
      message: 'params must be an empty object',
      data: { errors: [{ path: '', message: 'must be an empty object' }] },
    });
  });

  it('serves the copy embedded in dist, which equals the committed files', () => {
    const embedded = JSON.parse(
      readFileSync(
        resolve(DIST_MAIN, '..', 'protocols', 'app-server-v1', 'schema', 'embedded-schema-files.json'),
        'utf8',
      ),
    ) as unknown;
    expect(embedded).toEqual(committed);
  });
});
