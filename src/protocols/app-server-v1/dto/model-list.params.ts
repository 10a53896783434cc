/** Params of `model/list` (docs/spec/protocol.md §3.14). */
import { OptionalString } from './param-rules';

export class ModelListParamsDto {
  @OptionalString()
  agentKey?: string;

  @OptionalString()
  provider?: string;
}
