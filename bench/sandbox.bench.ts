/**
 * Sandbox cost (docs/spec/sandbox.md §3): one `bash` call of `true` through the real tool handler,
 * inside the bubblewrap boundary (workspace-write, the server's hidden list) against the same call
 * unsandboxed (danger-full-access), alternating so that both see the same machine load. The figure
 * is the added cost of the sandbox, median of 50 each; target ≤ +25 ms. It is the net cost: bwrap's
 * start (namespaces, mounts) is added, the `/proc` walk of the unsandboxed kill is saved (the PID
 * namespace makes it unnecessary, process-tree.ts `containedByGroup`).
 *
 * Run: npx ts-node --transpile-only bench/run.ts sandbox
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPlatformSandbox } from '../src/runtime/sandbox/platform-sandbox';
import type { RunSandbox } from '../src/runtime/sandbox/run-sandbox';
import { homeCredentialList } from '../src/runtime/sandbox/sandbox-paths';
import { bashHandler } from '../src/runtime/tools/builtins/bash';
import type { ToolContext } from '../src/runtime/tools/types';
import { figure, type FigureGroup } from './support/figure';
import { median, percentile } from './support/stats';

const RUNS = 50;
const WARMUP = 3;
const ADDED_COST_TARGET_MS = 25;

function context(workspace: string, sandbox: RunSandbox, index: number): ToolContext {
  return {
    runId: 'run_bench',
    agentName: 'bench',
    toolCallId: `call_${index}`,
    toolName: 'bash',
    workspace,
    metadata: {},
    sharedState: {},
    signal: new AbortController().signal,
    sandbox,
  };
}

async function timedCall(workspace: string, sandbox: RunSandbox, index: number): Promise<number> {
  const started = process.hrtime.bigint();
  const output = await bashHandler(context(workspace, sandbox, index), { command: 'true' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (output.type !== 'result' || output.result.status !== 'success') {
    throw new Error(`bash true failed: ${JSON.stringify(output)}`);
  }
  return elapsed;
}

export async function runSandboxBenchmark(): Promise<FigureGroup> {
  const boundary = openPlatformSandbox({
    hidden: { paths: homeCredentialList(homedir()), directories: [] },
    extraWritableRoots: [],
    networkAllowed: false,
    searchPath: process.env.PATH,
  });
  if (boundary.unavailableCause !== null)
    throw new Error(`sandbox unavailable: ${boundary.unavailableCause}`);
  const sandboxed: RunSandbox = { mode: 'workspace-write', boundary };
  const unsandboxed: RunSandbox = { mode: 'danger-full-access', boundary: null };
  const workspace = mkdtempSync(join(tmpdir(), 'vv-bench-sandbox-'));
  try {
    for (let i = 0; i < WARMUP; i++) {
      await timedCall(workspace, sandboxed, i);
      await timedCall(workspace, unsandboxed, i);
    }
    const inside: number[] = [];
    const outside: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      inside.push(await timedCall(workspace, sandboxed, i));
      outside.push(await timedCall(workspace, unsandboxed, i));
    }
    const insideMedian = median(inside);
    const outsideMedian = median(outside);
    return {
      bashTrueAddedCost: figure({
        value: insideMedian - outsideMedian,
        floor: outsideMedian,
        unit: 'ms',
        runs: RUNS,
        better: 'lower',
        description:
          'net added cost of one sandboxed bash `true` (bwrap, workspace-write; no /proc walk) over the unsandboxed call; floor = the unsandboxed median',
        details: {
          sandboxedMedianMs: insideMedian,
          sandboxedP90Ms: percentile(inside, 90),
          unsandboxedMedianMs: outsideMedian,
          unsandboxedP90Ms: percentile(outside, 90),
        },
        target: { on: 'value', bound: 'max', limit: ADDED_COST_TARGET_MS },
      }),
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
