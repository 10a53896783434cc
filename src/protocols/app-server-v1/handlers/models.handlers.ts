/** `model/list` (docs/spec/protocol.md §3.14): delegates to the host's catalog. */
import { Inject, Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import {
  APP_SERVER_HOST,
  type AppServerHost,
  type ModelListParams,
} from '../../../core/host/app-server-host';
import type { ModelListParamsDto } from '../dto';
import { RpcErrors } from '../errors';
import type { AppModelInfo } from '../../../core/model/types';

export interface ModelListResponse {
  models: AppModelInfo[];
}

@Injectable()
export class ModelsHandlers {
  constructor(@Inject(APP_SERVER_HOST) private readonly host: AppServerHost) {}

  /** Host failures answer -32603 with the host's message. */
  @RpcMethod('model/list')
  async list(params: ModelListParamsDto): Promise<ModelListResponse> {
    const request: ModelListParams = {};
    if (params.agentKey !== undefined) request.agentKey = params.agentKey;
    if (params.provider !== undefined) request.provider = params.provider;
    try {
      const { models } = await this.host.listModels(request);
      return { models };
    } catch (error) {
      throw RpcErrors.internal(error);
    }
  }
}
