/** Params of `initialize` (docs/spec/protocol.md §3.1), properties in the order of the spec's params table. */
import {
  OptionalBoolean,
  OptionalNested,
  OptionalString,
  OptionalStringArray,
  RequiredNested,
  RequiredNonBlankString,
} from './param-rules';

export class ClientInfoDto {
  @RequiredNonBlankString()
  name!: string;

  @OptionalString()
  title?: string;

  @OptionalString()
  version?: string;
}

export class ClientCapabilitiesDto {
  @OptionalBoolean()
  experimentalApi?: boolean;

  /** Exact, case-sensitive notification method names; unknown names are accepted. */
  @OptionalStringArray()
  optOutNotificationMethods?: string[];
}

export class InitializeParamsDto {
  @RequiredNested(() => ClientInfoDto)
  clientInfo!: ClientInfoDto;

  @OptionalNested(() => ClientCapabilitiesDto)
  capabilities?: ClientCapabilitiesDto;
}
