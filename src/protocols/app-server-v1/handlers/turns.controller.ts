/**
 * `turn/*` handlers (protocol.md §3.9–§3.12). turn/start responds, then broadcasts
 * `thread/status/changed(running)` and `turn/started` and starts forwarding; turn/interrupt
 * responds, then broadcasts the `approval/resolved` of the approvals it resolved (§7.5).
 */
import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { TurnControlParamsDto, TurnInterruptParamsDto, TurnStartParamsDto } from '../dto';
import { RpcContext } from '../rpc-context';
import type { TurnCancellation, TurnQueued, TurnStart } from '../../../core/model/types';
import { TurnsService } from '../../../core/turns/turns.service';

@Controller()
export class TurnsController {
  constructor(@Inject(TurnsService) private readonly turns: TurnsService) {}

  @MessagePattern('turn/start')
  async start(@Payload() params: TurnStartParamsDto, @Ctx() ctx: RpcContext): Promise<TurnStart> {
    const { response, begin } = await this.turns.start(params, ctx.connectionId);
    ctx.afterResponse(begin);
    return response;
  }

  @MessagePattern('turn/steer')
  steer(@Payload() params: TurnControlParamsDto): TurnQueued {
    return this.turns.steer(params);
  }

  @MessagePattern('turn/followUp')
  followUp(@Payload() params: TurnControlParamsDto): TurnQueued {
    return this.turns.followUp(params);
  }

  @MessagePattern('turn/interrupt')
  interrupt(@Payload() params: TurnInterruptParamsDto, @Ctx() ctx: RpcContext): TurnCancellation {
    const { response, announcements } = this.turns.interrupt(params);
    ctx.afterResponse(async () => {
      for (const announce of announcements) await announce();
    });
    return response;
  }
}
