/**
 * The package as a user gets it (issue 16): `npm pack` of the built tree, installed — not linked —
 * into a fresh application together with Nest from the npm registry. The application is the
 * embedding guide's HTTP example (docs/examples/nest-http-app.ts), compiled with TypeScript's
 * classic module resolution and run against the fake model server on 127.0.0.1.
 * Build first (`npm run build`). The install compiles sqlite3 (no prebuilt binaries here): minutes.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { FakeOpenAiServer, fakeSettingsDocument } from '../helpers/fake-openai-server';
import { finishReply, hangingTextReply } from '../helpers/model-replies';
import { AppServerClient, Runner, ScriptedModelProvider, startInProcessAppServer } from '../../dist';

jest.setTimeout(60_000);

const REPO = resolve(__dirname, '..', '..');
const PLANTED_CACHE = join(REPO, 'dist', 'cli-bundle.0000000000000000-node0.0.0-x64.v8cache');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackedFile {
  path: string;
}

let root: string;
let app: string;
let packed: PackedFile[];
let model: FakeOpenAiServer;

function repoVersion(name: string): string {
  return (
    JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
  ).version;
}

function nodeIn(directory: string, script: string): string {
  return execFileSync(process.execPath, ['-e', script], { cwd: directory, encoding: 'utf8' });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vv-package-e2e-'));
  app = join(root, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  // A code cache the repo's own CLI runs left in dist (src/main.ts) must not be packed.
  writeFileSync(PLANTED_CACHE, 'not for the package');
  const [info] = JSON.parse(
    execFileSync(NPM, ['pack', '--json', '--pack-destination', root], { cwd: REPO, encoding: 'utf8' }),
  ) as Array<{ filename: string; files: PackedFile[] }>;
  packed = info.files;
  rmSync(PLANTED_CACHE, { force: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'chat-app',
      version: '1.0.0',
      private: true,
      dependencies: {
        'vv-agent-app-server': `file:${join(root, info.filename)}`,
        '@nestjs/common': repoVersion('@nestjs/common'),
        '@nestjs/core': repoVersion('@nestjs/core'),
        '@nestjs/microservices': repoVersion('@nestjs/microservices'),
        '@nestjs/platform-express': repoVersion('@nestjs/platform-express'),
        'reflect-metadata': repoVersion('reflect-metadata'),
        rxjs: repoVersion('rxjs'),
      },
    }),
  );
  execFileSync(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  model = await FakeOpenAiServer.start();
}, 900_000);

afterAll(async () => {
  await model?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships the build, schemas, docs, examples, README and LICENSE — no sources, tests or source maps', () => {
    const paths = packed.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/main.js',
        'dist/client/index.js',
        'dist/nest/index.js',
        'dist/runtime/index.js',
        'dist/protocols/app-server-v1/schema/index.js',
        'dist/protocols/app-server-v1/schema/embedded-schema-files.json',
        'dist/cli/nest-commander.js',
        'dist/cli-bundle.js',
        'schema/app-server/json/ServerNotification.json',
        'docs/embedding-guide.md',
        'docs/examples/nest-http-app.ts',
        'examples/settings.json',
      ]),
    );
    const unexpected = paths.filter(
      (path) =>
        /^(src|test|bench|scripts|\.ci)\//.test(path) ||
        path.endsWith('.map') ||
        path.endsWith('.tsbuildinfo') ||
        path.endsWith('.v8cache'),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('installed into a fresh Nest application', () => {
  it('installs one @nestjs/core (a peer) and none of the CLI-only packages', () => {
    const modules = join(app, 'node_modules');
    for (const cliOnly of [
      'nest-commander',
      'inquirer',
      'prettier',
      '@fig/complete-commander',
      'cosmiconfig',
    ])
      expect([cliOnly, existsSync(join(modules, cliOnly))]).toEqual([cliOnly, false]);
    expect(existsSync(join(modules, 'vv-agent-app-server', 'node_modules', '@nestjs'))).toBe(false);
    const manifest = JSON.parse(
      readFileSync(join(modules, 'vv-agent-app-server', 'package.json'), 'utf8'),
    ) as {
      peerDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.peerDependencies)).toEqual(
      expect.arrayContaining(['@nestjs/common', '@nestjs/core', '@nestjs/microservices']),
    );
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@nestjs/'))).toEqual([]);
  });

  it('both bins run from the installed package (the CLI carries its own nest-commander)', () => {
    for (const bin of ['vv-agent', 'vv-agent-app-server']) {
      const help = execFileSync(join(app, 'node_modules', '.bin', bin), ['--help'], { encoding: 'utf8' });
      expect(help).toContain('vv-agent app-server --listen');
    }
    const schema = execFileSync(
      join(app, 'node_modules', '.bin', 'vv-agent-app-server'),
      ['app-server', 'schema', '--out', join(root, 'schema-out')],
      { encoding: 'utf8' },
    );
    expect(schema).toBe('');
    expect(readFileSync(join(root, 'schema-out', 'json', 'ServerNotification.json'), 'utf8')).toBe(
      readFileSync(join(REPO, 'schema', 'app-server', 'json', 'ServerNotification.json'), 'utf8'),
    );
  });

  it('the installed server runs from its bundle and leaves a V8 code cache beside it for the next start', async () => {
    const installedDist = join(app, 'node_modules', 'vv-agent-app-server', 'dist');
    const caches = (): string[] => readdirSync(installedDist).filter((name) => name.endsWith('.v8cache'));
    expect(existsSync(join(installedDist, 'cli-bundle.js'))).toBe(true);
    // The one-shot commands run earlier (--help, schema) write no cache: it would lack the server's code.
    expect(caches()).toEqual([]);
    const settings = join(root, 'cache-settings.json');
    writeFileSync(
      settings,
      JSON.stringify(fakeSettingsDocument({ endpoints: [{ id: 'local', apiBase: model.baseUrl }] })),
    );
    const serve = async (run: number): Promise<string> => {
      const client = AppServerClient.spawn({
        command: join(app, 'node_modules', '.bin', 'vv-agent-app-server'),
        args: [
          'app-server',
          '--listen',
          'stdio',
          '--settings',
          settings,
          '--backend',
          'moonshot',
          '--model',
          'kimi-k3',
          '--store',
          join(root, `cache-store-${run}`, 'app-server.sqlite'),
        ],
        cwd: root,
      });
      const { userAgent } = await client.initialize({ name: 'package-e2e', version: '1.0.0' });
      await client.close();
      return userAgent;
    };
    const first = await serve(1);
    expect(caches()).toEqual([
      expect.stringMatching(
        new RegExp(
          `^cli-bundle\\.[0-9a-f]{16}-node${process.versions.node.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}\\.v8cache$`,
        ),
      ),
    ]);
    const [cache] = caches();
    const written = statSync(join(installedDist, cache)).mtimeMs;
    expect(await serve(2)).toBe(first);
    // Accepted by the second start, so not rewritten.
    expect(caches()).toEqual([cache]);
    expect(statSync(join(installedDist, cache)).mtimeMs).toBe(written);
  });

  it('vv-agent-app-server/client loads none of Nest, TypeORM, sqlite3 or class-validator', () => {
    const loaded = JSON.parse(
      nodeIn(
        app,
        `const { AppServerClient } = require('vv-agent-app-server/client');
         if (typeof AppServerClient.spawn !== 'function') throw new Error('no client');
         process.stdout.write(JSON.stringify(Object.keys(require.cache)));`,
      ),
    ) as string[];
    expect(
      loaded.filter((path) => /node_modules[\\/](@nestjs|typeorm|sqlite3|class-validator)[\\/]/.test(path)),
    ).toEqual([]);
    expect(loaded.some((path) => path.includes(join('vv-agent-app-server', 'dist', 'client')))).toBe(true);
  });

  it('each subpath resolves; deep imports outside the exports map are refused', () => {
    const out = nodeIn(
      app,
      `const names = ['vv-agent-app-server', 'vv-agent-app-server/client', 'vv-agent-app-server/runtime',
         'vv-agent-app-server/nest', 'vv-agent-app-server/schema'];
       const kinds = names.map((name) => typeof require(name));
       const files = require('vv-agent-app-server/schema').appServerSchemaFiles();
       // The root holds the schema entry point's export too (docs/embedding-guide.md §6).
       const rootSchemas = Object.keys(require('vv-agent-app-server').appServerSchemaFiles().jsonSchema).length;
       let deep = 'resolved';
       try { require.resolve('vv-agent-app-server/dist/cli/run-cli'); } catch (e) { deep = e.code; }
       process.stdout.write(JSON.stringify({ kinds, schemas: Object.keys(files.jsonSchema).length, rootSchemas, deep,
         json: require('vv-agent-app-server/schema/app-server/json/ServerNotification.json').title !== undefined }));`,
    );
    expect(JSON.parse(out)).toEqual({
      kinds: ['object', 'object', 'object', 'object', 'object'],
      schemas: expect.any(Number),
      rootSchemas: JSON.parse(out).schemas,
      deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      json: expect.any(Boolean),
    });
  });

  it('a browser bundle of the client (esbuild, platform browser) builds and pulls in no Node built-in', () => {
    const entry = join(app, 'src', 'browser-entry.js');
    writeFileSync(
      entry,
      "import { AppServerClient } from 'vv-agent-app-server/client';\nglobalThis.client = AppServerClient;\n",
    );
    const result = buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: app,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter((path) => path.startsWith('node:') || /^(fs|path|child_process|net|os)$/.test(path)),
    ).toEqual([]);
    expect(
      inputs.filter((path) => /node_modules\/(@nestjs|typeorm|sqlite3|class-validator|ws)\//.test(path)),
    ).toEqual([]);
  });

  /**
   * `tsc --noEmit` of one source file in a directory of the app, with `moduleResolution: bundler`
   * and strict settings on top of `compilerOptions`: its exit status and output.
   */
  function typeCheckInApp(
    name: string,
    source: string[],
    compilerOptions: Record<string, unknown>,
  ): { status: number | null; output: string } {
    const dir = join(app, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.ts'), [...source, ''].join('\n'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          ...compilerOptions,
        },
        files: ['main.ts'],
      }),
    );
    const run = spawnSync(
      process.execPath,
      [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')],
      { cwd: app, encoding: 'utf8' },
    );
    return { status: run.status, output: run.stdout };
  }

  it("a browser project type-checks against the client's declarations alone (DOM lib, no Node types, skipLibCheck off)", () => {
    // Before the client named its own in-process shape, its declarations reached Nest, TypeORM and
    // Node's types through the server core: 108 errors here.
    expect(
      typeCheckInApp(
        'browser-types',
        [
          "import { AppServerClient, type AppItem } from 'vv-agent-app-server/client';",
          "export const connecting: Promise<AppServerClient> = AppServerClient.connect('ws://127.0.0.1:1', { token: 'x' });",
          'export const textOf = (item: AppItem): unknown => item.payload.text;',
        ],
        { lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
      ),
    ).toEqual({ status: 0, output: '' });
  });

  it("a bundler-resolution project type-checks a postgres store option against the Nest subpath's declarations", () => {
    // Before the options named TypeORM's postgres type through the package root, its deep path (no
    // `types` condition in typeorm's exports) did not resolve and `dataSource` was silently `any`:
    // TS2578, the expected error never came.
    expect(
      typeCheckInApp(
        'bundler-types',
        [
          "import type { AppServerModuleOptions } from 'vv-agent-app-server/nest';",
          "export const store: AppServerModuleOptions['store'] = {",
          "  dataSource: { type: 'postgres', host: '127.0.0.1', port: 5432, database: 'app' },",
          '};',
          // If the postgres options type did not resolve, it would be `any` and this would not fail.
          '// @ts-expect-error a misspelt connection field',
          "export const misspelt: AppServerModuleOptions['store'] = { dataSource: { type: 'postgres', hots: 'x' } };",
        ],
        {
          lib: ['ES2022'],
          typeRoots: [join(REPO, 'node_modules', '@types')],
          types: ['node'],
          skipLibCheck: true,
        },
      ),
    ).toEqual({ status: 0, output: '' });
  });

  describe('the embedding guide HTTP app (compiled from docs/examples/nest-http-app.ts)', () => {
    let server: ChildProcess | null = null;
    let stderr = '';

    function compileApp(): string {
      writeFileSync(
        join(app, 'src', 'main.ts'),
        readFileSync(join(REPO, 'docs', 'examples', 'nest-http-app.ts')),
      );
      execFileSync(
        process.execPath,
        [
          join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--outDir',
          join(app, 'out'),
          '--rootDir',
          join(app, 'src'),
          '--module',
          'commonjs',
          '--moduleResolution',
          'node',
          '--target',
          'ES2022',
          '--strict',
          '--experimentalDecorators',
          '--emitDecoratorMetadata',
          '--esModuleInterop',
          '--skipLibCheck',
          '--typeRoots',
          join(REPO, 'node_modules', '@types'),
          '--types',
          'node',
          join(app, 'src', 'main.ts'),
        ],
        { cwd: app, stdio: ['ignore', 'inherit', 'inherit'] },
      );
      return join(app, 'out', 'main.js');
    }

    async function startApp(main: string, store: string): Promise<string> {
      const settings = join(root, 'settings.json');
      writeFileSync(
        settings,
        JSON.stringify(
          fakeSettingsDocument({
            endpoints: [{ id: 'fake', apiBase: model.baseUrl }],
            backend: 'local',
            model: 'm',
          }),
        ),
      );
      const workspace = join(root, 'ws');
      mkdirSync(workspace, { recursive: true });
      stderr = '';
      const child = spawn(process.execPath, [main], {
        cwd: app,
        env: {
          ...process.env,
          CHAT_SETTINGS: settings,
          CHAT_BACKEND: 'local',
          CHAT_MODEL: 'm',
          CHAT_STORE: store,
          CHAT_WORKSPACE: workspace,
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server = child;
      child.stderr!.setEncoding('utf8');
      return new Promise((resolveUrl, reject) => {
        const timer = setTimeout(() => reject(new Error(`app did not start: ${stderr}`)), 30_000);
        child.stderr!.on('data', (chunk: string) => {
          stderr += chunk;
          const match = /chat app listening on (http:\/\/\S+)/.exec(stderr);
          if (match) {
            clearTimeout(timer);
            resolveUrl(match[1].replace('[::1]', '127.0.0.1'));
          }
        });
        child.once('exit', (code) => reject(new Error(`app exited ${code}: ${stderr}`)));
      });
    }

    async function json(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
      const response = await fetch(url, init);
      expect(response.ok).toBe(true);
      return (await response.json()) as Record<string, unknown>;
    }

    async function startChat(base: string, text: string): Promise<{ threadId: string; turnId: string }> {
      return (await json(`${base}/chats`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      })) as { threadId: string; turnId: string };
    }

    afterEach(() => {
      if (server !== null && server.exitCode === null) server.kill('SIGKILL');
      server = null;
    });

    it('runs a turn through an HTTP endpoint with a DI-built host, then SIGTERM mid-turn stores it interrupted', async () => {
      const main = compileApp();
      const store = join(root, 'chat.sqlite');
      const base = await startApp(main, store);

      model.enqueue(finishReply('hello over http'));
      const first = await startChat(base, 'say hello');
      let state: Record<string, unknown> = {};
      for (let i = 0; i < 200 && state.status !== 'completed'; i++) {
        state = await json(`${base}/chats/${first.threadId}`);
        if (state.status !== 'completed') await new Promise((wake) => setTimeout(wake, 50));
      }
      expect(state).toEqual({ status: 'completed', finalOutput: 'hello over http' });
      // The host Nest built got the application's AssistantProfile: its instructions reached the model.
      const system = (model.requests[0].body?.messages as Array<{ role: string; content: string }>)[0];
      expect(system).toEqual({
        role: 'system',
        content: 'You are the product assistant. Answer briefly, then call task_finish.',
      });

      model.enqueue(hangingTextReply(['thinking']));
      const requestsBefore = model.requests.length;
      const second = await startChat(base, 'think forever');
      for (let i = 0; i < 200 && model.requests.length === requestsBefore; i++)
        await new Promise((wake) => setTimeout(wake, 25));
      expect(model.requests.length).toBe(requestsBefore + 1);

      const child = server!;
      const exited = new Promise<{ code: number | null; signal: string | null; ms: number }>(
        (resolveExit) => {
          const sent = Date.now();
          child.once('exit', (code, signal) => resolveExit({ code, signal, ms: Date.now() - sent }));
        },
      );
      child.kill('SIGTERM');
      const exit = await exited;
      // Nest's shutdown hooks close the app, then re-raise the signal to end the process.
      expect(exit).toEqual({ code: null, signal: 'SIGTERM', ms: expect.any(Number) });
      expect(exit.ms).toBeLessThan(5_000);
      expect(stderr).not.toMatch(/error/i);

      // Read the store back with the repository's own server: the turn is stored interrupted.
      const reader = await startInProcessAppServer({
        runner: new Runner({ modelProvider: new ScriptedModelProvider() }),
        store: { path: store },
      });
      const client = AppServerClient.inProcess(reader);
      try {
        await client.initialize({ name: 'package-e2e' });
        const { turns } = await client.readThread({ threadId: second.threadId });
        expect(turns.find((turn) => turn.turnId === second.turnId)?.status).toBe('interrupted');
      } finally {
        await client.close();
        await reader.close();
      }
    });
  });
});
