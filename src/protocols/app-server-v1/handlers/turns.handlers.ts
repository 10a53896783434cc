/**
 * `turn/*` handlers (docs/spec/protocol.md §3.9–§3.12) and `thread/compact`, which starts a turn (docs/spec/history.md §1). turn/start responds, then broadcasts
 * `thread/status/changed(running)` and `turn/started` and starts forwarding; turn/interrupt
 * responds, then broadcasts the `approval/resolved` of the approvals it resolved (§7.5).
 */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type {
  ThreadCompactParamsDto,
  TurnControlParamsDto,
  TurnInterruptParamsDto,
  TurnStartParamsDto,
} from '../dto';
import { RpcContext } from '../rpc-context';
import type { TurnCancellation, TurnCompaction, TurnQueued, TurnStart } from '../../../core/model/types';
import { TurnsService } from '../../../core/turns/turns.service';

@Injectable()
export class TurnsHandlers {
  constructor(@Inject(TurnsService) private readonly turns: TurnsService) {}

  @RpcMethod('turn/start')
  async start(params: TurnStartParamsDto, ctx: RpcContext): Promise<TurnStart> {
    const { response, begin } = await this.turns.start(params, ctx.connectionId, ctx.span);
    ctx.afterResponse(begin);
    return response;
  }

  /** docs/spec/history.md §1: a compaction turn; its notifications follow the response like turn/start's. */
  @RpcMethod('thread/compact')
  async compact(params: ThreadCompactParamsDto, ctx: RpcContext): Promise<TurnCompaction> {
    const { response, begin } = await this.turns.compact(params.threadId, ctx.connectionId, ctx.span);
    ctx.afterResponse(begin);
    return response;
  }

  @RpcMethod('turn/steer')
  async steer(params: TurnControlParamsDto): Promise<TurnQueued> {
    return (await this.turns.control('steerTurn', params)) as TurnQueued;
  }

  @RpcMethod('turn/followUp')
  async followUp(params: TurnControlParamsDto): Promise<TurnQueued> {
    return (await this.turns.control('followUpTurn', params)) as TurnQueued;
  }

  @RpcMethod('turn/interrupt')
  async interrupt(params: TurnInterruptParamsDto, ctx: RpcContext): Promise<TurnCancellation> {
    // docs/spec/postgres.md §2: a turn running on another instance is interrupted there.
    if (!this.turns.runsHere(params.threadId)) {
      return (await this.turns.control('interruptTurn', params)) as TurnCancellation;
    }
    const { response, announcements } = this.turns.interrupt(params);
    ctx.afterResponse(async () => {
      for (const announce of announcements) await announce();
    });
    return response;
  }
}
