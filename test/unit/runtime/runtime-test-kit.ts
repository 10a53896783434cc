/** Shared fixtures for runtime tests: scripted runners, temp workspaces, event helpers. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentOptions } from '../../../src/runtime/agent';
import type { RunEvent, RunEventOf, RunEventType } from '../../../src/runtime/events/types';
import { ScriptedModelProvider, type ScriptStep } from '../../../src/runtime/model/scripted-model';
import type { LlmClient, LlmRequest, LlmResponse, ModelProvider } from '../../../src/runtime/model/types';
import { missingUsage } from '../../../src/runtime/usage/normalize';
import type { RunConfig, RunResult } from '../../../src/runtime/run-config';
import { Runner } from '../../../src/runtime/runner';
import type { ToolDefinition, ToolOutput } from '../../../src/runtime/tools/types';

export async function tempDir(
  prefix = 'vv-runtime-',
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

export function makeAgent(options: Partial<AgentOptions> = {}): Agent {
  return Agent.create({ name: 'tester', instructions: 'Do the task, then finish.', ...options });
}

export function scriptedRunner(
  steps: ScriptStep[],
  workspace: string,
  defaultRunConfig?: RunConfig,
): { runner: Runner; provider: ScriptedModelProvider } {
  const provider = new ScriptedModelProvider({ steps });
  return { runner: new Runner({ modelProvider: provider, workspace, defaultRunConfig }), provider };
}

/** Event types without diagnostics (consumers may ignore them, §6.4). */
export function lifecycleTypes(events: readonly RunEvent[]): string[] {
  return events.filter((event) => event.type !== 'diagnostic').map((event) => event.type);
}

export function eventsOf<T extends RunEventType>(events: readonly RunEvent[], type: T): Array<RunEventOf<T>> {
  return events.filter((event): event is RunEventOf<T> => event.type === type);
}

export function diagnostics(events: readonly RunEvent[], code: string): Array<RunEventOf<'diagnostic'>> {
  return eventsOf(events, 'diagnostic').filter((event) => event.code === code);
}

export function toolCall(
  id: string,
  name: string,
  args: Record<string, unknown> = {},
): { id: string; name: string; arguments: Record<string, unknown> } {
  return { id, name, arguments: args };
}

/** A custom function tool; the handler records its calls. */
export function recordingTool(
  name: string,
  overrides: Partial<ToolDefinition> = {},
  output: ToolOutput = { type: 'text', text: `${name} ran` },
): ToolDefinition & { calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  return {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { value: { type: 'string' } }, required: [] },
    handler: async (_ctx, args) => {
      calls.push(args);
      return output;
    },
    ...overrides,
    calls,
  };
}

/** Resolves when the handle has journaled the `occurrence`-th event of that type. */
export async function waitForEvent<T extends RunEventType>(
  events: AsyncIterable<RunEvent>,
  type: T,
  occurrence = 1,
): Promise<RunEventOf<T>> {
  let seen = 0;
  for await (const event of events) {
    if (event.type === type && ++seen === occurrence) return event as RunEventOf<T>;
  }
  throw new Error(`run ended without a ${type} event`);
}

export function toolMessages(result: RunResult): Array<{ tool_call_id: string; content: string }> {
  return result.newMessages.flatMap((message) =>
    message.role === 'tool' ? [{ tool_call_id: message.tool_call_id, content: message.content }] : [],
  );
}

/** A provider whose client returns raw responses (for inputs the scripted model cannot express). */
/** `requests`: a copy of each request as it was sent (the runner keeps appending to its messages). */
export function rawResponseProvider(
  responses: Array<Partial<LlmResponse>>,
): ModelProvider & { requests: LlmRequest[] } {
  const scripted = new ScriptedModelProvider();
  const queue = [...responses];
  const requests: LlmRequest[] = [];
  const client: LlmClient = {
    async complete(request, callbacks) {
      requests.push(structuredClone(request));
      const next = queue.shift();
      if (!next) throw new Error('no raw response left');
      if (next.content) callbacks.onContent(next.content);
      return { content: '', toolCalls: [], usage: missingUsage(), ...next };
    },
  };
  return {
    requests,
    resolve: (ref) => scripted.resolve(ref),
    client: () => client,
    defaultModelRef: () => scripted.defaultModelRef(),
  };
}
