/**
 * `thread/*` handlers (docs/spec/protocol.md §3.3–§3.8). Each handler's own notifications follow its response
 * (§7.5): thread/start → `thread/started`; thread/archive → `thread/archived`,
 * `thread/status/changed(archived)`; a closing thread/unsubscribe → `thread/closed`,
 * `thread/status/changed(closed)`.
 */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type {
  ThreadArchiveParamsDto,
  ThreadForkParamsDto,
  ThreadListParamsDto,
  ThreadMetadataUpdateParamsDto,
  ThreadReadParamsDto,
  ThreadResumeParamsDto,
  ThreadStartParamsDto,
  ThreadUnsubscribeParamsDto,
} from '../dto';
import { mcpServersIssues } from '../dto/mcp-servers.params';
import { RpcErrors } from '../errors';
import { RpcContext } from '../rpc-context';
import type {
  AppThread,
  ThreadArchival,
  ThreadForkSummary,
  ThreadPage,
  ThreadSnapshot,
  ThreadSummary,
  ThreadUnsubscription,
} from '../../../core/model/types';
import { ThreadNotifications } from '../delivery/thread-notifications';
import { ThreadsService, type ThreadNotice } from '../../../core/threads/threads.service';

@Injectable()
export class ThreadsHandlers {
  constructor(
    @Inject(ThreadsService) private readonly threads: ThreadsService,
    @Inject(ThreadNotifications) private readonly notifications: ThreadNotifications,
  ) {}

  @RpcMethod('thread/start')
  async start(params: ThreadStartParamsDto, ctx: RpcContext): Promise<ThreadSummary> {
    const mcpIssues = params.mcpServers === undefined ? [] : mcpServersIssues(params.mcpServers);
    if (mcpIssues.length > 0) throw RpcErrors.invalidParams(mcpIssues);
    const result = await this.threads.start(params, ctx.connectionId);
    ctx.afterResponse(() =>
      this.notifications.toRequester(ctx.connectionId, 'thread/started', { ...result }),
    );
    return result;
  }

  @RpcMethod('thread/resume')
  async resume(params: ThreadResumeParamsDto, ctx: RpcContext): Promise<ThreadSnapshot> {
    const { response, afterResponse } = await this.threads.resume(params, ctx.connectionId);
    if (afterResponse !== null) ctx.afterResponse(afterResponse);
    return response;
  }

  @RpcMethod('thread/read')
  read(params: ThreadReadParamsDto): Promise<ThreadSnapshot> {
    return this.threads.read(params);
  }

  @RpcMethod('thread/list')
  list(params: ThreadListParamsDto): Promise<ThreadPage> {
    return this.threads.list(params);
  }

  @RpcMethod('thread/archive')
  async archive(params: ThreadArchiveParamsDto, ctx: RpcContext): Promise<ThreadArchival> {
    const { threadId } = params;
    const notices = await this.threads.archive(threadId);
    ctx.afterResponse(() => this.announce(threadId, ctx.connectionId, notices));
    return { threadId, archived: true };
  }

  /** docs/spec/history.md §2: like thread/start, `thread/started` (start shape) follows to the requester. */
  @RpcMethod('thread/fork')
  async fork(params: ThreadForkParamsDto, ctx: RpcContext): Promise<ThreadForkSummary> {
    const result = await this.threads.fork(params, ctx.connectionId);
    const { threadId, agentKey, cwd, status } = result;
    ctx.afterResponse(() =>
      this.notifications.toRequester(ctx.connectionId, 'thread/started', { threadId, agentKey, cwd, status }),
    );
    return result;
  }

  /** docs/spec/history.md §3: the updated thread, then `thread/updated` to the requester and the subscribers. */
  @RpcMethod('thread/metadata/update')
  async updateMetadata(params: ThreadMetadataUpdateParamsDto, ctx: RpcContext): Promise<AppThread> {
    const { thread, notices } = await this.threads.updateMetadata(params.threadId, params.metadata);
    // A requester that is no subscriber gets the thread as its response showed it.
    const own: ThreadNotice[] = [{ kind: 'threadUpdated', params: { thread } }];
    ctx.afterResponse(() => this.announce(thread.threadId, ctx.connectionId, notices, own));
    return thread;
  }

  /** The subscribers everywhere (through the core), then the requester unless it is one of them. */
  private async announce(
    threadId: string,
    requesterId: string,
    notices: readonly ThreadNotice[],
    forRequester: readonly ThreadNotice[] = notices,
  ): Promise<void> {
    await this.threads.announce(threadId, notices);
    await this.notifications.toRequesterUnlessSubscribed(threadId, requesterId, forRequester);
  }

  @RpcMethod('thread/unsubscribe')
  async unsubscribe(params: ThreadUnsubscribeParamsDto, ctx: RpcContext): Promise<ThreadUnsubscription> {
    const result = await this.threads.unsubscribe(params.threadId, ctx.connectionId);
    if (result.closed) {
      const { threadId } = result;
      ctx.afterResponse(async () => {
        await this.notifications.toRequester(ctx.connectionId, 'thread/closed', { threadId });
        await this.notifications.toRequester(ctx.connectionId, 'thread/status/changed', {
          threadId,
          status: 'closed',
        });
      });
    }
    return result;
  }
}
