/**
 * Starts the built CLI (`node dist/main.js app-server --listen stdio …`) for the reliability suite,
 * in a temp workspace whose settings file points at a model server on 127.0.0.1.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeSettingsDocument } from '../../helpers/fake-openai-server';
import { DIST_MAIN, JsonlChild, type JsonMessage } from '../../helpers/jsonl-child';

export const BACKEND = 'moonshot';
export const MODEL = 'kimi-k3';
/** Nothing listens on the discard port: model calls fail with a connection error. */
export const CLOSED_MODEL_URL = 'http://127.0.0.1:9/v1';

export interface Workspace {
  dir: string;
  settingsPath: string;
  /** Absolute `cwd` for thread/start. */
  threadCwd: string;
  dispose(): void;
}

export function createWorkspace(modelBaseUrl: string = CLOSED_MODEL_URL): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'vv-rel-'));
  const settingsPath = join(dir, 'settings.json');
  writeFileSync(
    settingsPath,
    JSON.stringify(fakeSettingsDocument({ endpoints: [{ id: 'local', apiBase: modelBaseUrl }] })),
  );
  const threadCwd = join(dir, 'workspace');
  mkdirSync(threadCwd);
  return { dir, settingsPath, threadCwd, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export function spawnServer(workspace: Workspace, store: string, extraArgs: string[] = []): JsonlChild {
  return JsonlChild.spawnNode(
    [
      DIST_MAIN,
      'app-server',
      '--listen',
      'stdio',
      '--settings',
      workspace.settingsPath,
      '--backend',
      BACKEND,
      '--model',
      MODEL,
      '--store',
      store,
      ...extraArgs,
    ],
    { cwd: workspace.dir, env: { ...process.env, VV_AGENT_HOME: workspace.dir } },
  );
}

/** Sends a request and returns its `result`; throws with the answer when it is an error. */
export async function call(
  child: JsonlChild,
  id: string | number,
  method: string,
  params?: unknown,
): Promise<JsonMessage> {
  const answer = await child.request(id, method, params, 30_000);
  if (!('result' in answer)) throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
  return answer.result as JsonMessage;
}

export async function startServer(
  workspace: Workspace,
  store: string,
  extraArgs: string[] = [],
): Promise<JsonlChild> {
  const child = spawnServer(workspace, store, extraArgs);
  await call(child, 'init', 'initialize', { clientInfo: { name: 'reliability' } });
  return child;
}

export async function startThread(
  child: JsonlChild,
  workspace: Workspace,
  id: string | number = 'thread',
): Promise<string> {
  const result = await call(child, id, 'thread/start', { cwd: workspace.threadCwd });
  return result.threadId as string;
}

/** SIGKILLs a child that is still running and waits for it. */
export async function stopChild(child: JsonlChild): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.kill('SIGKILL');
  await child.waitExit();
}
