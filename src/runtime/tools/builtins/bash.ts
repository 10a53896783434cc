/** `bash` (docs/spec/runtime.md §10.6): one confined, bounded, cancellable shell command. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { ToolArtifact, ToolContext, ToolOutput } from '../types';
import { persistOutputArtifact, readCapturedOutput } from './captured-output';
import { shellBoundary } from './shell-boundary';
import { DEFAULT_CAPTURE_LIMIT_BYTES, runShell } from './shell-process';
import { clamp, optionalBoolean, optionalString, type ToolArgs } from './tool-arguments';
import { BuiltinToolError, errorOutput, guardBuiltin } from './tool-error';
import { resolveWorkspacePath } from './workspace-path';

export const DANGEROUS_COMMAND_SNIPPETS = [
  'rm -rf /',
  'shutdown',
  'reboot',
  'mkfs',
  'dd if=/dev/zero of=/dev/',
];
const DEFAULT_TIMEOUT_SECONDS = 300;
const MIN_TIMEOUT_SECONDS = 1;
const MAX_TIMEOUT_SECONDS = 600;

function readCommand(args: ToolArgs): string {
  const command = optionalString(args, 'command') ?? '';
  if (command.trim() === '') throw new BuiltinToolError('command_required', '`command` is required');
  const lowered = command.toLowerCase();
  const snippet = DANGEROUS_COMMAND_SNIPPETS.find((candidate) => lowered.includes(candidate));
  if (snippet !== undefined)
    throw new BuiltinToolError('dangerous_command', `dangerous command blocked: ${snippet}`);
  return command;
}

/** Integer seconds (an integer string is accepted too), clamped to 1…600. */
export function readTimeoutSeconds(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_SECONDS;
  const parsed = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value.trim()) : value;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed)) {
    throw new BuiltinToolError('invalid_timeout', '`timeout` must be an integer');
  }
  return clamp(parsed, MIN_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
}

async function resolveExecDir(
  workspace: string,
  rawExecDir: string,
): Promise<{ absolute: string; relative: string }> {
  const target = await resolveWorkspacePath(workspace, rawExecDir);
  const stats = await fs.stat(target.absolute).catch(() => null);
  if (stats === null || !stats.isDirectory()) {
    throw new BuiltinToolError('invalid_exec_dir', `exec_dir not found: ${rawExecDir}`);
  }
  return target;
}

interface OutputOverflow {
  artifact: ToolArtifact;
  originalBytes: number;
}

/** Status, content and metadata for a command that exited or timed out. */
function commandResult(
  outcome: { kind: 'exited'; exitCode: number } | { kind: 'timeout' },
  text: string,
  cwd: string,
  timeoutSeconds: number,
  overflow: OutputOverflow | undefined,
): ToolOutput {
  let content: string;
  let errorCode: string | null;
  let metadata: Record<string, unknown>;
  if (outcome.kind === 'timeout') {
    content = `${text}\n[command timed out after ${timeoutSeconds} seconds]`;
    errorCode = 'command_timeout';
    metadata = { cwd, exit_code: null, timeout_seconds: timeoutSeconds };
  } else {
    const { exitCode } = outcome;
    content = text === '' && exitCode !== 0 ? `command exited with code ${exitCode}` : text;
    errorCode = exitCode === 0 ? null : 'command_failed';
    metadata = { cwd, exit_code: exitCode };
  }
  const bounded = overflow
    ? {
        truncated: true,
        truncation_reason: 'output_limit' as const,
        artifact: overflow.artifact,
        original_bytes: overflow.originalBytes,
        visible_bytes: Buffer.byteLength(content, 'utf8'),
      }
    : {};
  return {
    type: 'result',
    result: {
      content,
      status: errorCode === null ? 'success' : 'error',
      directive: 'continue',
      error_code: errorCode,
      metadata,
      ...bounded,
    },
  };
}

function cancelledOutput(): ToolOutput {
  return errorOutput('tool_execution_cancelled', 'Operation was cancelled');
}

export function bashHandler(ctx: ToolContext, args: ToolArgs): Promise<ToolOutput> {
  return guardBuiltin(async () => {
    const command = readCommand(args);
    const timeoutSeconds = readTimeoutSeconds(args.timeout);
    const execDir = await resolveExecDir(ctx.workspace, optionalString(args, 'exec_dir') ?? '.');
    const stdin = optionalString(args, 'stdin') ?? '';
    const autoConfirm = optionalBoolean(args, 'auto_confirm') ?? false;
    if (ctx.signal.aborted) return cancelledOutput();
    const boundary = shellBoundary(ctx.sandbox, ctx.workspace, execDir.absolute);

    const captureDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vv-agent-bash-'));
    try {
      const capturePath = path.join(captureDir, 'output');
      const outcome = await runShell({
        script: autoConfirm ? `yes | (${command})` : command,
        cwd: execDir.absolute,
        stdin,
        timeoutMs: timeoutSeconds * 1000,
        signal: ctx.signal,
        capturePath,
        sandbox: boundary.sandbox,
      });
      if (outcome.kind === 'cancelled') return cancelledOutput();
      if (outcome.kind === 'spawn_failed') {
        const message = `Failed to start bash: ${outcome.error.message}`;
        throw new BuiltinToolError('command_failed', message, {}, { cwd: execDir.relative });
      }

      const captured = await readCapturedOutput(capturePath);
      const artifact = captured.truncated
        ? await persistOutputArtifact(ctx.workspace, ctx.runId, ctx.toolCallId, capturePath)
        : undefined;
      const discardedBytes = outcome.discardedBytes ?? 0;
      const overflow = artifact && { artifact, originalBytes: captured.originalBytes + discardedBytes };
      const result = commandResult(outcome, captured.text, execDir.relative, timeoutSeconds, overflow);
      // §10.6 v1.1: past the capture limit the output was discarded; the result says how much.
      if (discardedBytes > 0 && result.type === 'result') {
        result.result.metadata.output_limit_bytes = DEFAULT_CAPTURE_LIMIT_BYTES;
        result.result.metadata.discarded_bytes = discardedBytes;
      }
      // §4 of docs/spec/sandbox.md: a denied write still reports the command's own exit code and output.
      if (boundary.report !== undefined && result.type === 'result') result.result.sandbox = boundary.report;
      return result;
    } finally {
      await fs.rm(captureDir, { recursive: true, force: true });
    }
  });
}
