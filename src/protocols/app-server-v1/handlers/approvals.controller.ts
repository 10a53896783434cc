/** `approval/resolve` (protocol.md §3.13): `{}` then `approval/resolved` after the response. */
import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { ApprovalResolveParamsDto } from '../dto';
import { DomainErrors } from '../../../core/domain-error';
import { RpcContext } from '../rpc-context';
import { ApprovalRouter } from '../../../core/approvals/approval-router';

@Controller()
export class ApprovalsController {
  constructor(@Inject(ApprovalRouter) private readonly router: ApprovalRouter) {}

  @MessagePattern('approval/resolve')
  resolve(@Payload() params: ApprovalResolveParamsDto, @Ctx() ctx: RpcContext): Record<string, never> {
    const announce = this.router.resolveByClient(ctx.connectionId, params);
    if (announce === null) throw DomainErrors.unknownApprovalRequest();
    ctx.afterResponse(announce);
    return {};
  }
}
