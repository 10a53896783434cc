/**
 * CLI conventions a new user meets first (issue 16 item 6) on the built CLI: --version, the usage
 * line after a usage error, a command's own help, backends named on a typo, keys from the
 * environment, and the readiness line on stderr. Build first (`npm run build`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { E2eSandbox, BACKEND, MODEL } from '../helpers/app-server-session';
import { DIST_MAIN, JsonlChild } from '../helpers/jsonl-child';
import { finishReply } from '../helpers/model-replies';

jest.setTimeout(60_000);

const VERSION = (
  JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
const USAGE = 'usage: vv-agent <app-server|acp|native-host|debug> [options] (vv-agent --help lists them)';

function cli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [DIST_MAIN, ...args], { encoding: 'utf8', env });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

let sandbox: E2eSandbox;
beforeEach(async () => {
  sandbox = await E2eSandbox.create('vv-cli-e2e-');
});
afterEach(async () => {
  await sandbox.dispose();
});

describe('vv-agent CLI conventions', () => {
  it('--version / -V print the package version on stdout, exit 0', () => {
    expect(cli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(cli(['-V'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it.each([
    [[], 'missing command'],
    [['serve'], 'unknown command: serve'],
    [
      ['app-server', '--listen', 'tcp'],
      'invalid --listen: expected stdio, native-messaging or ws://HOST:PORT',
    ],
  ])('%j: the message, then the usage line, on stderr; exit 2; nothing on stdout', (args, message) => {
    expect(cli(args)).toEqual({ code: 2, stdout: '', stderr: `${message}\n${USAGE}\n` });
  });

  it('app-server --help shows the general help and then its environment variables and exit codes', () => {
    const general = cli(['--help']);
    const command = cli(['app-server', '--help']);
    expect(command.code).toBe(0);
    expect(command.stdout.startsWith(general.stdout)).toBe(true);
    const extra = command.stdout.slice(general.stdout.length);
    expect(extra).toContain('VV_AGENT_HOME');
    expect(extra).toContain('Exit codes:');
    expect(extra).toMatch(/^ {2}2 {2}usage or configuration error/m);
    expect(general.stdout).toContain('-V, --version');
  });

  it('an unknown --backend names the backends the settings file has; exit 2', () => {
    const run = cli([
      'app-server',
      '--listen',
      'stdio',
      '--settings',
      sandbox.settingsPath,
      '--backend',
      'fkae',
      '--model',
      MODEL,
    ]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `invalid LLM settings: backend not found: fkae\navailable backends: ${BACKEND}\n`,
    });
  });

  it('api_key_env: a missing variable is exit 2 naming it; when set, the key reaches the model server', async () => {
    const settings = JSON.parse(readFileSync(sandbox.settingsPath, 'utf8')) as {
      endpoints: Array<Record<string, unknown>>;
    };
    for (const endpoint of settings.endpoints) {
      delete endpoint.api_key;
      endpoint.api_key_env = 'VV_E2E_MODEL_KEY';
    }
    const path = join(sandbox.root, 'env-settings.json');
    writeFileSync(path, JSON.stringify(settings));
    const args = [
      'app-server',
      '--listen',
      'stdio',
      '--settings',
      path,
      '--backend',
      BACKEND,
      '--model',
      MODEL,
    ];
    const env = { ...process.env };
    delete env.VV_E2E_MODEL_KEY;
    const missing = cli([...args, '--store', ':memory:'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `invalid LLM settings: endpoint ${String(settings.endpoints[0].id)}: environment variable VV_E2E_MODEL_KEY is not set\n`,
    );

    const child = JsonlChild.spawnNode([DIST_MAIN, ...args, '--store', ':memory:'], {
      cwd: sandbox.root,
      env: { ...env, VV_E2E_MODEL_KEY: 'sk-from-the-environment' },
    });
    try {
      sandbox.model.enqueue(finishReply('ok'));
      child.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { clientInfo: { name: 'cli-e2e' } },
      });
      await child.waitFor((m) => m.id === 1);
      child.send({ jsonrpc: '2.0', method: 'initialized' });
      child.send({ jsonrpc: '2.0', id: 2, method: 'thread/start', params: { cwd: sandbox.workspace } });
      const started = await child.waitFor((m) => m.id === 2);
      const threadId = (started.result as { threadId: string }).threadId;
      child.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'turn/start',
        params: { threadId, input: [{ type: 'text', text: 'hi' }] },
      });
      await child.waitFor((m) => m.method === 'turn/completed', 30_000);
      expect(sandbox.model.requests[0].headers.authorization).toBe('Bearer sk-from-the-environment');
      // Ready: one stderr line naming the transport, model and store.
      expect(child.stderr).toContain(
        `vv-agent app-server ready on stdio (model ${BACKEND}/${MODEL}, store :memory:)\n`,
      );
      expect(child.stderr).not.toContain('sk-from-the-environment');
    } finally {
      child.closeStdin();
      await child.waitExit(15_000);
    }
  });

  it('the bin also works under its package name (vv-agent-app-server)', () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ 'vv-agent': 'dist/main.js', 'vv-agent-app-server': 'dist/main.js' });
    expect(
      execFileSync(
        process.execPath,
        [resolve(__dirname, '../..', manifest.bin['vv-agent-app-server']), '-V'],
        { encoding: 'utf8' },
      ),
    ).toBe(`${VERSION}\n`);
  });
});
