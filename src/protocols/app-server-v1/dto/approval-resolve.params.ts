/** Params of `approval/resolve` (docs/spec/protocol.md §3.13), in the order of the spec's params table. */
import { APPROVAL_DECISIONS, type ApprovalDecisionValue } from '../../../core/model/types';
import { OptionalObject, OptionalString, RequiredOneOf, RequiredString } from './param-rules';

export class ApprovalResolveParamsDto {
  @RequiredString()
  threadId!: string;

  @RequiredString()
  turnId!: string;

  @RequiredString()
  requestId!: string;

  /** Case-sensitive. */
  @RequiredOneOf(APPROVAL_DECISIONS)
  decision!: ApprovalDecisionValue;

  @OptionalString()
  reason?: string;

  @OptionalObject()
  metadata?: Record<string, unknown>;
}
