/** Params of `model/list` (protocol.md §3.14). */
import { OptionalString } from './param-rules';

export class ModelListParamsDto {
  @OptionalString()
  agentKey?: string;

  @OptionalString()
  provider?: string;
}
