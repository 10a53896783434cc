/** RunHandle (docs/spec/runtime.md §4) and run setup (§2, §3.1). */
import type { RunEvent } from '../../../src/runtime/events/types';
import { finish, ScriptedModelProvider } from '../../../src/runtime/model/scripted-model';
import type { ModelProvider } from '../../../src/runtime/model/types';
import { Runner } from '../../../src/runtime/runner';
import { eventsOf, makeAgent, recordingTool, scriptedRunner, tempDir, toolCall } from './runtime-test-kit';

async function drain(events: AsyncIterable<RunEvent>): Promise<RunEvent[]> {
  const collected: RunEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

describe('RunHandle', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('start returns at once with ids; events() replays the full journal to every reader', async () => {
    const { runner } = scriptedRunner([{ content: 'step', delay_ms: 20 }, finish('done')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    expect(handle.runId).toMatch(/^run_[0-9a-f]{32}$/);
    expect(handle.traceId).toMatch(/^trace_[0-9a-f]{32}$/);
    expect(handle.state()).toEqual({ status: 'running', done: false, cancelled: false, error: null });

    const [first, second] = await Promise.all([drain(handle.events()), drain(handle.events())]);
    const result = await handle.result();
    expect(first).toEqual(result.events);
    expect(second).toEqual(result.events);
    expect(await drain(handle.events())).toEqual(result.events);
    expect(handle.result()).toBe(handle.result());
    expect(handle.state()).toEqual({ status: 'completed', done: true, cancelled: false, error: null });
  });

  it('a reader that starts late still sees everything, including after the run ended', async () => {
    const { runner } = scriptedRunner([finish('done')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    const result = await handle.result();
    const iterator = handle.events()[Symbol.asyncIterator]();
    const firstEvent = await iterator.next();
    expect(firstEvent.value).toEqual(result.events[0]);
    expect(await drain({ [Symbol.asyncIterator]: () => iterator })).toEqual(result.events.slice(1));
  });

  it('steer validation and the not-active error', async () => {
    const { runner } = scriptedRunner([finish('done')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    expect(() => handle.steer('')).toThrow('steer text must not be empty');
    expect(() => handle.steer('   ')).toThrow('steer text must not be empty');
    await handle.result();
    expect(() => handle.steer('late')).toThrow('run is not active');
  });

  it('followUp records texts for the host and never consumes them', async () => {
    const { runner } = scriptedRunner([finish('done')], workspace.path);
    const handle = runner.start(makeAgent(), 'x');
    handle.followUp('one');
    handle.followUp('two');
    const result = await handle.result();
    expect(handle.followUps()).toEqual(['one', 'two']);
    expect(result.newMessages.some((message) => message.content === 'one')).toBe(false);
  });

  it('state reflects wait_user, max_cycles and failed results', async () => {
    const { runner } = scriptedRunner(
      [{ tool_calls: [toolCall('q', 'ask_user', { question: 'Q?' })] }, { content: 'a' }, { error: 'bad' }],
      workspace.path,
    );
    const waiting = runner.start(makeAgent(), 'x');
    await waiting.result();
    expect(waiting.state()).toEqual({ status: 'wait_user', done: true, cancelled: false, error: null });
    const maxed = runner.start(makeAgent(), 'x', { maxCycles: 1 });
    await maxed.result();
    expect(maxed.state()).toEqual({ status: 'max_cycles', done: true, cancelled: false, error: null });
    const failed = runner.start(makeAgent(), 'x');
    await failed.result();
    expect(failed.state()).toEqual({
      status: 'failed',
      done: true,
      cancelled: false,
      error: 'llm request failed: bad',
    });
  });

  describe('setup failures reject result() and produce no events', () => {
    it.each([
      ['max cycles 0', { maxCycles: 0 }, 'max_cycles must be between 1 and 4294967295'],
      ['max cycles too large', { maxCycles: 4_294_967_296 }, 'max_cycles must be between 1 and 4294967295'],
      ['max cycles fractional', { maxCycles: 1.5 }, 'max_cycles must be between 1 and 4294967295'],
      [
        'backend mismatch',
        { model: { type: 'backend_model' as const, backend: 'other', model: 'm' } },
        'model backend mismatch: requested `other`, provider `scripted`',
      ],
      [
        'invalid settings',
        { modelSettings: { temperature: -1 } },
        'invalid model settings: temperature must be a finite number >= 0',
      ],
      [
        'unknown settings member',
        { modelSettings: { seed: 1 } as never },
        'invalid model settings: unknown member: seed',
      ],
    ])('%s', async (_label, config, message) => {
      const { runner } = scriptedRunner([finish('x')], workspace.path);
      const handle = runner.start(makeAgent(), 'x', config);
      await expect(handle.result()).rejects.toThrow(new Error(message));
      expect(await drain(handle.events())).toEqual([]);
      expect(handle.state()).toEqual({ status: 'failed', done: true, cancelled: false, error: message });
      expect(handle.cancel()).toBe(false);
      expect(() => handle.steer('x')).toThrow('run is not active');
    });

    it('no model provider', async () => {
      const handle = new Runner({ workspace: workspace.path }).start(makeAgent(), 'x');
      await expect(handle.result()).rejects.toThrow('model provider is not configured');
    });

    it('no model ref', async () => {
      const scripted = new ScriptedModelProvider();
      const provider: ModelProvider = {
        resolve: (ref) => scripted.resolve(ref),
        client: (resolved) => scripted.client(resolved),
      };
      const handle = new Runner({ modelProvider: provider }).start(makeAgent(), 'x');
      await expect(handle.result()).rejects.toThrow('agent model is not configured');
    });

    it('an agent tool clashing with a built-in name', async () => {
      const { runner } = scriptedRunner([finish('x')], workspace.path);
      const handle = runner.start(makeAgent({ tools: [recordingTool('bash')] }), 'x');
      await expect(handle.result()).rejects.toThrow('tool already registered: bash');
    });

    it('a tool with an invalid parameters schema', async () => {
      const { runner } = scriptedRunner([finish('x')], workspace.path);
      const tool = recordingTool('odd', {
        parameters: { type: 'object', properties: { a: { type: 'nonsense' } } },
      });
      await expect(runner.run(makeAgent({ tools: [tool] }), 'x')).rejects.toThrow(
        /^invalid tool parameters schema: /,
      );
    });

    it('a never-awaited rejected result does not become an unhandled rejection', async () => {
      const handle = new Runner().start(makeAgent(), 'x');
      expect(await drain(handle.events())).toEqual([]);
    });
  });

  describe('precedence (§3.1) and run metadata', () => {
    it('maxCycles: config → runner default → agent → 10', async () => {
      const steps = Array.from({ length: 12 }, () => ({ content: 'again' }));
      const cycles = async (
        agentMax: number | undefined,
        defaultMax: number | undefined,
        configMax?: number,
      ) => {
        const { runner } = scriptedRunner([...steps], workspace.path, { maxCycles: defaultMax });
        const result = await runner.run(makeAgent({ maxCycles: agentMax }), 'x', { maxCycles: configMax });
        return eventsOf(result.events, 'cycle_started').length;
      };
      expect(await cycles(undefined, undefined)).toBe(10);
      expect(await cycles(3, undefined)).toBe(3);
      expect(await cycles(3, 2)).toBe(2);
      expect(await cycles(3, 2, 1)).toBe(1);
    });

    it('noToolPolicy: config → runner default → agent', async () => {
      const { runner } = scriptedRunner([{ content: 'a' }, { content: 'b' }], workspace.path, {
        noToolPolicy: 'wait_user',
      });
      const agent = makeAgent({ noToolPolicy: 'finish' });
      expect((await runner.run(agent, 'x')).status).toBe('wait_user');
      expect((await runner.run(agent, 'x', { noToolPolicy: 'finish' })).status).toBe('completed');
    });

    it('toolPolicy: allowedTools from the first layer that sets it, disallowedTools united', async () => {
      const tools = ['a', 'b', 'c'].map((name) => recordingTool(name));
      const seenTools: string[][] = [];
      const { runner } = scriptedRunner(
        [
          (request) => {
            seenTools.push(request.tools.map((tool) => tool.function.name));
            return finish('x');
          },
        ],
        workspace.path,
        { toolPolicy: { allowedTools: ['task_finish', 'a', 'b'], disallowedTools: ['b'] } },
      );
      const agent = makeAgent({
        tools,
        toolPolicy: { allowedTools: ['c'], disallowedTools: ['ask_user'] },
      });
      await runner.run(agent, 'x');
      expect(seenTools).toEqual([['task_finish', 'a']]);
    });

    it('metadata merges agent, runner default and config; session_id goes on every event', async () => {
      const seen: Array<Record<string, unknown>> = [];
      const probe = recordingTool('probe', {
        handler: async (ctx) => {
          seen.push(ctx.metadata);
          return { type: 'text', text: 'ok' };
        },
      });
      const { runner } = scriptedRunner(
        [{ tool_calls: [toolCall('c', 'probe')] }, finish('x')],
        workspace.path,
        {
          metadata: { a: 'runner', b: 'runner' },
        },
      );
      const agent = makeAgent({ tools: [probe], metadata: { a: 'agent', z: 'agent' } });
      const result = await runner.run(agent, 'x', { metadata: { b: 'config', session_id: 'thread_7' } });
      expect(seen).toEqual([{ a: 'runner', z: 'agent', b: 'config', session_id: 'thread_7' }]);
      expect(result.events.every((event) => event.session_id === 'thread_7')).toBe(true);
    });

    it('events omit session_id without one; the workspace defaults to the runner workspace, resolved', async () => {
      const seen: string[] = [];
      const probe = recordingTool('probe', {
        handler: async (ctx) => {
          seen.push(ctx.workspace);
          return { type: 'text', text: 'ok' };
        },
      });
      const provider = new ScriptedModelProvider({
        steps: [{ tool_calls: [toolCall('c', 'probe')] }, finish('x')],
      });
      const runner = new Runner({ modelProvider: provider, workspace: 'relative-ws' });
      const result = await runner.run(makeAgent({ tools: [probe] }), 'x');
      expect(seen).toEqual([`${process.cwd()}/relative-ws`]);
      expect(result.events.some((event) => 'session_id' in event)).toBe(false);
    });

    it('model settings: agent overlaid by run, extra_body merged by key, passed to the client', async () => {
      const settings: unknown[] = [];
      const { runner } = scriptedRunner(
        [
          (request) => {
            settings.push(request.settings);
            return finish('x');
          },
        ],
        workspace.path,
      );
      const agent = makeAgent({
        modelSettings: { temperature: 0.2, max_tokens: 100, extra_body: { a: 1, b: 1 } },
      });
      await runner.run(agent, 'x', { modelSettings: { temperature: 0.7, extra_body: { b: 2 } } });
      expect(settings).toEqual([{ temperature: 0.7, max_tokens: 100, extra_body: { a: 1, b: 2 } }]);
    });
  });
});
