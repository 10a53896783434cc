/** `approval/resolve` (docs/spec/protocol.md §3.13): `{}` then `approval/resolved` after the response. */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type { ApprovalResolveParamsDto } from '../dto';
import { RpcContext } from '../rpc-context';
import { ApprovalResolutions } from '../../../core/turns/approval-resolutions';

@Injectable()
export class ApprovalsHandlers {
  constructor(@Inject(ApprovalResolutions) private readonly resolutions: ApprovalResolutions) {}

  @RpcMethod('approval/resolve')
  async resolve(params: ApprovalResolveParamsDto, ctx: RpcContext): Promise<Record<string, never>> {
    const announce = await this.resolutions.resolve(ctx.connectionId, params);
    if (announce !== null) ctx.afterResponse(announce);
    return {};
  }
}
