/**
 * The set-up the heap and first-turn diagnostics share: the model process, a workspace and one
 * built server started with extra node flags (the script's own plus NODE_EXTRA), initialized and
 * with one thread; everything is closed when `run` settles.
 */
import { join } from 'node:path';
import {
  appServerArgs,
  type BenchWorkspace,
  createWorkspace,
  INITIALIZE_PARAMS,
  startThread,
} from '../support/app-server-launch';
import { DeltaStreamModelProcess } from '../support/delta-stream-model.process';
import { JsonlPeer } from '../support/jsonl-peer';

export interface DiagnosticServer {
  server: JsonlPeer;
  workspace: BenchWorkspace;
  threadId: string;
}

export async function withDiagnosticServer(
  nodeArgs: string[],
  run: (session: DiagnosticServer) => Promise<void>,
): Promise<void> {
  const extraNodeArgs = (process.env.NODE_EXTRA ?? '').split(' ').filter(Boolean);
  const model = await DeltaStreamModelProcess.start();
  const workspace = createWorkspace(model.baseUrl);
  const server = JsonlPeer.spawnNode(
    [...nodeArgs, ...extraNodeArgs, ...appServerArgs(workspace, join(workspace.dir, 'diagnostic.sqlite'))],
    { cwd: workspace.dir, env: { ...process.env, VV_AGENT_HOME: workspace.dir } },
  );
  try {
    await server.call('init', 'initialize', INITIALIZE_PARAMS);
    const threadId = await startThread(server, workspace, 'thread');
    await run({ server, workspace, threadId });
  } finally {
    await server.close();
    workspace.dispose();
    await model.close();
  }
}

/** Runs a diagnostic's main, printing a failure and setting the exit code. */
export function runDiagnostic(main: () => Promise<void>): void {
  void main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
