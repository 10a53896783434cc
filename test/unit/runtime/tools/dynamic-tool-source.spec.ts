/** RunConfig.toolSource (docs/spec/mcp.md §2 `tools/list_changed`): a changed tool list reaches the next model call of the same run. */
import { finish, ScriptedModelProvider, type ScriptStep } from '../../../../src/runtime/model/scripted-model';
import type { LlmClient, ModelProvider } from '../../../../src/runtime/model/types';
import { Runner } from '../../../../src/runtime/runner';
import type { DynamicToolSource } from '../../../../src/runtime/tools/dynamic-tool-source';
import type { ToolDefinition } from '../../../../src/runtime/tools/types';
import { diagnostics, makeAgent, recordingTool, tempDir, toolCall, toolMessages } from '../runtime-test-kit';

/** The scripted model, recording the tool names of every request. */
function recordingProvider(steps: ScriptStep[]): {
  provider: ModelProvider;
  toolNames: string[][];
} {
  const scripted = new ScriptedModelProvider({ steps });
  const toolNames: string[][] = [];
  const provider: ModelProvider = {
    resolve: (ref) => scripted.resolve(ref),
    defaultModelRef: () => scripted.defaultModelRef(),
    client: (resolved) => {
      const inner = scripted.client(resolved);
      const client: LlmClient = {
        complete: (request, callbacks, signal) => {
          toolNames.push(request.tools.map((tool) => tool.function.name));
          return inner.complete(request, callbacks, signal);
        },
      };
      return client;
    },
  };
  return { provider, toolNames };
}

/** A source whose list changes when `change` is called; counts refreshes. */
class ChangingSource implements DynamicToolSource {
  refreshes = 0;
  private pending: ToolDefinition[] | null = null;

  constructor(private current: ToolDefinition[]) {}

  change(next: ToolDefinition[]): void {
    this.pending = next;
  }

  tools(): readonly ToolDefinition[] {
    return this.current;
  }

  async refresh(_signal?: AbortSignal): Promise<boolean> {
    this.refreshes += 1;
    if (this.pending === null) return false;
    this.current = this.pending;
    this.pending = null;
    return true;
  }
}

describe('dynamic tool source', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('a tool added during the run is offered at the next model call and can be called; a removed one is gone', async () => {
    const added = recordingTool('mcp__srv__added');
    let source: ChangingSource | null = null;
    const unlock = recordingTool('mcp__srv__unlock', {
      handler: async () => {
        source!.change([added]);
        return { type: 'text', text: 'unlocked' };
      },
    });
    source = new ChangingSource([unlock]);
    const { provider, toolNames } = recordingProvider([
      { tool_calls: [toolCall('c1', 'mcp__srv__unlock')] },
      { tool_calls: [toolCall('c2', 'mcp__srv__added', { value: 'x' })] },
      finish('done'),
    ]);
    const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
    const result = await runner.run(makeAgent(), 'go', { toolSource: source });

    expect(result.status).toBe('completed');
    expect(toolNames[0]).toContain('mcp__srv__unlock');
    expect(toolNames[0]).not.toContain('mcp__srv__added');
    expect(toolNames[1]).toContain('mcp__srv__added');
    expect(toolNames[1]).not.toContain('mcp__srv__unlock');
    expect(added.calls).toEqual([{ value: 'x' }]);
    expect(toolMessages(result).map((message) => message.content)).toEqual([
      'unlocked',
      'mcp__srv__added ran',
      expect.any(String),
    ]);
    // Asked before each of the three model calls.
    expect(source.refreshes).toBe(3);
  });

  it('a changed list that cannot be registered keeps the previous tools and warns', async () => {
    const source = new ChangingSource([recordingTool('mcp__srv__one')]);
    source.change([recordingTool('bash')]);
    const { provider, toolNames } = recordingProvider([finish('done')]);
    const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
    const result = await runner.run(makeAgent(), 'go', { toolSource: source });

    expect(result.status).toBe('completed');
    expect(toolNames[0]).toContain('mcp__srv__one');
    const [warning] = diagnostics(result.events, 'tool_list_refresh_failed');
    expect(warning).toMatchObject({ level: 'warning', details: { error: 'tool already registered: bash' } });
  });

  it("the source's warnings become warning diagnostics of the run, each once", async () => {
    const source = new ChangingSource([recordingTool('mcp__srv__one')]);
    let pending = [{ code: 'mcp_server_unavailable', message: 'MCP server srv failed to start: boom' }];
    const warned: DynamicToolSource = {
      tools: () => source.tools(),
      refresh: (signal) => source.refresh(signal),
      takeWarnings: () => {
        const taken = pending;
        pending = [];
        return taken;
      },
    };
    const { provider } = recordingProvider([
      { tool_calls: [toolCall('c1', 'mcp__srv__one')] },
      finish('done'),
    ]);
    const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
    const result = await runner.run(makeAgent(), 'go', { toolSource: warned });

    expect(result.status).toBe('completed');
    expect(diagnostics(result.events, 'mcp_server_unavailable')).toEqual([
      expect.objectContaining({
        level: 'warning',
        details: { message: 'MCP server srv failed to start: boom' },
      }),
    ]);
  });

  it('a run cancelled while its source gets ready ends cancelled before any model call', async () => {
    let refreshing = (): void => undefined;
    const started = new Promise<void>((resolve) => (refreshing = resolve));
    // Like an MCP server that is still starting: ready only when the run gives up on it.
    const slow: DynamicToolSource = {
      tools: () => [],
      refresh: (signal) =>
        new Promise<boolean>((resolve) => {
          refreshing();
          signal.addEventListener('abort', () => resolve(false), { once: true });
        }),
    };
    const { provider, toolNames } = recordingProvider([finish('never')]);
    const runner = new Runner({ modelProvider: provider, workspace: workspace.path });
    const handle = runner.start(makeAgent(), 'go', { toolSource: slow });
    await started;
    expect(handle.cancel('stop')).toBe(true);
    const result = await handle.result();

    expect(result).toMatchObject({ completionReason: 'cancelled', error: 'stop' });
    expect(toolNames).toEqual([]);
  });
});
