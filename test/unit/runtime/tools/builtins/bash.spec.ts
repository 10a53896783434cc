import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { readTimeoutSeconds } from '../../../../../src/runtime/tools/builtins/bash';
import { artifactSegment, PREVIEW_MARKER } from '../../../../../src/runtime/tools/builtins/captured-output';
import { BuiltinToolError } from '../../../../../src/runtime/tools/builtins/tool-error';
import type { ToolContext } from '../../../../../src/runtime/tools/types';
import { callTool, expectError, makeContext, makeWorkspace, type TempWorkspace } from './builtin-test-kit';

/** Live (non-zombie) processes whose process group id is `pgid`, from /proc. */
async function liveGroupMembers(pgid: number): Promise<number[]> {
  const members: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 2 && Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** Waits (bounded) for a process group to disappear; returns the members still alive at the end. */
async function groupAfterSettling(pgid: number): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const members = await liveGroupMembers(pgid);
    if (members.length === 0) return members;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return liveGroupMembers(pgid);
}

async function waitForFile(file: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${file}`);
}

describe('readTimeoutSeconds', () => {
  it.each([
    [undefined, 300],
    [30, 30],
    [0, 1],
    [-5, 1],
    [601, 600],
    ['45', 45],
  ])('%j → %d', (value, seconds) => expect(readTimeoutSeconds(value)).toBe(seconds));

  it.each([[1.5], ['soon'], [true]])('%j → invalid_timeout', (value) => {
    expect(() => readTimeoutSeconds(value)).toThrow(BuiltinToolError);
    expect(() => readTimeoutSeconds(value)).toThrow('`timeout` must be an integer');
  });
});

describe('artifactSegment', () => {
  it.each([
    ['call_Zp4Qe7Lm', 'call_Zp4Qe7Lm'],
    ['../../etc/passwd', 'etc-passwd'],
    ['a b/c', 'a-b-c'],
    ['///', 'fallback'],
    ['', 'fallback'],
  ])('%j → %j', (value, segment) => expect(artifactSegment(value, 'fallback')).toBe(segment));
});

describe('bash', () => {
  let ws: TempWorkspace;
  let ctx: ToolContext;
  beforeEach(async () => {
    ws = await makeWorkspace();
    ctx = makeContext(ws.root);
  });
  afterEach(() => ws.remove());

  const bash = (args: Record<string, unknown>, context: ToolContext = ctx) => callTool('bash', context, args);

  it('returns stdout on exit 0 with cwd and exit_code metadata', async () => {
    expect(await bash({ command: 'echo hello' })).toEqual({
      content: 'hello\n',
      status: 'success',
      directive: 'continue',
      error_code: null,
      metadata: { cwd: '.', exit_code: 0 },
    });
  });

  it('reports a non-zero exit as command_failed with the captured text', async () => {
    expect(await bash({ command: "printf 'fixture-output\\n'; exit 7" })).toEqual({
      content: 'fixture-output\n',
      status: 'error',
      directive: 'continue',
      error_code: 'command_failed',
      metadata: { cwd: '.', exit_code: 7 },
    });
  });

  it('says which code a silent failure exited with', async () => {
    const result = await bash({ command: 'exit 3' });
    expect(result.content).toBe('command exited with code 3');
    expect(result.metadata).toEqual({ cwd: '.', exit_code: 3 });
  });

  it('captures stdout and stderr interleaved in write order', async () => {
    const result = await bash({ command: 'echo out1; echo err1 >&2; echo out2; echo err2 >&2; echo out3' });
    expect(result.content).toBe('out1\nerr1\nout2\nerr2\nout3\n');
  });

  it('writes stdin and closes it; no stdin means an empty, closed stdin', async () => {
    expect((await bash({ command: 'cat; echo "[done]"', stdin: 'line1\nline2' })).content).toBe(
      'line1\nline2[done]\n',
    );
    expect((await bash({ command: 'cat; echo "[eof]"' })).content).toBe('[eof]\n');
  });

  it('pipes yes into the command with auto_confirm', async () => {
    expect((await bash({ command: 'read answer; echo "got $answer"', auto_confirm: true })).content).toBe(
      'got y\n',
    );
  });

  it('runs in exec_dir and reports it relative', async () => {
    await fs.mkdir(path.join(ws.root, 'sub/dir'), { recursive: true });
    const result = await bash({ command: 'pwd', exec_dir: 'sub/dir' });
    expect(result.content).toBe(`${path.join(ws.root, 'sub/dir')}\n`);
    expect(result.metadata).toEqual({ cwd: 'sub/dir', exit_code: 0 });
  });

  it.each([
    [{ command: '  \n ' }, 'command_required', '`command` is required'],
    [{}, 'command_required', '`command` is required'],
    [
      { command: 'sudo rm -rf / --no-preserve-root' },
      'dangerous_command',
      'dangerous command blocked: rm -rf /',
    ],
    [{ command: 'echo x && SHUTDOWN -h now' }, 'dangerous_command', 'dangerous command blocked: shutdown'],
    [{ command: 'reboot' }, 'dangerous_command', 'dangerous command blocked: reboot'],
    [{ command: 'mkfs.ext4 /dev/sda1' }, 'dangerous_command', 'dangerous command blocked: mkfs'],
    [
      { command: 'dd if=/dev/zero of=/dev/sda' },
      'dangerous_command',
      'dangerous command blocked: dd if=/dev/zero of=/dev/',
    ],
    [{ command: 'echo x', timeout: 2.5 }, 'invalid_timeout', '`timeout` must be an integer'],
    [{ command: 'echo x', exec_dir: 'missing' }, 'invalid_exec_dir', 'exec_dir not found: missing'],
    [
      { command: 'echo x', exec_dir: '../outside' },
      'path_escapes_workspace',
      'Path escapes workspace: ../outside',
    ],
  ])('%j → %s', async (args, code, message) => {
    expectError(await bash(args), code, message);
  });

  it('rejects a file as exec_dir', async () => {
    await ws.write('file.txt', '');
    expectError(
      await bash({ command: 'pwd', exec_dir: 'file.txt' }),
      'invalid_exec_dir',
      'exec_dir not found: file.txt',
    );
  });

  it('kills the whole process group on timeout and keeps the captured text', async () => {
    const result = await bash({
      command: 'echo $$ > pgid.txt; echo started; sleep 5 & sleep 5; wait',
      timeout: 1,
    });
    expect(result.status).toBe('error');
    expect(result.error_code).toBe('command_timeout');
    expect(result.content).toBe('started\n\n[command timed out after 1 seconds]');
    expect(result.metadata).toMatchObject({ cwd: '.', exit_code: null });
    const pgid = Number((await ws.read('pgid.txt')).toString().trim());
    expect(pgid).toBeGreaterThan(1);
    expect(await groupAfterSettling(pgid)).toEqual([]);
  });

  it('bounds long output to head + marker + tail and writes the full text to an artifact', async () => {
    const command =
      "head -c 6000 /dev/zero | tr '\\0' A; head -c 8001 /dev/zero | tr '\\0' M; head -c 5900 /dev/zero | tr '\\0' Z";
    const full = 'A'.repeat(6_000) + 'M'.repeat(8_001) + 'Z'.repeat(5_900);
    const result = await bash({ command });
    expect(result.status).toBe('success');
    expect(result.content).toBe(`${'A'.repeat(6_000)}${PREVIEW_MARKER}${'M'.repeat(53)}${'Z'.repeat(5_900)}`);
    expect(result.content).toHaveLength(12_000);
    expect(result.truncated).toBe(true);
    expect(result.truncation_reason).toBe('output_limit');
    expect(result.original_bytes).toBe(19_901);
    expect(result.visible_bytes).toBe(12_000);
    const artifact = result.artifact!;
    expect(artifact.path).toMatch(/^\.vv-agent\/artifacts\/run_test\/call_test-[0-9a-f]{32}\.txt$/);
    expect(artifact).toMatchObject({ media_type: 'text/plain', encoding: 'utf-8', size_bytes: 19_901 });
    const stored = await ws.read(artifact.path);
    expect(stored.toString()).toBe(full);
    expect(artifact.sha256).toBe(createHash('sha256').update(stored).digest('hex'));
  });

  it('keeps exactly 12 000 characters whole and counts characters, not bytes', async () => {
    const exact = await bash({ command: "head -c 12000 /dev/zero | tr '\\0' x" });
    expect(exact.content).toBe('x'.repeat(12_000));
    expect(exact.truncated).toBeUndefined();
    // 12 000 three-byte characters: 36 000 bytes but still within the character limit.
    const wide = await bash({ command: "for i in $(seq 1200); do printf '€€€€€€€€€€'; done" });
    expect(wide.content).toBe('€'.repeat(12_000));
    expect(wide.truncated).toBeUndefined();
  });

  it('keeps a failing status alongside the artifact', async () => {
    const result = await bash({ command: "head -c 13000 /dev/zero | tr '\\0' q; exit 2" });
    expect(result.error_code).toBe('command_failed');
    expect(result.truncated).toBe(true);
    expect((await ws.read(result.artifact!.path)).length).toBe(13_000);
  });

  it('fails with artifact_persist_failed when the artifact cannot be written', async () => {
    await ws.write('.vv-agent', 'a file where the artifact directory should be');
    const result = await bash({ command: "head -c 13000 /dev/zero | tr '\\0' q" });
    const content = expectError(result, 'artifact_persist_failed');
    expect(content.error).toMatch(/^Failed to persist output artifact: /);
  });

  it('kills the process group and reports cancellation when the run is cancelled', async () => {
    const controller = new AbortController();
    const running = bash(
      { command: 'echo $$ > pgid.txt; sleep 5 & sleep 5; wait' },
      makeContext(ws.root, { signal: controller.signal }),
    );
    const pgid = Number(await waitForFile(path.join(ws.root, 'pgid.txt')));
    controller.abort();
    const result = await running;
    expectError(result, 'tool_execution_cancelled', 'Operation was cancelled');
    expect(await groupAfterSettling(pgid)).toEqual([]);
  });

  it('does not start a command when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await bash(
      { command: 'touch ran.txt' },
      makeContext(ws.root, { signal: controller.signal }),
    );
    expectError(result, 'tool_execution_cancelled', 'Operation was cancelled');
    await expect(fs.access(path.join(ws.root, 'ran.txt'))).rejects.toThrow();
  });
});
