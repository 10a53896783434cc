import { mkdtempSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../../src/runtime/agent';
import { DefaultAppServerHost } from '../../../../src/core/host/default-app-server-host';
import type { HostTurnRequest } from '../../../../src/core/host/app-server-host';

const request = (overrides: Partial<HostTurnRequest> = {}): HostTurnRequest => ({
  threadId: 'thread_1',
  agentKey: 'default',
  cwd: null,
  metadata: {},
  ...overrides,
});

describe('DefaultAppServerHost (docs/spec/protocol.md §10.3)', () => {
  let dir: string;
  let previousCwd: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vv-host-'));
    previousCwd = process.cwd();
    process.chdir(dir);
  });

  afterEach(() => {
    process.chdir(previousCwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolveAgent returns the configured agent', async () => {
    const agent = Agent.create({ name: 'fixed', instructions: 'Be fixed.' });
    await expect(new DefaultAppServerHost({ agent }).resolveAgent(request({ agentKey: 'x' }))).resolves.toBe(
      agent,
    );
  });

  it.each([
    [' coder ', 'coder'],
    ['', 'assistant'],
    ['   ', 'assistant'],
  ])('resolveAgent without an agent builds one named after agentKey %p → %p', async (agentKey, name) => {
    const agent = await new DefaultAppServerHost().resolveAgent(request({ agentKey }));
    expect(agent.name).toBe(name);
    expect(agent.instructions).toBe('You are the default vv-agent App Server assistant.');
  });

  it('buildRunConfig clones the base config, sets the workspace from cwd and metadata.agent_key', async () => {
    const runConfig = { maxCycles: 7, metadata: { tenant: 'a' } };
    const host = new DefaultAppServerHost({ runConfig });
    writeFileSync(join(dir, 'marker'), '');
    const config = await host.buildRunConfig(request({ cwd: '.', agentKey: 'k' }));
    expect(config).toEqual({
      maxCycles: 7,
      workspace: process.cwd(),
      metadata: { tenant: 'a', agent_key: 'k' },
    });
    expect(config).not.toBe(runConfig);
    expect(runConfig.metadata).toEqual({ tenant: 'a' });
  });

  it('resolves a relative cwd against the process working directory', async () => {
    const config = await new DefaultAppServerHost().buildRunConfig(request({ cwd: '..' }));
    expect(config.workspace).toBe(join(process.cwd(), '..'));
  });

  it('throws for a cwd that is not an existing directory', async () => {
    writeFileSync(join(dir, 'file.txt'), 'x');
    const host = new DefaultAppServerHost();
    await expect(host.buildRunConfig(request({ cwd: 'missing' }))).rejects.toThrow(
      `workspace directory not found: ${join(process.cwd(), 'missing')}`,
    );
    await expect(host.buildRunConfig(request({ cwd: 'file.txt' }))).rejects.toThrow(
      `workspace directory not found: ${join(process.cwd(), 'file.txt')}`,
    );
  });

  it('creates the default workspace (recursively) when the thread has no cwd', async () => {
    const config = await new DefaultAppServerHost().buildRunConfig(request());
    expect(config.workspace).toBe(join(process.cwd(), 'workspace'));
    expect(statSync(join(dir, 'workspace')).isDirectory()).toBe(true);
    const nested = await new DefaultAppServerHost({ defaultWorkspace: 'a/b/c' }).buildRunConfig(request());
    expect(nested.workspace).toBe(join(process.cwd(), 'a/b/c'));
    expect(existsSync(join(dir, 'a/b/c'))).toBe(true);
  });

  it('listModels returns the configured catalog (default empty), params ignored', async () => {
    const models = [{ id: 'm1', provider: 'p', supportsTools: true }];
    await expect(new DefaultAppServerHost({ models }).listModels({ provider: 'other' })).resolves.toEqual({
      models,
    });
    await expect(new DefaultAppServerHost().listModels({})).resolves.toEqual({ models: [] });
  });
});
