/**
 * Loads docs/examples/*.ts at run time. The examples import `vv-agent-app-server` (mapped to the
 * sources by docs/examples/tsconfig.json for type-checking, and by jest.mock in the spec for running);
 * a static import here would pull them into the repository's own tsc program, which has no such
 * mapping. So the spec declares the shape it uses of each example, in terms of the sources' types.
 */
import { join, resolve } from 'node:path';
import type { AppServerCore } from '../../../src/protocols/app-server-v1/app-server-core';
import type {
  ModelProvider,
  ProtocolTaskTokenUsage,
  ResolvedModelConfig,
  RunEvent,
  RunResult,
} from '../../../src';

const EXAMPLES_DIR = resolve(__dirname, '../../../docs/examples');

export interface ExampleModules {
  'runtime-quickstart': {
    quickstart(workspace: string): Promise<{
      streamedText: string;
      eventTypes: string[];
      replayedEventCount: number;
      result: RunResult;
      usage: ProtocolTaskTokenUsage;
    }>;
  };
  'runtime-custom-tool': {
    fileTicketWithApproval(
      tracker: { create(ticket: { title: string; priority: string }, signal: AbortSignal): Promise<string> },
      workspace: string,
      approve: (request: { toolName: string; arguments: Record<string, unknown> }) => boolean,
    ): Promise<RunResult>;
  };
  'runtime-steer-cancel': {
    steerThenCancel(workspace: string): Promise<{ steered: RunEvent[]; cancelled: string }>;
  };
  'runtime-event-store': { runAndReplay(workspace: string, eventFile: string): Promise<string[]> };
  'runtime-openai-client': {
    resolveFromSettings(settingsPath: string, backend: string, model: string): ResolvedModelConfig;
  };
  'client-in-process': {
    runScriptedTurn(
      workspace: string,
      storePath?: string,
    ): Promise<{ methods: string[]; finalOutput: string | undefined; approvals: string[] }>;
  };
  'client-retry': {
    withOverloadRetry<T>(
      call: () => Promise<T>,
      options?: { maxAttempts?: number; sleep?: (ms: number) => Promise<void> },
    ): Promise<T>;
  };
  'validate-with-schemas': {
    unexpectedShape(message: { id?: unknown; method: string; params?: unknown }): string[];
  };
  'embedding-module': {
    startProductServer(config: { modelProvider: ModelProvider; storePath: string }): Promise<{
      core: AppServerCore;
      tenants: { put(tenant: Record<string, unknown>): void };
      close(): Promise<void>;
    }>;
  };
}

export function loadExample<N extends keyof ExampleModules>(name: N): ExampleModules[N] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see the file comment
  return require(join(EXAMPLES_DIR, `${name}.ts`)) as ExampleModules[N];
}
