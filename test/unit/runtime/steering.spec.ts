/** Steering (docs/spec/runtime.md §11.4). */
import type { Message } from '../../../src/runtime/messages';
import { finish } from '../../../src/runtime/model/scripted-model';
import type { RunHandle } from '../../../src/runtime/run-config';
import {
  eventsOf,
  lifecycleTypes,
  makeAgent,
  recordingTool,
  scriptedRunner,
  tempDir,
  toolCall,
  toolMessages,
} from './runtime-test-kit';

describe('steering', () => {
  let workspace: { path: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    workspace = await tempDir();
  });
  afterEach(async () => {
    await workspace.cleanup();
  });

  it('is delivered at the start of the next cycle, before its model call, and queued calls are skipped', async () => {
    const live: { handle?: RunHandle } = {};
    let steerId = '';
    const secondRequest: Message[][] = [];
    const probe = recordingTool('probe');
    const { runner } = scriptedRunner(
      [
        () => {
          steerId = live.handle?.steer('Use the staging cluster instead.') ?? '';
          return { content: 'Working.', tool_calls: [toolCall('p1', 'probe'), toolCall('p2', 'probe')] };
        },
        (request) => {
          secondRequest.push(request.messages);
          return finish('Switched.');
        },
      ],
      workspace.path,
    );
    live.handle = runner.start(makeAgent({ tools: [probe] }), 'deploy');
    const result = await live.handle.result();

    expect(steerId).toMatch(/^steer_[0-9a-f]{32}$/);
    expect(probe.calls).toEqual([]);
    const skipped = eventsOf(result.events, 'tool_call_completed').slice(0, 2);
    expect(skipped.map((event) => [event.tool_call_id, event.error_code, event.execution_started])).toEqual([
      ['p1', 'skipped_due_to_steering', false],
      ['p2', 'skipped_due_to_steering', false],
    ]);
    expect(JSON.parse(toolMessages(result)[0].content)).toEqual({
      ok: false,
      error: 'Tool skipped due to queued steering message.',
      error_code: 'skipped_due_to_steering',
    });
    const types = lifecycleTypes(result.events);
    const secondCycle = types.lastIndexOf('cycle_started');
    expect(types.slice(secondCycle, secondCycle + 3)).toEqual([
      'cycle_started',
      'steer_applied',
      'model_call_started',
    ]);
    expect(eventsOf(result.events, 'steer_applied')[0]).toMatchObject({
      steer_id: steerId,
      input: 'Use the staging cluster instead.',
      cycle_index: 2,
    });
    const lastSeen = secondRequest[0][secondRequest[0].length - 1];
    expect(lastSeen).toEqual({ role: 'user', content: 'Use the staging cluster instead.' });
    expect(result.newMessages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
      'assistant',
      'tool',
    ]);
    expect(result.finalAnswer).toBe('Switched.');
  });

  it('a task_finish requested while a steer is pending does not end the run', async () => {
    const live: { handle?: RunHandle } = {};
    const { runner } = scriptedRunner(
      [
        () => {
          live.handle?.steer('One more thing.');
          return finish('Premature.');
        },
        finish('Really done.'),
      ],
      workspace.path,
    );
    live.handle = runner.start(makeAgent(), 'x');
    const result = await live.handle.result();
    expect(eventsOf(result.events, 'tool_call_completed')[0].error_code).toBe('skipped_due_to_steering');
    expect(result).toMatchObject({ status: 'completed', finalAnswer: 'Really done.' });
    expect(eventsOf(result.events, 'cycle_started')).toHaveLength(2);
  });

  it('a reply without tool calls does not end the run while steering is queued', async () => {
    const live: { handle?: RunHandle } = {};
    const { runner } = scriptedRunner(
      [
        () => {
          live.handle?.steer('Wait, also check B.');
          return { content: 'Answer A.' };
        },
        { content: 'Answer A and B.' },
      ],
      workspace.path,
    );
    live.handle = runner.start(makeAgent({ noToolPolicy: 'finish' }), 'x');
    const result = await live.handle.result();
    expect(result).toMatchObject({ completionReason: 'no_tool_finish', finalAnswer: 'Answer A and B.' });
    expect(eventsOf(result.events, 'steer_applied')).toHaveLength(1);
  });

  it('entries still queued when the run ends are discarded without events', async () => {
    const live: { handle?: RunHandle } = {};
    const { runner } = scriptedRunner(
      [
        () => {
          live.handle?.steer('too late');
          live.handle?.cancel();
          return { content: 'x' };
        },
      ],
      workspace.path,
    );
    live.handle = runner.start(makeAgent(), 'x');
    const result = await live.handle.result();
    expect(eventsOf(result.events, 'steer_applied')).toEqual([]);
    expect(result.newMessages.some((message) => message.content === 'too late')).toBe(false);
    expect(result.completionReason).toBe('cancelled');
  });
});
