/**
 * `thread/*` handlers (protocol.md §3.3–§3.8). Each handler's own notifications follow its response
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
import { ThreadsService } from '../../../core/threads/threads.service';

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
    await this.threads.archive(threadId);
    ctx.afterResponse(async () => {
      const requester = ctx.connectionId;
      await this.threads.announceArchived(threadId);
      await this.notifications.toRequesterUnlessSubscribed(threadId, requester, 'thread/archived', {
        threadId,
        archived: true,
      });
      await this.notifications.toRequesterUnlessSubscribed(threadId, requester, 'thread/status/changed', {
        threadId,
        status: 'archived',
      });
    });
    return { threadId, archived: true };
  }

  /** history.md §2: like thread/start, `thread/started` (start shape) follows to the requester. */
  @RpcMethod('thread/fork')
  async fork(params: ThreadForkParamsDto, ctx: RpcContext): Promise<ThreadForkSummary> {
    const result = await this.threads.fork(params, ctx.connectionId);
    const { threadId, agentKey, cwd, status } = result;
    ctx.afterResponse(() =>
      this.notifications.toRequester(ctx.connectionId, 'thread/started', { threadId, agentKey, cwd, status }),
    );
    return result;
  }

  /** history.md §3: the updated thread, then `thread/updated` to the requester and the subscribers. */
  @RpcMethod('thread/metadata/update')
  async updateMetadata(params: ThreadMetadataUpdateParamsDto, ctx: RpcContext): Promise<AppThread> {
    const thread = await this.threads.updateMetadata(params.threadId, params.metadata);
    ctx.afterResponse(async () => {
      await this.threads.announceUpdated(thread);
      await this.notifications.toRequesterUnlessSubscribed(
        thread.threadId,
        ctx.connectionId,
        'thread/updated',
        {
          thread,
        },
      );
    });
    return thread;
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
