import { Agent } from '../../../src/runtime/agent';
import { finish } from '../../../src/runtime/model/scripted-model';
import { eventsOf, makeAgent, recordingTool, scriptedRunner, tempDir, toolCall } from './runtime-test-kit';

describe('Agent.create (§1)', () => {
  it.each([
    [{ name: '  ', instructions: 'x' }, 'agent name cannot be empty'],
    [{ name: 'a', instructions: '\n\t' }, 'agent instructions cannot be empty'],
  ])('validates %j', (options, message) => {
    expect(() => Agent.create(options)).toThrow(new Error(message));
  });

  it('rejects unknown built-in names and invalid tool metadata', () => {
    expect(() => makeAgent({ tools: ['rm_rf' as never] })).toThrow(new Error('unknown built-in tool: rm_rf'));
    expect(() =>
      makeAgent({ tools: [recordingTool('t', { toolMetadata: { side_effect: 'boom' as never } })] }),
    ).toThrow(/^tool_metadata_invalid: /);
  });

  it('is immutable and resolves built-in names to their definitions', () => {
    const agent = makeAgent({ tools: ['read_file', 'bash'], metadata: { a: 1 } });
    expect(agent.tools.map((tool) => tool.name)).toEqual(['read_file', 'bash']);
    expect(Object.isFrozen(agent)).toBe(true);
    expect(Object.isFrozen(agent.tools)).toBe(true);
    expect(() => {
      (agent.metadata as Record<string, unknown>).a = 2;
    }).toThrow();
  });

  describe('built-in tools by name in a run', () => {
    let workspace: { path: string; cleanup: () => Promise<void> };
    beforeEach(async () => {
      workspace = await tempDir();
    });
    afterEach(async () => {
      await workspace.cleanup();
    });

    it('bash is visible with the shell hint and asks for approval under on-request', async () => {
      const seenTools: Array<{ name: string; description: string; parameters: unknown }> = [];
      const { runner } = scriptedRunner(
        [
          (request) => {
            seenTools.push(...request.tools.map((tool) => tool.function));
            return { tool_calls: [toolCall('b', 'bash', { command: 'echo hi' })] };
          },
          finish('ok'),
        ],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: ['bash'] }), 'x');
      expect(seenTools.map((tool) => tool.name)).toEqual(['task_finish', 'ask_user', 'bash']);
      expect(seenTools[2].description).toMatch(
        /\n\nRuntime shell hint: commands run via `bash` using prefix `bash -c` \(non-login\)\.$/,
      );
      expect(seenTools[0].parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(eventsOf(result.events, 'tool_call_completed')[0]).toMatchObject({
        tool_name: 'bash',
        error_code: 'tool_approval_required',
        tool_metadata: { side_effect: 'execute', idempotency: 'unsupported', terminal: false },
      });
    });

    it('bash runs after approval in the run workspace', async () => {
      const { runner } = scriptedRunner(
        [{ tool_calls: [toolCall('b', 'bash', { command: 'pwd' })] }, finish('ok')],
        workspace.path,
      );
      const result = await runner.run(makeAgent({ tools: ['bash'] }), 'x', {
        approvalProvider: { shouldRequest: () => true, decide: async () => ({ action: 'allow' }) },
      });
      const completed = eventsOf(result.events, 'tool_call_completed')[0];
      expect(completed).toMatchObject({ status: 'success', execution_started: true });
      expect(completed.output_preview?.trim()).toContain(workspace.path.split('/').pop());
    });
  });
});
