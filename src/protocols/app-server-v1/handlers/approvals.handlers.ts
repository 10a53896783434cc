/** `approval/resolve` (protocol.md §3.13): `{}` then `approval/resolved` after the response. */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type { ApprovalResolveParamsDto } from '../dto';
import { DomainErrors } from '../../../core/domain-error';
import { RpcContext } from '../rpc-context';
import { ApprovalRouter } from '../../../core/approvals/approval-router';

@Injectable()
export class ApprovalsHandlers {
  constructor(@Inject(ApprovalRouter) private readonly router: ApprovalRouter) {}

  @RpcMethod('approval/resolve')
  resolve(params: ApprovalResolveParamsDto, ctx: RpcContext): Record<string, never> {
    const announce = this.router.resolveByClient(ctx.connectionId, params);
    if (announce === null) throw DomainErrors.unknownApprovalRequest();
    ctx.afterResponse(announce);
    return {};
  }
}
