/**
 * Starts the built CLI (`node dist/main.js app-server --listen stdio …`) in a throwaway workspace
 * whose settings file points at a model server on 127.0.0.1 (or at a closed port when the
 * benchmark never calls the model).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { JsonlPeer } from './jsonl-peer';

export const DIST_MAIN = resolve(__dirname, '../../dist/main.js');
export const BENCH_BACKEND = 'bench';
export const BENCH_MODEL = 'bench-model';
/** Nothing listens on the discard port: model calls fail fast when a benchmark makes none. */
const UNUSED_MODEL_URL = 'http://127.0.0.1:9/v1';

export interface BenchWorkspace {
  /** Temp directory: settings, stores, and the thread workspace (`cwd`). */
  dir: string;
  settingsPath: string;
  /** Absolute directory to pass as `thread/start` `cwd`. */
  threadCwd: string;
  dispose(): void;
}

export function createWorkspace(modelBaseUrl: string = UNUSED_MODEL_URL): BenchWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'vv-bench-'));
  const settingsPath = join(dir, 'settings.json');
  writeFileSync(
    settingsPath,
    JSON.stringify({
      VERSION: '2',
      endpoints: [{ id: 'local', api_base: modelBaseUrl, api_key: 'sk-bench' }],
      backends: {
        [BENCH_BACKEND]: {
          models: {
            [BENCH_MODEL]: {
              id: BENCH_MODEL,
              endpoints: ['local'],
              context_length: 1_000_000,
              function_call_available: true,
            },
          },
        },
      },
    }),
  );
  const threadCwd = join(dir, 'workspace');
  mkdirSync(threadCwd);
  return { dir, settingsPath, threadCwd, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `listen`: the `--listen` value and its options (default stdio; see support/ws-clients.ts). */
export function appServerArgs(
  workspace: BenchWorkspace,
  store: string,
  extra: string[] = [],
  listen: string[] = ['stdio'],
): string[] {
  return [
    DIST_MAIN,
    'app-server',
    '--listen',
    ...listen,
    '--settings',
    workspace.settingsPath,
    '--backend',
    BENCH_BACKEND,
    '--model',
    BENCH_MODEL,
    '--store',
    store,
    ...extra,
  ];
}

/** Node flags for every server a benchmark starts, for diagnosis (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
const DIAGNOSTIC_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** `env`: extra variables for the server (the tracing benchmark's `OTEL_*`). */
export function spawnAppServer(
  workspace: BenchWorkspace,
  store: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): JsonlPeer {
  return JsonlPeer.spawnNode([...DIAGNOSTIC_NODE_ARGS, ...appServerArgs(workspace, store, extra)], {
    cwd: workspace.dir,
    env: { ...process.env, VV_AGENT_HOME: workspace.dir, ...env },
  });
}

export const INITIALIZE_PARAMS = { clientInfo: { name: 'vv-bench', version: '0.1.0' } };

/** Spawns the server and completes `initialize`. */
export async function startAppServer(
  workspace: BenchWorkspace,
  store: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<JsonlPeer> {
  const peer = spawnAppServer(workspace, store, extra, env);
  await peer.call('init', 'initialize', INITIALIZE_PARAMS);
  return peer;
}

/** `thread/start` in the workspace; resolves with the thread id. */
export async function startThread(
  peer: JsonlPeer,
  workspace: BenchWorkspace,
  id: string | number,
): Promise<string> {
  const result = await peer.call(id, 'thread/start', { cwd: workspace.threadCwd });
  return result.threadId as string;
}
