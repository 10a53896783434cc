/**
 * embedding-guide.md "An HTTP application": AppServerModule inside an ordinary Nest HTTP app
 * (`NestFactory.create`), a host class that Nest builds with an application provider injected, an
 * endpoint that runs turns, and Nest's own shutdown hooks stopping running turns on SIGTERM.
 * The e2e test installs the packed package into a fresh app, compiles this file and runs it.
 *
 * Configuration (environment): CHAT_SETTINGS (LLM settings file), CHAT_BACKEND, CHAT_MODEL,
 * CHAT_STORE (sqlite file), CHAT_WORKSPACE (an existing directory), PORT (0 = any free port).
 */
// #region app
import 'reflect-metadata';
import { Body, Controller, Get, Inject, Injectable, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppServerClient } from 'vv-agent-app-server/client';
import {
  AppServerCore,
  AppServerModule,
  type AppServerHost,
  type HostTurnRequest,
} from 'vv-agent-app-server/nest';
import {
  Agent,
  FixedModelProvider,
  Runner,
  createOpenAiCompatibleClient,
  loadLlmSettings,
  resolveModelEndpoint,
  type RunConfig,
} from 'vv-agent-app-server/runtime';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** An application provider: what the product knows about its assistant. */
@Injectable()
export class AssistantProfile {
  readonly instructions = 'You are the product assistant. Answer briefly, then call task_finish.';
  readonly workspace = required('CHAT_WORKSPACE');
}

/** Built by Nest (`host: ChatHost` below), with the application's provider injected. */
@Injectable()
export class ChatHost implements AppServerHost {
  constructor(@Inject(AssistantProfile) private readonly profile: AssistantProfile) {}

  async resolveAgent(request: HostTurnRequest): Promise<Agent> {
    return Agent.create({
      name: request.agentKey.trim() || 'assistant',
      instructions: this.profile.instructions,
    });
  }

  async buildRunConfig(): Promise<RunConfig> {
    return { workspace: this.profile.workspace, maxCycles: 8 };
  }

  async listModels(): Promise<{ models: [] }> {
    return { models: [] };
  }
}

@Module({ providers: [AssistantProfile], exports: [AssistantProfile] })
export class ProfileModule {}

/** Starts a turn and answers at once; the turn runs on in the background. */
@Controller('chats')
export class ChatController {
  constructor(@Inject(AppServerCore) private readonly core: AppServerCore) {}

  @Post()
  async start(@Body() body: { text?: unknown }): Promise<{ threadId: string; turnId: string }> {
    const client = AppServerClient.inProcess(this.core);
    try {
      await client.initialize({ name: 'chat-http', version: '1.0.0' });
      const { threadId } = await client.startThread({});
      const { turnId } = await client.startTurn({
        threadId,
        input: [{ type: 'text', text: String(body.text ?? '') }],
      });
      return { threadId, turnId };
    } finally {
      // Closing the connection only unsubscribes it: the turn keeps running.
      await client.close();
    }
  }

  @Get(':threadId')
  async read(@Param('threadId') threadId: string): Promise<{ status: string; finalOutput: string | null }> {
    const client = AppServerClient.inProcess(this.core);
    try {
      await client.initialize({ name: 'chat-http', version: '1.0.0' });
      const { thread, turns } = await client.readThread({ threadId });
      const last = turns[turns.length - 1];
      return { status: last?.status ?? thread.status, finalOutput: last?.result?.finalOutput ?? null };
    } finally {
      await client.close();
    }
  }
}

function runner(): Runner {
  const settings = loadLlmSettings(required('CHAT_SETTINGS'));
  const resolved = resolveModelEndpoint(settings, required('CHAT_BACKEND'), required('CHAT_MODEL'));
  const client = createOpenAiCompatibleClient(settings, resolved, { timeoutSeconds: 60 });
  return new Runner({ modelProvider: new FixedModelProvider(resolved, client) });
}

@Module({
  imports: [
    ProfileModule,
    AppServerModule.forRootAsync({
      // A host class is built by Nest with its dependencies from these modules.
      imports: [ProfileModule],
      useFactory: () => ({ runner: runner(), host: ChatHost, store: { path: required('CHAT_STORE') } }),
    }),
  ],
  controllers: [ChatController],
})
export class ChatAppModule {}

export async function main(): Promise<void> {
  const app = await NestFactory.create(ChatAppModule, { logger: ['error', 'warn'] });
  // SIGTERM / SIGINT → app.close(): AppServerModule interrupts running turns and stores them
  // before the store closes.
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  process.stderr.write(`chat app listening on ${await app.getUrl()}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
// #endregion app
